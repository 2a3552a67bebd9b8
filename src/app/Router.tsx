// The app root: navigo in hash mode over the route table, guards, layouts, toasts, confirm.
import Navigo from 'navigo';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { confirmState } from '../shell/confirm-state';
import { ScreenPageFrame } from './engine-host';
import { currentLocation, navigate, RoutePathContext, setShownPath, subscribeLocation } from '../shell/navigation';
import { usePageTitle } from '../shell/page-title';
import { PAGES, preloadPage } from './pages';
import { NOT_FOUND_TITLE, ROUTES, guardRoute, matchRoute, showsSidebar, type RouteDef } from '../shell/routes';
import { Toasts } from '../shell/toasts';
import { RouteGate } from './RouteGate';
import NotFoundPage from '../pages/NotFoundPage';
import { loadAppSettings } from '../state/app';
import { isAdminSignedIn, useAuth } from '../state/auth';
import { loadWords, t } from '../ui/i18n';

// Signed-in code loads on demand, so signed-out pages (sign-in) do not download it. The router
// loads it (with the screens' page frame, and each route's page module) before showing the route,
// so nothing suspends.
let LoadedShell: typeof import('./admin-shell').AppShell | undefined;
let shellLoad: Promise<unknown> | undefined;
const loadShell = () =>
  (shellLoad ??= Promise.all([
    import('./admin-shell').then(
      (m) => void (LoadedShell = m.AppShell),
      () => undefined, // the lazy fallback below retries and reports it
    ),
    ScreenPageFrame.preload(),
    // the signed-in screens' words (locales/<lang>/app.json); a failed load shows keys, reported
    loadWords('app').catch(() => undefined),
  ]));
const LazyAppShell = lazy(() => Promise.all([import('./admin-shell'), loadWords('app')]).then(([m]) => ({ default: m.AppShell })));
const ConfirmPopup = lazy(() => import('../shell/confirm').then((m) => ({ default: m.ConfirmPopup })));

const pageLoader = () => <div className="page-loader" aria-busy="true" aria-label={t('common.loading')} />;

/** The confirm popup, loaded the first time a confirmation is asked for and kept mounted after. */
function LazyConfirmPopup() {
  const snap = useSnapshot(confirmState);
  const [needed, setNeeded] = useState(false);
  if (snap.current && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ConfirmPopup />
    </Suspense>
  ) : null;
}

type Resolved = { route: RouteDef | null; params: Record<string, string>; key: string; path: string };

function guardContext() {
  const loc = currentLocation();
  return { path: loc.path, search: window.location.search, hashQuery: loc.query, isAuthenticated: isAdminSignedIn() };
}

/** Starts loading the code of the route being opened (the router asks for the same modules later). */
function preloadOpeningRoute(): void {
  const match = matchRoute(currentLocation().path);
  if (!match || guardRoute(match.route, guardContext()).action === 'redirect') return;
  // (the Logs page's and the records screen's first requests went out before: ./early-loads)
  void preloadPage(match.route.page);
  if (showsSidebar(match.route, isAdminSignedIn())) void loadShell();
}

// as the app's code runs, not after React's first commit and paint (the router resolves in an effect)
preloadOpeningRoute();

function RouteTitle({ title }: { title: string }) {
  usePageTitle(title);
  return null;
}

// the product's name, never translated
const PRODUCT = 'Outpost';

function PublicFooter() {
  return (
    <footer className="public-footer">
      <span>{PRODUCT}</span>
      <span aria-hidden="true">·</span>
      <span>{t('footer.speaks')}</span>
    </footer>
  );
}

export function App() {
  const [resolved, setResolved] = useState<Resolved | null>(null);
  const auth = useAuth();

  useEffect(() => {
    if (!window.location.hash || window.location.hash === '#') {
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search + '#/');
    }
    const router = new Navigo('/', { hash: true, strategy: 'ONE', noMatchWarning: true });

    let applied = 0;
    const apply = (route: RouteDef | null, params: Record<string, string> | null) => {
      const res = guardRoute(route, guardContext());
      if (res.action === 'redirect') {
        navigate(res.to, { replace: true });
        return;
      }
      const p = params ?? {};
      const path = currentLocation().path;
      const next = { route, params: p, key: (route?.path ?? '*') + JSON.stringify(p), path };
      // Show the route once its code is in (the previous view stays meanwhile); a later navigation wins.
      const token = ++applied;
      const shell = !LoadedShell && showsSidebar(route, isAdminSignedIn()) ? loadShell() : undefined;
      void Promise.all([preloadPage(route?.page), shell]).then(() => {
        if (token !== applied) return;
        setShownPath(path);
        setResolved(next);
      });
    };

    for (const r of ROUTES) {
      router.on(r.path, (match) => apply(r, match?.data ?? null));
    }
    router.notFound(() => apply(null, null));

    const resolve = () => {
      const hash = window.location.hash.replace(/^#/, '') || '/';
      router.resolve(hash);
    };
    // Subscribe first: a guard redirect during the first resolve must be seen.
    const unsubscribe = subscribeLocation(resolve);
    resolve();
    return () => {
      unsubscribe();
      router.destroy();
    };
  }, []);

  // The session changed (login, logout, another tab): re-check the current route's condition.
  useEffect(() => {
    if (!resolved) return;
    const res = guardRoute(resolved.route, guardContext());
    if (res.action === 'redirect') navigate(res.to, { replace: true });
  }, [auth.signedIn, resolved]);

  useEffect(() => {
    if (auth.signedIn) void loadAppSettings();
  }, [auth.signedIn, auth.admin?.id]);

  const Shell = LoadedShell ?? LazyAppShell;
  const route = resolved?.route ?? null;
  // '' is a route with no title of its own (the entry '/'): no word to look up
  const title = route ? (route.title ? t(route.title) : '') : t(NOT_FOUND_TITLE);
  const content = resolved ? (
    <>
      <RouteTitle title={title} />
      <Suspense fallback={pageLoader()}>
        <div className="route-view" key={resolved.key}>
          <RoutePathContext.Provider value={resolved.path}>
            {route ? <RouteGate route={route}>{PAGES[route.page](resolved.params)}</RouteGate> : <NotFoundPage />}
          </RoutePathContext.Provider>
        </div>
      </Suspense>
    </>
  ) : null;

  return (
    <>
      {showsSidebar(route, auth.signedIn) ? (
        <Suspense fallback={pageLoader()}>
          <Shell>{content}</Shell>
        </Suspense>
      ) : (
        <div className="public-layout">
          <div className="public-layout-main">{content}</div>
          <PublicFooter />
        </div>
      )}
      <Toasts />
      <LazyConfirmPopup />
    </>
  );
}
