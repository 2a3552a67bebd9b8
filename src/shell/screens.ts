/**
 * Every screen of the dashboard, declared once: its route(s), who may open it, whether the admin
 * sidebar shows, the document title, the page module that draws it (loaded on demand) with the
 * props it takes from the route, and its settings-sidebar link. The route table, the page
 * renderers, the preloads and the settings links are all derived from this list (routes.ts,
 * pages.tsx). Pages are named, not imported: the pages import the shell that reads this list.
 */

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
  title: string;
  /** The page module under src/pages (its default export); absent for the entry screen, which the main chunk draws. */
  module?: string;
  /** The page's props from the route's params. */
  props?: (params: RouteParams) => Record<string, unknown>;
  /** Its link in the settings sidebar (in list order), hidden in restricted mode when `restricted`. */
  settingsLink?: { label: string; group: SettingsLinkGroup; restricted?: boolean };
}

/** Keeps each entry's page key as a literal (PageKey). */
const screen = <K extends string>(entry: ScreenEntry<K>): ScreenEntry<K> => entry;

const token = (p: RouteParams) => ({ token: p.token ?? '' });
const guest = { condition: 'guest', sidebar: false } as const;
const admin = { condition: 'auth', sidebar: true } as const;
const open = { condition: 'none', sidebar: false } as const;

export const SCREENS = [
  screen({ page: 'entry', paths: ['/'], ...open, title: '' }),

  screen({ page: 'login', paths: ['/login'], ...guest, title: 'Login', module: 'auth/LoginPage' }),
  screen({ page: 'requestPasswordReset', paths: ['/request-password-reset'], ...guest, title: 'Forgotten admin password', module: 'auth/RequestPasswordResetPage' }),
  screen({ page: 'confirmPasswordReset', paths: ['/confirm-password-reset/:token'], ...guest, title: 'Reset admin password', module: 'auth/ConfirmPasswordResetPage', props: token }),

  screen({ page: 'collections', paths: ['/collections'], ...admin, title: 'Collections', module: 'collections/CollectionsPage' }),
  screen({ page: 'collectionsGraph', paths: ['/collections/graph'], ...admin, title: 'Relation graph', module: 'collections/graph/RelationGraphPage' }),
  screen({ page: 'logs', paths: ['/logs'], ...admin, title: 'Logs', module: 'logs/LogsPage' }),
  screen({ page: 'sqlConsole', paths: ['/sql'], ...admin, title: 'SQL console', module: 'sql/SqlConsolePage' }),

  screen({ page: 'settingsApplication', paths: ['/settings'], ...admin, title: 'Application settings', module: 'settings/ApplicationSettingsPage', settingsLink: { label: 'Application', group: 'system' } }),
  screen({ page: 'settingsMail', paths: ['/settings/mail'], ...admin, title: 'Mail settings', module: 'settings/MailSettingsPage', settingsLink: { label: 'Mail settings', group: 'system' } }),
  screen({ page: 'settingsStorage', paths: ['/settings/storage'], ...admin, title: 'Files storage', module: 'settings/StorageSettingsPage', settingsLink: { label: 'Files storage', group: 'system' } }),
  screen({ page: 'settingsBackups', paths: ['/settings/backups'], ...admin, title: 'Backups', module: 'settings/backups/BackupsPage', settingsLink: { label: 'Backups', group: 'system' } }),
  screen({ page: 'settingsExportCollections', paths: ['/settings/export-collections'], ...admin, title: 'Export collections', module: 'settings/ExportCollectionsPage', settingsLink: { label: 'Export collections', group: 'sync', restricted: true } }),
  screen({ page: 'settingsImportCollections', paths: ['/settings/import-collections'], ...admin, title: 'Import collections', module: 'settings/ImportCollectionsPage', settingsLink: { label: 'Import collections', group: 'sync', restricted: true } }),
  screen({ page: 'settingsMigrations', paths: ['/settings/migrations'], ...admin, title: 'Migrations', module: 'settings/MigrationsPage', settingsLink: { label: 'Migrations', group: 'sync' } }),
  screen({ page: 'settingsHooks', paths: ['/settings/hooks'], ...admin, title: 'Hooks', module: 'settings/hooks/HooksPage', settingsLink: { label: 'Hooks', group: 'sync' } }),
  screen({ page: 'settingsAuthProviders', paths: ['/settings/auth-providers'], ...admin, title: 'Auth providers', module: 'settings/AuthProvidersPage', settingsLink: { label: 'Auth providers', group: 'auth' } }),
  screen({ page: 'settingsTokens', paths: ['/settings/tokens'], ...admin, title: 'Token options', module: 'settings/TokenOptionsPage', settingsLink: { label: 'Token options', group: 'auth' } }),
  screen({ page: 'settingsAdmins', paths: ['/settings/admins'], ...admin, title: 'Admins', module: 'admins/AdminsListPage', settingsLink: { label: 'Admins', group: 'auth' } }),

  screen({ page: 'recordConfirmPasswordReset', paths: ['/users/confirm-password-reset/:token', '/auth/confirm-password-reset/:token'], ...open, title: 'Reset password', module: 'confirmations/RecordConfirmPasswordResetPage', props: token }),
  screen({ page: 'recordConfirmVerification', paths: ['/users/confirm-verification/:token', '/auth/confirm-verification/:token'], ...open, title: 'Email verification', module: 'confirmations/RecordConfirmVerificationPage', props: token }),
  screen({ page: 'recordConfirmEmailChange', paths: ['/users/confirm-email-change/:token', '/auth/confirm-email-change/:token'], ...open, title: 'Confirm email change', module: 'confirmations/RecordConfirmEmailChangePage', props: token }),
  screen({ page: 'oauth2RedirectSuccess', paths: ['/auth/oauth2-redirect-success'], ...open, title: 'OAuth2 auth completed', module: 'confirmations/OAuth2RedirectPage', props: () => ({ success: true }) }),
  screen({ page: 'oauth2RedirectFailure', paths: ['/auth/oauth2-redirect-failure'], ...open, title: 'OAuth2 auth failed', module: 'confirmations/OAuth2RedirectPage', props: () => ({ success: false }) }),
];

export type PageKey = (typeof SCREENS)[number]['page'];
