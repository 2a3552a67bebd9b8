// The route table (spec §2) and the guards, as data and pure functions.
import { parseHash } from './navigation';

export type RouteCondition = 'none' | 'guest' | 'auth';

export type PageKey =
  | 'entry'
  | 'login'
  | 'requestPasswordReset'
  | 'confirmPasswordReset'
  | 'collections'
  | 'collectionsGraph'
  | 'logs'
  | 'settingsApplication'
  | 'settingsAdmins'
  | 'settingsMail'
  | 'settingsStorage'
  | 'settingsAuthProviders'
  | 'settingsTokens'
  | 'settingsExportCollections'
  | 'settingsImportCollections'
  | 'settingsBackups'
  | 'recordConfirmPasswordReset'
  | 'recordConfirmVerification'
  | 'recordConfirmEmailChange'
  | 'oauth2RedirectSuccess'
  | 'oauth2RedirectFailure';

export type RouteDef = {
  /** navigo pattern, named params as :name */
  path: string;
  page: PageKey;
  condition: RouteCondition;
  /** shows the admin sidebar (when an admin is signed in) */
  sidebar: boolean;
  title: string;
};

export const INSTALLER_PARAM = 'installer';

export const ROUTES: readonly RouteDef[] = [
  { path: '/', page: 'entry', condition: 'none', sidebar: false, title: '' },

  { path: '/login', page: 'login', condition: 'guest', sidebar: false, title: 'Login' },
  { path: '/request-password-reset', page: 'requestPasswordReset', condition: 'guest', sidebar: false, title: 'Forgotten admin password' },
  { path: '/confirm-password-reset/:token', page: 'confirmPasswordReset', condition: 'guest', sidebar: false, title: 'Reset admin password' },

  { path: '/collections', page: 'collections', condition: 'auth', sidebar: true, title: 'Collections' },
  { path: '/collections/graph', page: 'collectionsGraph', condition: 'auth', sidebar: true, title: 'Relation graph' },
  { path: '/logs', page: 'logs', condition: 'auth', sidebar: true, title: 'Logs' },
  { path: '/settings', page: 'settingsApplication', condition: 'auth', sidebar: true, title: 'Application settings' },
  { path: '/settings/admins', page: 'settingsAdmins', condition: 'auth', sidebar: true, title: 'Admins' },
  { path: '/settings/mail', page: 'settingsMail', condition: 'auth', sidebar: true, title: 'Mail settings' },
  { path: '/settings/storage', page: 'settingsStorage', condition: 'auth', sidebar: true, title: 'Files storage' },
  { path: '/settings/auth-providers', page: 'settingsAuthProviders', condition: 'auth', sidebar: true, title: 'Auth providers' },
  { path: '/settings/tokens', page: 'settingsTokens', condition: 'auth', sidebar: true, title: 'Token options' },
  { path: '/settings/export-collections', page: 'settingsExportCollections', condition: 'auth', sidebar: true, title: 'Export collections' },
  { path: '/settings/import-collections', page: 'settingsImportCollections', condition: 'auth', sidebar: true, title: 'Import collections' },
  { path: '/settings/backups', page: 'settingsBackups', condition: 'auth', sidebar: true, title: 'Backups' },

  { path: '/users/confirm-password-reset/:token', page: 'recordConfirmPasswordReset', condition: 'none', sidebar: false, title: 'Reset password' },
  { path: '/auth/confirm-password-reset/:token', page: 'recordConfirmPasswordReset', condition: 'none', sidebar: false, title: 'Reset password' },
  { path: '/users/confirm-verification/:token', page: 'recordConfirmVerification', condition: 'none', sidebar: false, title: 'Email verification' },
  { path: '/auth/confirm-verification/:token', page: 'recordConfirmVerification', condition: 'none', sidebar: false, title: 'Email verification' },
  { path: '/users/confirm-email-change/:token', page: 'recordConfirmEmailChange', condition: 'none', sidebar: false, title: 'Confirm email change' },
  { path: '/auth/confirm-email-change/:token', page: 'recordConfirmEmailChange', condition: 'none', sidebar: false, title: 'Confirm email change' },
  { path: '/auth/oauth2-redirect-success', page: 'oauth2RedirectSuccess', condition: 'none', sidebar: false, title: 'OAuth2 auth completed' },
  { path: '/auth/oauth2-redirect-failure', page: 'oauth2RedirectFailure', condition: 'none', sidebar: false, title: 'OAuth2 auth failed' },
];

export const NOT_FOUND_TITLE = 'Page not found';

