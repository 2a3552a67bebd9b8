/**
 * Every screen of the dashboard, declared once: its route(s), who may open it, whether the admin
 * sidebar shows, the document title, the page module that draws it (loaded on demand) with the
 * props it takes from the route, and its settings-sidebar link. The route table, the page
 * renderers, the preloads and the settings links are all derived from this list (routes.ts,
 * pages.tsx). Pages are named, not imported: the pages import the shell that reads this list.
 */

import type { Area } from '../lib/roles';

export type RouteCondition = 'none' | 'guest' | 'auth';
type RouteParams = Record<string, string>;

export type SettingsLinkGroup = 'system' | 'sync' | 'auth';

export interface ScreenEntry<K extends string = string> {
  page: K;
  /** navigo patterns, named params as :name; several when one screen answers more than one route. */
  paths: readonly string[];
  condition: RouteCondition;
  /** Shows the admin sidebar (when an admin is signed in). */
  sidebar: boolean;
  /** The document title: a key of locales/<lang>/ui.json ('' for none). */
  title: string;
  /** The page module under src/pages (its default export); absent for the entry screen, which the main chunk draws. */
  module?: string;
  /** The page's props from the route's params. */
  props?: (params: RouteParams) => Record<string, unknown>;
  /** Its link in the settings sidebar (in list order), hidden in restricted mode when `restricted`. */
  /** (`label` is a key of locales/<lang>/ui.json) */
  settingsLink?: { label: string; group: SettingsLinkGroup; restricted?: boolean };
  /** The role area it needs ('full': full admins only); absent: every admin (src/lib/roles.ts). */
  area?: Area | 'full';
}

/** Keeps each entry's page key as a literal (PageKey). */
const screen = <K extends string>(entry: ScreenEntry<K>): ScreenEntry<K> => entry;

const token = (p: RouteParams) => ({ token: p.token ?? '' });
const guest = { condition: 'guest', sidebar: false } as const;
const admin = { condition: 'auth', sidebar: true } as const;
const open = { condition: 'none', sidebar: false } as const;

