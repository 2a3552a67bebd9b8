// The route table (derived from the screen list) and the guards, as data and pure functions.
import { parseHash } from './navigation';
import { SCREENS, type PageKey, type RouteCondition, type ScreenEntry, type SettingsLinkGroup } from './screens';
import type { AdminAccess, Area } from '../lib/roles';

export type RouteDef = {
  /** navigo pattern, named params as :name */
  path: string;
  page: PageKey;
  condition: RouteCondition;
  /** shows the admin sidebar (when an admin is signed in) */
  sidebar: boolean;
  title: string;
  /** the role area it needs (src/shell/screens.ts) */
  area?: Area | 'full';
};

const INSTALLER_PARAM = 'installer';

export const ROUTES: readonly RouteDef[] = SCREENS.flatMap(({ paths, page, condition, sidebar, title, area }: ScreenEntry) =>
  paths.map((path) => ({ path, page: page as PageKey, condition, sidebar, title, area })),
);

/** The not-found page's title (a key of locales/<lang>/ui.json). */
export const NOT_FOUND_TITLE = 'page.notFound';

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
 * Every route first checks the installer flag (not at the root -> go to the root); then
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

export type SettingsLink = { path: string; label: string; restricted?: boolean; group: SettingsLinkGroup; area?: Area | 'full' };

const SETTINGS_LINKS: readonly SettingsLink[] = SCREENS.flatMap((s: ScreenEntry) =>
  s.settingsLink ? [{ path: s.paths[0], ...s.settingsLink, area: s.area }] : [],
);

/** Whether an admin with `access` may open a screen needing `area` (src/shell/screens.ts). */
export function mayOpen(access: AdminAccess, area: Area | 'full' | undefined): boolean {
  if (!area) return true;
  return area === 'full' ? access.full : access.area(area);
}

/**
 * Settings links visible in the current mode (export/import hidden in restricted mode) to an
 * admin with `access` (a scoped admin sees its role's areas; Admins always, for its own account).
 */
export function visibleSettingsLinks(hideControls: boolean, access?: AdminAccess): SettingsLink[] {
  return SETTINGS_LINKS.filter((l) => !(hideControls && l.restricted) && (!access || mayOpen(access, l.area)));
}