function splitPath(p: string): string[] {
  return p.split('/').filter(Boolean);
}

/** Matches a hash path (without query) against the table: the route and its decoded params. */
export function matchRoute(
  path: string,
  routes: readonly RouteDef[] = ROUTES,
): { route: RouteDef; params: Record<string, string> } | null {
  const parts = splitPath(parseHash(path).path);
  for (const route of routes) {
    const pattern = splitPath(route.path);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length; i++) {
      const seg = pattern[i];
      if (seg.startsWith(':')) {
        try {
          params[seg.slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          params[seg.slice(1)] = parts[i];
        }
      } else if (seg !== parts[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { route, params };
  }
  return null;
}

/** The installer flag: `?installer` in the real query string or in the hash query. */
export function hasInstallerFlag(search: string, hashQuery: Record<string, string> | string = {}): boolean {
  if (new URLSearchParams(search).has(INSTALLER_PARAM)) return true;
  if (typeof hashQuery === 'string') return new URLSearchParams(hashQuery).has(INSTALLER_PARAM);
  return Object.prototype.hasOwnProperty.call(hashQuery, INSTALLER_PARAM);
}

export type GuardContext = {
  /** hash path without query, e.g. '/settings/admins' */
  path: string;
  /** window.location.search */
  search: string;
  /** the hash query params */
  hashQuery: Record<string, string>;
  /** a valid admin session is stored */
  isAuthenticated: boolean;
};

export type GuardResult = { action: 'render' } | { action: 'redirect'; to: string };

/**
 * Spec §2: every route first checks the installer flag (not at the root -> go to the root); then
 * its condition (guest-only or authenticated-only); a failed condition goes to the root.
 * An unknown path (route null) renders the not-found page.
 */
export function guardRoute(route: RouteDef | null, ctx: GuardContext): GuardResult {
  const path = parseHash(ctx.path).path;
  if (path !== '/' && hasInstallerFlag(ctx.search, ctx.hashQuery)) return { action: 'redirect', to: '/' };
  if (!route) return { action: 'render' };
  if (route.condition === 'guest' && ctx.isAuthenticated) return { action: 'redirect', to: '/' };
  if (route.condition === 'auth' && !ctx.isAuthenticated) return { action: 'redirect', to: '/' };
  return { action: 'render' };
}

export type EntryDecision =
  | { action: 'installer' } // clear the session and show the first-admin form
  | { action: 'redirect'; to: '/collections' }
  | { action: 'logout'; to: '/login' };

/** The entry screen ('/'): installer flag, else a valid session -> /collections, else logout -> /login. */
export function entryDecision(ctx: Omit<GuardContext, 'path'>): EntryDecision {
  if (hasInstallerFlag(ctx.search, ctx.hashQuery)) return { action: 'installer' };
  if (ctx.isAuthenticated) return { action: 'redirect', to: '/collections' };
  return { action: 'logout', to: '/login' };
}

/** Whether the admin sidebar shows for this route. */
export function showsSidebar(route: RouteDef | null, isAuthenticated: boolean): boolean {
  return !!route && route.sidebar && isAuthenticated;
}

/** Sidebar highlighting: the current path starts with the link's path. */
export function isActivePath(current: string, linkPath: string): boolean {
  const p = parseHash(current).path;
  return p === linkPath || p.startsWith(linkPath.endsWith('/') ? linkPath : linkPath + '/');
}

export type SettingsLink = { path: string; label: string; restricted?: boolean; group: 'system' | 'sync' | 'auth' };

export const SETTINGS_LINKS: readonly SettingsLink[] = [
  { path: '/settings', label: 'Application', group: 'system' },
  { path: '/settings/mail', label: 'Mail settings', group: 'system' },
  { path: '/settings/storage', label: 'Files storage', group: 'system' },
  { path: '/settings/backups', label: 'Backups', group: 'system' },
  { path: '/settings/export-collections', label: 'Export collections', restricted: true, group: 'sync' },
  { path: '/settings/import-collections', label: 'Import collections', restricted: true, group: 'sync' },
  { path: '/settings/auth-providers', label: 'Auth providers', group: 'auth' },
  { path: '/settings/tokens', label: 'Token options', group: 'auth' },
  { path: '/settings/admins', label: 'Admins', group: 'auth' },
];

/** Settings links visible in the current mode (export/import hidden in restricted mode). */
export function visibleSettingsLinks(hideControls: boolean): SettingsLink[] {
  return SETTINGS_LINKS.filter((l) => !(hideControls && l.restricted));
}
