// The collections list asked for by the boot script (scripts/vite-plugin-boot-script.ts), which
// <head> loads before the app's module script: on a cold open of #/collections the list was asked
// for only once the app's script had arrived and run (~60 ms later on loopback, more on a slow
// line), and every records request waits for it. The app takes the answer once (src/state/collections.ts).
//
// `startEarlyCollections` is written into the boot script as source text, so it imports nothing and
// uses only its arguments and browser globals.

/** Where the boot script leaves its answer on `window`. */
export const EARLY_COLLECTIONS_GLOBAL = '__outpostEarlyCollections';
/** Page 1 of the app's own collections request (getFullList: batches of 200 sorted by name). */
export const EARLY_COLLECTIONS_QUERY = 'page=1&perPage=200&skipTotal=1&sort=%2Bname';
export const EARLY_COLLECTIONS_BATCH = 200;

/** What the boot script leaves: the answer's items, or null when the app must ask itself. */
interface EarlyCollections {
  at: number;
  items: Promise<unknown[] | null>;
  /** The same once answered (undefined before): the app's first script, usually evaluated after
   * the answer is in, then asks for the first records page without waiting for a microtask. */
  value?: unknown[] | null;
}

/**
 * Asks for the collections when the address is #/collections and a stored admin session is not
 * expired (the keys in order of preference). Any failure (no storage, a 401, a bad answer) leaves
 * `items` null, and the app asks through the SDK as before, which reports errors as usual.
 */
export function startEarlyCollections(authKeys: string[], globalKey: string, query: string): void {
  try {
    if (!/^#\/collections(\?|$)/.test(location.hash) || typeof fetch !== 'function') return;
    let token = '';
    for (const key of authKeys) {
      const stored = JSON.parse(localStorage.getItem(key) || 'null') as { token?: unknown } | null;
      if (stored && typeof stored.token === 'string' && stored.token) {
        token = stored.token;
        break;
      }
    }
    const payload = token.split('.')[1];
    if (!payload) return;
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; type?: unknown };
    if (claims.type !== 'admin' || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return;
    const items = fetch(`${location.origin}/api/collections?${query}`, { headers: { Authorization: token } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: { items?: unknown } | null) => (body && Array.isArray(body.items) ? body.items : null))
      .catch(() => null);
    const early: EarlyCollections = { at: performance.now(), items };
    void items.then((value) => (early.value = value));
    (window as unknown as Record<string, EarlyCollections>)[globalKey] = early;
    // The app sorts the list with localeCompare, and the first call loads the collation data
    // (8 ms in a quiet Chromium, 30 ms under load) just before the records request goes out: paid
    // here instead, while the app's script downloads and the main thread has nothing to do.
    'a'.localeCompare('b');
  } catch {
    // a boot helper never stops the page: the app asks itself
  }
}

/** The boot script's answer, once, while fresh (`maxAgeMs`); null when there is none to take. */
export function takeEarlyCollections(maxAgeMs: number): Pick<EarlyCollections, 'items' | 'value'> | null {
  if (typeof window === 'undefined') return null;
  const slot = window as unknown as Record<string, EarlyCollections | undefined>;
  const early = slot[EARLY_COLLECTIONS_GLOBAL];
  if (!early) return null;
  delete slot[EARLY_COLLECTIONS_GLOBAL];
  return performance.now() - early.at < maxAgeMs ? early : null;
}
