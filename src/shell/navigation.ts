// Hash navigation helpers. The address looks like /_/#/settings/admins?filter=x&sort=-created.
import { createContext, useContext, useMemo, useSyncExternalStore } from 'react';

const LOCATION_EVENT = 'outpost:locationchange';

export type QueryParams = Record<string, string>;
export type RouteLocation = { path: string; query: QueryParams; queryString: string };

function hasWindow(): boolean {
  return typeof window !== 'undefined';
}

/** '#/a/b?x=1' (or '/a/b?x=1') -> { path: '/a/b', query: { x: '1' }, queryString: 'x=1' } */
export function parseHash(hash: string): RouteLocation {
  let h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!h.startsWith('/')) h = '/' + h;
  const q = h.indexOf('?');
  const rawPath = q >= 0 ? h.slice(0, q) : h;
  const queryString = q >= 0 ? h.slice(q + 1) : '';
  const query: QueryParams = {};
  new URLSearchParams(queryString).forEach((v, k) => {
    query[k] = v;
  });
  let path = rawPath.replace(/\/{2,}/g, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  return { path: path || '/', query, queryString };
}

export function currentLocation(): RouteLocation {
  return parseHash(hasWindow() ? window.location.hash : '');
}

function notify(): void {
  if (hasWindow()) window.dispatchEvent(new Event(LOCATION_EVENT));
}

function normalizeTarget(path: string): string {
  let p = path.startsWith('#') ? path.slice(1) : path;
  if (!p.startsWith('/')) p = '/' + p;
  return '#' + p;
}

/** Goes to a hash path ('/collections', '#/logs?x=1'). `replace` swaps the history entry. */
export function navigate(path: string, opts: { replace?: boolean } = {}): void {
  if (!hasWindow()) return;
  const target = normalizeTarget(path);
  if (opts.replace) {
    window.history.replaceState(window.history.state, '', target);
    notify();
  } else if (window.location.hash === target) {
    notify();
  } else {
    window.location.hash = target; // fires hashchange (and popstate)
  }
}

/** Builds '#/path?query' from a path and params (empty/null/undefined values are dropped). */
export function buildHash(path: string, params: Record<string, string | number | boolean | null | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '') continue;
    sp.set(k, String(v));
  }
  const qs = sp.toString();
  return normalizeTarget(path) + (qs ? '?' + qs : '');
}

/**
 * Merges params into the current hash query without reloading or re-routing; null, undefined or
 * '' removes a param. Replaces the history entry by default.
 */
export function setQueryParams(
  params: Record<string, string | number | boolean | null | undefined>,
  opts: { replace?: boolean } = { replace: true },
): void {
  if (!hasWindow()) return;
  const loc = currentLocation();
  // A page still shown while the next route's code loads must not write its params onto the
  // next screen's address (a collection's id following the admin to #/logs).
  if (shownPath !== null && loc.path !== shownPath) return;
  const merged: Record<string, string | number | boolean | null | undefined> = { ...loc.query, ...params };
  const target = buildHash(loc.path, merged);
  if (target === window.location.hash) return;
  if (opts.replace === false) window.history.pushState(window.history.state, '', target);
  else window.history.replaceState(window.history.state, '', target);
  notify();
}

/** Subscribes to any change of the hash (navigation, back/forward, setQueryParams). */
export function subscribeLocation(cb: () => void): () => void {
  if (!hasWindow()) return () => {};
  window.addEventListener('hashchange', cb);
  window.addEventListener(LOCATION_EVENT, cb);
  return () => {
    window.removeEventListener('hashchange', cb);
    window.removeEventListener(LOCATION_EVENT, cb);
  };
}

function getHashSnapshot(): string {
  return hasWindow() ? window.location.hash : '';
}

let shownPath: string | null = null;
/** The router says which hash path the page on screen belongs to (see setQueryParams). */
export function setShownPath(path: string | null): void {
  shownPath = path;
}

/** The hash path of the route view a component is in (null outside any: the shell, the palette). */
export const RoutePathContext = createContext<string | null>(null);

/**
 * The current hash path and its query params; re-renders on change. Inside a route view it only
 * follows addresses of that view's path: while the next screen loads, the leaving page keeps its
 * own params instead of seeing the next screen's (and resetting or writing them).
 */
export function useRoute(): RouteLocation {
  const owner = useContext(RoutePathContext);
  const getSnapshot = useMemo(() => {
    let last = getHashSnapshot();
    return () => {
      const hash = getHashSnapshot();
      if (owner === null || parseHashCached(hash).path === owner) last = hash;
      return last;
    };
  }, [owner]);
  const hash = useSyncExternalStore(subscribeLocation, getSnapshot, () => '');
  // parseHash is cheap; memoising on the hash string keeps object identity stable enough.
  return parseHashCached(hash);
}

let lastHash: string | null = null;
let lastParsed: RouteLocation = parseHash('');
function parseHashCached(hash: string): RouteLocation {
  if (hash !== lastHash) {
    lastHash = hash;
    lastParsed = parseHash(hash);
  }
  return lastParsed;
}