export const SCREENS = [
  screen({ page: 'entry', paths: ['/'], ...open, title: '' }),

  screen({ page: 'login', paths: ['/login'], ...guest, title: 'page.login', module: 'auth/LoginPage' }),
  screen({ page: 'requestPasswordReset', paths: ['/request-password-reset'], ...guest, title: 'page.requestPasswordReset', module: 'auth/RequestPasswordResetPage' }),
  screen({ page: 'confirmPasswordReset', paths: ['/confirm-password-reset/:token'], ...guest, title: 'page.confirmPasswordReset', module: 'auth/ConfirmPasswordResetPage', props: token }),

  screen({ page: 'collections', paths: ['/collections'], ...admin, title: 'page.collections', module: 'collections/CollectionsPage' }),
  screen({ page: 'collectionsGraph', paths: ['/collections/graph'], ...admin, title: 'page.collectionsGraph', module: 'collections/graph/RelationGraphPage' }),
  screen({ page: 'logs', paths: ['/logs'], ...admin, title: 'page.logs', module: 'logs/LogsPage', area: 'logs' }),
  screen({ page: 'sqlConsole', paths: ['/sql'], ...admin, title: 'page.sqlConsole', module: 'sql/SqlConsolePage', area: 'sqlConsole' }),
  screen({ page: 'audit', paths: ['/audit'], ...admin, title: 'page.audit', module: 'audit/AuditPage', area: 'full' }),

  screen({ page: 'settingsApplication', paths: ['/settings'], ...admin, title: 'page.settingsApplication', module: 'settings/ApplicationSettingsPage', settingsLink: { label: 'link.settingsApplication', group: 'system' } , area: 'settings' }),
  screen({ page: 'settingsMail', paths: ['/settings/mail'], ...admin, title: 'page.settingsMail', module: 'settings/MailSettingsPage', settingsLink: { label: 'link.settingsMail', group: 'system' } , area: 'mail' }),
  screen({ page: 'settingsStorage', paths: ['/settings/storage'], ...admin, title: 'page.settingsStorage', module: 'settings/StorageSettingsPage', settingsLink: { label: 'link.settingsStorage', group: 'system' } , area: 'storage' }),
  screen({ page: 'settingsBackups', paths: ['/settings/backups'], ...admin, title: 'page.settingsBackups', module: 'settings/backups/BackupsPage', settingsLink: { label: 'link.settingsBackups', group: 'system' } , area: 'backups' }),
  screen({ page: 'settingsExportCollections', paths: ['/settings/export-collections'], ...admin, title: 'page.settingsExportCollections', module: 'settings/ExportCollectionsPage', settingsLink: { label: 'link.settingsExportCollections', group: 'sync', restricted: true } , area: 'collectionsImportExport' }),
  screen({ page: 'settingsImportCollections', paths: ['/settings/import-collections'], ...admin, title: 'page.settingsImportCollections', module: 'settings/ImportCollectionsPage', settingsLink: { label: 'link.settingsImportCollections', group: 'sync', restricted: true } , area: 'collectionsImportExport' }),
  screen({ page: 'settingsMigrations', paths: ['/settings/migrations'], ...admin, title: 'page.settingsMigrations', module: 'settings/MigrationsPage', settingsLink: { label: 'link.settingsMigrations', group: 'sync' } , area: 'migrations' }),
  screen({ page: 'settingsHooks', paths: ['/settings/hooks'], ...admin, title: 'page.settingsHooks', module: 'settings/hooks/HooksPage', settingsLink: { label: 'link.settingsHooks', group: 'sync' } , area: 'full' }),
  screen({ page: 'settingsAuthProviders', paths: ['/settings/auth-providers'], ...admin, title: 'page.settingsAuthProviders', module: 'settings/AuthProvidersPage', settingsLink: { label: 'link.settingsAuthProviders', group: 'auth' } , area: 'authProviders' }),
  screen({ page: 'settingsTokens', paths: ['/settings/tokens'], ...admin, title: 'page.settingsTokens', module: 'settings/TokenOptionsPage', settingsLink: { label: 'link.settingsTokens', group: 'auth' } , area: 'tokens' }),
  screen({ page: 'settingsAdmins', paths: ['/settings/admins'], ...admin, title: 'page.settingsAdmins', module: 'admins/AdminsListPage', settingsLink: { label: 'link.settingsAdmins', group: 'auth' } , area: 'admins' }),

  screen({ page: 'recordConfirmPasswordReset', paths: ['/users/confirm-password-reset/:token', '/auth/confirm-password-reset/:token'], ...open, title: 'page.recordConfirmPasswordReset', module: 'confirmations/RecordConfirmPasswordResetPage', props: token }),
  screen({ page: 'recordConfirmVerification', paths: ['/users/confirm-verification/:token', '/auth/confirm-verification/:token'], ...open, title: 'page.recordConfirmVerification', module: 'confirmations/RecordConfirmVerificationPage', props: token }),
  screen({ page: 'recordConfirmEmailChange', paths: ['/users/confirm-email-change/:token', '/auth/confirm-email-change/:token'], ...open, title: 'page.recordConfirmEmailChange', module: 'confirmations/RecordConfirmEmailChangePage', props: token }),
  screen({ page: 'oauth2RedirectSuccess', paths: ['/auth/oauth2-redirect-success'], ...open, title: 'page.oauth2RedirectSuccess', module: 'confirmations/OAuth2RedirectPage', props: () => ({ success: true }) }),
  screen({ page: 'oauth2RedirectFailure', paths: ['/auth/oauth2-redirect-failure'], ...open, title: 'page.oauth2RedirectFailure', module: 'confirmations/OAuth2RedirectPage', props: () => ({ success: false }) }),
];

export type PageKey = (typeof SCREENS)[number]['page'];
