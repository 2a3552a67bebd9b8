/**
 * Every screen of the dashboard, declared once: its route(s), who may open it, whether the admin
 * sidebar shows, the document title, the module that draws it (loaded on demand) with the props it
 * takes from the route, and its settings-sidebar link. The route table, the page renderers, the
 * preloads and the settings links are all derived from this list (routes.ts, pages.tsx).
 */
import type { ComponentType } from 'react';

export type RouteCondition = 'none' | 'guest' | 'auth';
export type RouteParams = Record<string, string>;

export type SettingsLinkGroup = 'system' | 'sync' | 'auth';

export interface ScreenEntry<P extends object = any, K extends string = string> {
  page: K;
  /** navigo patterns, named params as :name; several when one screen answers more than one route. */
  paths: readonly string[];
  condition: RouteCondition;
  /** Shows the admin sidebar (when an admin is signed in). */
  sidebar: boolean;
  title: string;
  /** The page's module; absent for the entry screen, which the main chunk draws. */
  load?: () => Promise<{ default: ComponentType<P> }>;
  /** The page's props from the route's params. */
  props?: (params: RouteParams) => P;
  /** Its link in the settings sidebar (in list order), hidden in restricted mode when `restricted`. */
  settingsLink?: { label: string; group: SettingsLinkGroup; restricted?: boolean };
}

/** Typed per entry: `props` must give what the loaded component takes. */
const screen = <P extends object, K extends string>(entry: ScreenEntry<P, K>): ScreenEntry<P, K> => entry;

const token = (p: RouteParams) => ({ token: p.token ?? '' });
const guest = { condition: 'guest', sidebar: false } as const;
const admin = { condition: 'auth', sidebar: true } as const;
const open = { condition: 'none', sidebar: false } as const;

export const SCREENS = [
  screen({ page: 'entry', paths: ['/'], ...open, title: '' }),

  screen({ page: 'login', paths: ['/login'], ...guest, title: 'Login', load: () => import('../pages/auth/LoginPage') }),
  screen({ page: 'requestPasswordReset', paths: ['/request-password-reset'], ...guest, title: 'Forgotten admin password', load: () => import('../pages/auth/RequestPasswordResetPage') }),
  screen({ page: 'confirmPasswordReset', paths: ['/confirm-password-reset/:token'], ...guest, title: 'Reset admin password', load: () => import('../pages/auth/ConfirmPasswordResetPage'), props: token }),

  screen({ page: 'collections', paths: ['/collections'], ...admin, title: 'Collections', load: () => import('../pages/collections/CollectionsPage') }),
  screen({ page: 'collectionsGraph', paths: ['/collections/graph'], ...admin, title: 'Relation graph', load: () => import('../pages/collections/graph/RelationGraphPage') }),
  screen({ page: 'logs', paths: ['/logs'], ...admin, title: 'Logs', load: () => import('../pages/logs/LogsPage') }),

  screen({ page: 'settingsApplication', paths: ['/settings'], ...admin, title: 'Application settings', load: () => import('../pages/settings/ApplicationSettingsPage'), settingsLink: { label: 'Application', group: 'system' } }),
  screen({ page: 'settingsMail', paths: ['/settings/mail'], ...admin, title: 'Mail settings', load: () => import('../pages/settings/MailSettingsPage'), settingsLink: { label: 'Mail settings', group: 'system' } }),
  screen({ page: 'settingsStorage', paths: ['/settings/storage'], ...admin, title: 'Files storage', load: () => import('../pages/settings/StorageSettingsPage'), settingsLink: { label: 'Files storage', group: 'system' } }),
  screen({ page: 'settingsBackups', paths: ['/settings/backups'], ...admin, title: 'Backups', load: () => import('../pages/settings/backups/BackupsPage'), settingsLink: { label: 'Backups', group: 'system' } }),
  screen({ page: 'settingsExportCollections', paths: ['/settings/export-collections'], ...admin, title: 'Export collections', load: () => import('../pages/settings/ExportCollectionsPage'), settingsLink: { label: 'Export collections', group: 'sync', restricted: true } }),
  screen({ page: 'settingsImportCollections', paths: ['/settings/import-collections'], ...admin, title: 'Import collections', load: () => import('../pages/settings/ImportCollectionsPage'), settingsLink: { label: 'Import collections', group: 'sync', restricted: true } }),
  screen({ page: 'settingsAuthProviders', paths: ['/settings/auth-providers'], ...admin, title: 'Auth providers', load: () => import('../pages/settings/AuthProvidersPage'), settingsLink: { label: 'Auth providers', group: 'auth' } }),
  screen({ page: 'settingsTokens', paths: ['/settings/tokens'], ...admin, title: 'Token options', load: () => import('../pages/settings/TokenOptionsPage'), settingsLink: { label: 'Token options', group: 'auth' } }),
  screen({ page: 'settingsAdmins', paths: ['/settings/admins'], ...admin, title: 'Admins', load: () => import('../pages/admins/AdminsListPage'), settingsLink: { label: 'Admins', group: 'auth' } }),

  screen({ page: 'recordConfirmPasswordReset', paths: ['/users/confirm-password-reset/:token', '/auth/confirm-password-reset/:token'], ...open, title: 'Reset password', load: () => import('../pages/confirmations/RecordConfirmPasswordResetPage'), props: token }),
  screen({ page: 'recordConfirmVerification', paths: ['/users/confirm-verification/:token', '/auth/confirm-verification/:token'], ...open, title: 'Email verification', load: () => import('../pages/confirmations/RecordConfirmVerificationPage'), props: token }),
  screen({ page: 'recordConfirmEmailChange', paths: ['/users/confirm-email-change/:token', '/auth/confirm-email-change/:token'], ...open, title: 'Confirm email change', load: () => import('../pages/confirmations/RecordConfirmEmailChangePage'), props: token }),
  screen({ page: 'oauth2RedirectSuccess', paths: ['/auth/oauth2-redirect-success'], ...open, title: 'OAuth2 auth completed', load: () => import('../pages/confirmations/OAuth2RedirectPage'), props: () => ({ success: true }) }),
  screen({ page: 'oauth2RedirectFailure', paths: ['/auth/oauth2-redirect-failure'], ...open, title: 'OAuth2 auth failed', load: () => import('../pages/confirmations/OAuth2RedirectPage'), props: () => ({ success: false }) }),
];

export type PageKey = (typeof SCREENS)[number]['page'];
