// @vitest-environment jsdom
import Navigo from 'navigo';
import { describe, expect, it } from 'vitest';
import { parseHash, buildHash } from '../../src/shell/navigation';
import {
  ROUTES,
  entryDecision,
  guardRoute,
  hasInstallerFlag,
  isActivePath,
  matchRoute,
  showsSidebar,
  visibleSettingsLinks,
  type GuardContext,
} from '../../src/shell/routes';
import { formatPageTitle } from '../../src/shell/page-title';

const ctx = (over: Partial<GuardContext> = {}): GuardContext => ({
  path: '/',
  search: '',
  hashQuery: {},
  isAuthenticated: false,
  ...over,
});

describe('route table', () => {
  const byPath = (p: string) => ROUTES.find((r) => r.path === p)!;

  it('has the guest-only routes without sidebar', () => {
    for (const p of ['/login', '/request-password-reset', '/confirm-password-reset/:token']) {
      expect(byPath(p)).toMatchObject({ condition: 'guest', sidebar: false });
    }
  });

  it('has the authenticated routes with sidebar', () => {
    const auth = [
      '/audit',
      '/collections',
      '/collections/graph',
      '/logs',
      '/settings',
      '/settings/admins',
      '/settings/mail',
      '/settings/storage',
      '/settings/auth-providers',
      '/settings/tokens',
      '/settings/export-collections',
      '/settings/import-collections',
      '/settings/migrations',
      '/settings/hooks',
      '/settings/backups',
      '/sql',
    ];
    for (const p of auth) expect(byPath(p)).toMatchObject({ condition: 'auth', sidebar: true });
    expect(ROUTES.filter((r) => r.condition === 'auth').map((r) => r.path).sort()).toEqual([...auth].sort());
  });

  it('has the public confirmation and oauth2 routes', () => {
    const open = [
      '/users/confirm-password-reset/:token',
      '/auth/confirm-password-reset/:token',
      '/users/confirm-verification/:token',
      '/auth/confirm-verification/:token',
      '/users/confirm-email-change/:token',
      '/auth/confirm-email-change/:token',
      '/auth/oauth2-redirect-success',
      '/auth/oauth2-redirect-failure',
    ];
    for (const p of open) expect(byPath(p)).toMatchObject({ condition: 'none', sidebar: false });
  });

  it('matches paths, params and nothing else', () => {
    expect(matchRoute('/settings/admins')?.route.page).toBe('settingsAdmins');
    expect(matchRoute('/settings/admins?filter=x')?.route.page).toBe('settingsAdmins');
    expect(matchRoute('/settings/admins/')?.route.page).toBe('settingsAdmins');
    expect(matchRoute('/settings')?.route.page).toBe('settingsApplication');
    expect(matchRoute('/')?.route.page).toBe('entry');
    expect(matchRoute('/confirm-password-reset/abc.def')).toMatchObject({
      route: { page: 'confirmPasswordReset' },
      params: { token: 'abc.def' },
    });
    expect(matchRoute('/auth/confirm-verification/t%2Fk')?.params).toEqual({ token: 't/k' });
    expect(matchRoute('/nope')).toBeNull();
    expect(matchRoute('/settings/unknown')).toBeNull();
    expect(matchRoute('/confirm-password-reset')).toBeNull();
  });

  it('draws every screen of the list, each page module found', async () => {
    const { SCREENS } = await import('../../src/shell/screens');
    // pages.tsx throws on a screen naming a page module that does not exist
    const { PAGES } = await import('../../src/app/pages');
    expect(Object.keys(PAGES).sort()).toEqual(SCREENS.map((s) => s.page).sort());
    for (const s of SCREENS) expect(Boolean(PAGES[s.page].preload), s.page).toBe(Boolean(s.module));
  });

  it('agrees with navigo in hash mode', () => {
    const router = new Navigo('/', { hash: true, strategy: 'ONE', noMatchWarning: true });
    for (const r of ROUTES) router.on(r.path, () => {});
    const cases = ['/', '/login', '/settings/admins', '/confirm-password-reset/abc', '/users/confirm-email-change/xyz', '/logs'];
    for (const c of cases) {
      const m = router.match(c);
      expect(m && m[0].route.path, c).toBe(matchRoute(c)!.route.path.replace(/^\//, ''));
    }
    expect(router.match('/whatever')).toBe(false);
    router.destroy();
  });
});

describe('guards', () => {
  it('redirects to the root when the installer flag is present and not at the root', () => {
    expect(guardRoute(matchRoute('/login')!.route, ctx({ path: '/login', search: '?installer' }))).toEqual({
      action: 'redirect',
      to: '/',
    });
    expect(guardRoute(null, ctx({ path: '/x', hashQuery: { installer: '' } }))).toEqual({ action: 'redirect', to: '/' });
    expect(guardRoute(matchRoute('/')!.route, ctx({ path: '/', search: '?installer' }))).toEqual({ action: 'render' });
  });

  it('keeps signed-in admins away from guest routes', () => {
    const login = matchRoute('/login')!.route;
    expect(guardRoute(login, ctx({ path: '/login', isAuthenticated: true }))).toEqual({ action: 'redirect', to: '/' });
    expect(guardRoute(login, ctx({ path: '/login' }))).toEqual({ action: 'render' });
  });

  it('sends unauthenticated users from admin routes to the root', () => {
    const admins = matchRoute('/settings/admins')!.route;
    expect(guardRoute(admins, ctx({ path: '/settings/admins' }))).toEqual({ action: 'redirect', to: '/' });
    expect(guardRoute(admins, ctx({ path: '/settings/admins', isAuthenticated: true }))).toEqual({ action: 'render' });
  });

  it('lets anyone open confirmation pages and the not-found page', () => {
    const r = matchRoute('/auth/confirm-verification/t')!.route;
    expect(guardRoute(r, ctx({ path: '/auth/confirm-verification/t' }))).toEqual({ action: 'render' });
    expect(guardRoute(r, ctx({ path: '/auth/confirm-verification/t', isAuthenticated: true }))).toEqual({ action: 'render' });
    expect(guardRoute(null, ctx({ path: '/missing' }))).toEqual({ action: 'render' });
  });

  it('decides the entry screen', () => {
    expect(entryDecision({ search: '?installer', hashQuery: {}, isAuthenticated: true })).toEqual({ action: 'installer' });
    expect(entryDecision({ search: '', hashQuery: { installer: '1' }, isAuthenticated: false })).toEqual({ action: 'installer' });
    expect(entryDecision({ search: '', hashQuery: {}, isAuthenticated: true })).toEqual({ action: 'redirect', to: '/collections' });
    expect(entryDecision({ search: '', hashQuery: {}, isAuthenticated: false })).toEqual({ action: 'logout', to: '/login' });
  });

  it('reads the installer flag from either query string', () => {
    expect(hasInstallerFlag('?installer')).toBe(true);
    expect(hasInstallerFlag('?a=1&installer=1')).toBe(true);
    expect(hasInstallerFlag('', 'installer')).toBe(true);
    expect(hasInstallerFlag('?installers=1', {})).toBe(false);
    expect(hasInstallerFlag('')).toBe(false);
  });

  it('shows the sidebar only on flagged routes when signed in', () => {
    expect(showsSidebar(matchRoute('/logs')!.route, true)).toBe(true);
    expect(showsSidebar(matchRoute('/logs')!.route, false)).toBe(false);
    expect(showsSidebar(matchRoute('/login')!.route, true)).toBe(false);
    expect(showsSidebar(null, true)).toBe(false);
  });

  it('highlights sidebar links by path prefix', () => {
    expect(isActivePath('/settings/admins', '/settings')).toBe(true);
    expect(isActivePath('/settings', '/settings')).toBe(true);
    expect(isActivePath('/settingsx', '/settings')).toBe(false);
    expect(isActivePath('/collections?collectionId=1', '/collections')).toBe(true);
    expect(isActivePath('/logs', '/collections')).toBe(false);
  });

  it('hides export/import settings links in restricted mode', () => {
    const all = visibleSettingsLinks(false).map((l) => l.path);
    const restricted = visibleSettingsLinks(true).map((l) => l.path);
    expect(all).toContain('/settings/export-collections');
    expect(all).toContain('/settings/import-collections');
    expect(restricted).not.toContain('/settings/export-collections');
    expect(restricted).not.toContain('/settings/import-collections');
    expect(restricted).toContain('/settings/admins');
    expect(all).toHaveLength(11);
  });
});

describe('navigation helpers', () => {
  it('parses hashes', () => {
    expect(parseHash('#/settings/admins?filter=a%20b&sort=-email')).toEqual({
      path: '/settings/admins',
      query: { filter: 'a b', sort: '-email' },
      queryString: 'filter=a%20b&sort=-email',
    });
    expect(parseHash('').path).toBe('/');
    expect(parseHash('#').path).toBe('/');
  });

  it('builds hashes without empty params', () => {
    expect(buildHash('/settings/admins', { filter: "email~'x'", sort: '', page: null })).toBe(
      "#/settings/admins?filter=email%7E%27x%27",
    );
  });

  it('joins the page title with the app name and product name', () => {
    expect(formatPageTitle('Admins', 'Acme')).toBe('Admins - Acme - Outpost');
    expect(formatPageTitle('Admins', '')).toBe('Admins - Outpost');
    expect(formatPageTitle('', 'Acme')).toBe('Acme - Outpost');
  });
});
