// Work for when the browser is idle: requestIdleCallback where there is one, else a timeout.

type IdleHost = {
  requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
  setTimeout: (cb: () => void, ms: number) => unknown;
  clearTimeout: (handle: never) => void;
};

/** The fallback's delay when requestIdleCallback is missing (Safari). */
export const IDLE_FALLBACK_MS = 200;
/** requestIdleCallback's deadline: the work runs by then even on a busy page. */
export const IDLE_TIMEOUT_MS = 2000;

/** Runs `fn` once the page is idle; returns a cancel function. */
export function onIdle(fn: () => void, host: IdleHost = globalThis as unknown as IdleHost): () => void {
  if (typeof host.requestIdleCallback === 'function') {
    const handle = host.requestIdleCallback(() => fn(), { timeout: IDLE_TIMEOUT_MS });
    return () => host.cancelIdleCallback?.(handle);
  }
  const handle = host.setTimeout(fn, IDLE_FALLBACK_MS);
  return () => host.clearTimeout(handle as never);
}
