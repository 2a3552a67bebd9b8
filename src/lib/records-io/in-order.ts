// Ordered results from requests that overlap: the export's pages, a few in flight, written in order.
// Pure module: no React, no DOM.

/**
 * Calls `request(0…count-1)` with up to `inFlight` at once and hands the results to `consume` in
 * order; stops early when it answers false or a request fails (results not consumed are dropped).
 */
export async function inOrder<T>(count: number, inFlight: number, request: (i: number) => Promise<T>, consume: (result: T) => Promise<boolean>): Promise<void> {
  const pending: Array<Promise<T>> = [];
  let next = 0;
  for (;;) {
    while (next < count && pending.length < inFlight) {
      const p = request(next++);
      // marked handled now: one that fails after an early stop must not surface as unhandled
      p.catch(() => undefined);
      pending.push(p);
    }
    const head = pending.shift();
    if (!head || !(await consume(await head))) return;
  }
}
