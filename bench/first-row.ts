// Cold load of a list screen → its first row painted, since navigation start, measured in the page.
// Each run opens a fresh browser context (no cache, no storage) with a stored admin session.
// Several screens (ours and the original 0.22.12 UI, the yardstick) are timed in interleaved runs
// (A B A B …) so that the shared machine's load weighs on both alike.
import type { Browser, Page } from 'playwright-core';
import { meterWire, type WireMeter } from './wire';

export interface Screen {
  label: string;
  url: string;
  /** where the UI keeps its session in localStorage ('pocketbase_auth' ours, 'pb_admin_auth' 0.22's) */
  storageKey: string;
  session: string;
  /** CSS selector of a list row */
  rowSelector: string;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export interface OpenOptions {
  /** meter the bytes over the wire (waits for the network to be quiet before closing) */
  wire?: boolean;
  /** resource timings (start → end, ms since navigation start), one line each */
  timeline?: boolean;
  /** runs with the new page before it navigates (starts a trace) */
  before?: (page: Page) => Promise<void>;
  /** runs with the page once its first row is painted, before its context closes (ends a trace) */
  after?: (page: Page) => Promise<void>;
}

export interface OpenResult {
  ms: number;
  wire?: WireMeter;
  timeline?: string[];
}

/** Opens `screen` in a fresh context and returns the time to its first row painted. */
export async function openFirstRow(browser: Browser, screen: Screen, opts: OpenOptions = {}): Promise<OpenResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(([k, s]) => localStorage.setItem(k, s), [screen.storageKey, screen.session]);
    // the frame after the first row is in the DOM (the paint that shows it)
    await context.addInitScript(`(() => {
      const obs = new MutationObserver(() => {
        if (window.__firstRowMs === undefined && document.querySelector(${JSON.stringify(screen.rowSelector)})) {
          obs.disconnect();
          window.__firstRowMs = null;
          requestAnimationFrame(() => { window.__firstRowMs = performance.now(); });
        }
      });
      obs.observe(document, { childList: true, subtree: true });
    })()`);
    const page = await context.newPage();
    const wire = opts.wire ? await meterWire(page) : undefined;
    await opts.before?.(page);
    await page.goto(screen.url);
    // (a locator's wait keeps Node's event loop alive: waitForFunction alone let it drain and exit)
    await page.locator(screen.rowSelector).first().waitFor({ state: 'attached', timeout: 60_000 });
    const handle = await page.waitForFunction(() => (globalThis as unknown as Record<string, unknown>).__firstRowMs, null, { timeout: 60_000 });
    const ms = (await handle.jsonValue()) as number;
    await opts.after?.(page);
    if (wire) await wire.idle();
    const timeline = opts.timeline
      ? await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((e) => `${e.startTime.toFixed(0).padStart(5)} → ${(e as PerformanceResourceTiming).responseEnd.toFixed(0).padStart(5)}  ${e.name.replace(/^.*\/(api|assets)\//, '$1/').slice(0, 110)}`),
        )
      : undefined;
    return { ms, wire, timeline };
  } finally {
    await context.close();
  }
}

/**
 * `runs` timed opens of each screen, interleaved (one warm-up round first: it fills the server's
 * statement caches, not the browser's, as every context is fresh). Returns the times per screen.
 */
export async function interleavedFirstRows(browser: Browser, screens: Screen[], runs: number): Promise<number[][]> {
  const times = screens.map(() => [] as number[]);
  for (let round = 0; round <= runs; round++) {
    // alternate which screen goes first in a round, so neither always follows the other
    const order = screens.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const { ms } = await openFirstRow(browser, screens[i]);
      if (round > 0) times[i].push(ms);
    }
  }
  return times;
}
