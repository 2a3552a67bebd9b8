// Where a cold load's time goes: a Chromium performance trace (CDP Tracing through playwright) of
// one open of a screen, written to a file (chrome://tracing or DevTools' Performance panel read it)
// and summed up: each request (sent → finished), each script's compile and run on the main thread,
// the main thread's long tasks, style/layout/paint, all in ms since navigation start, then the first
// row. Used by bench/records-ui.ts when BENCH_TRACE names the file.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { openFirstRow, type Screen } from './first-row';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; [k: string]: unknown };
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'loading', 'navigation', 'blink'];

const SCRIPT_EVENTS = ['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall'];
const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/_\/(assets\/)?/, '').slice(0, 90);
const ms = (us: number) => (us / 1000).toFixed(0).padStart(5);

/** Records the trace of one cold open of `screen` into `file` and logs its breakdown. */
export async function traceColdLoad(browser: Browser, screen: Screen, file: string, log: (line: string) => void): Promise<void> {
  const { ms: firstRow } = await openFirstRow(browser, screen, {
    before: (page) => browser.startTracing(page, { path: file, categories: CATEGORIES }),
    after: async (page) => {
      await page.waitForTimeout(300); // what runs right after the first rows (subscriptions, saved views)
      await browser.stopTracing();
    },
  });
  const { traceEvents } = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] };
  for (const line of breakdown(traceEvents, firstRow)) log(line);
  log(`trace: written to ${file}`);
}

function breakdown(events: TraceEvent[], firstRowMs: number): string[] {
  const nav = events.find((e) => e.name === 'navigationStart' && (e.args?.data as { isLoadingMainFrame?: boolean } | undefined)?.isLoadingMainFrame !== false);
  if (!nav) return ['trace: no navigationStart event'];
  const t0 = nav.ts;
  // the renderer's main thread: where navigationStart was recorded
  const main = (e: TraceEvent) => e.pid === nav.pid && e.tid === nav.tid;
  const lines: string[] = [`trace: cold load, ms since navigation start (first row painted at ${firstRowMs.toFixed(0)} ms)`];

  const sent = new Map<string, { url: string; ts: number; priority: string }>();
  const rows: Array<[number, string]> = [];
  for (const e of events) {
    const d = e.args?.data as Record<string, string | number> | undefined;
    if (!d) continue;
    if (e.name === 'ResourceSendRequest') sent.set(String(d.requestId), { url: String(d.url), ts: e.ts, priority: String(d.priority ?? '') });
    if (e.name === 'ResourceFinish') {
      const s = sent.get(String(d.requestId));
      if (s && s.ts >= t0 && /^https?:/.test(s.url)) rows.push([s.ts, `  net   ${ms(s.ts - t0)} → ${ms(e.ts - t0)}  ${short(s.url)}`]);
    }
  }
  // script compile + run per URL on the main thread (outermost events only: calls nest)
  const perScript = new Map<string, { first: number; total: number }>();
  const scriptEvents = events
    .filter((e) => main(e) && e.ts >= t0 && e.dur && SCRIPT_EVENTS.includes(e.name) && (e.args?.data as { url?: string } | undefined)?.url)
    .sort((a, b) => a.ts - b.ts);
  let coveredUntil = 0;
  for (const e of scriptEvents) {
    if (e.ts < coveredUntil) continue;
    coveredUntil = e.ts + (e.dur ?? 0);
    const url = String((e.args?.data as { url: string }).url);
    const s = perScript.get(url) ?? { first: e.ts, total: 0 };
    s.total += e.dur ?? 0;
    perScript.set(url, s);
  }
  for (const [url, s] of perScript) if (s.total >= 1000) rows.push([s.first, `  js    ${ms(s.first - t0)}   ${ms(s.total)} ms  compile+run ${short(url)} (from here on, in all)`]);
  // long main-thread tasks and what they did (the top event under the task)
  const tasks = events.filter((e) => main(e) && e.name === 'RunTask' && e.ts >= t0 && (e.dur ?? 0) > 15_000);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = events.filter((e) => main(e) && e !== task && e.ts >= task.ts && e.ts < end && (e.dur ?? 0) > 2_000 && e.ph === 'X');
    const top = inside
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 3)
      .map((e) => `${e.name}${(e.args?.data as { url?: string; functionName?: string } | undefined)?.functionName ? ` ${(e.args?.data as { functionName?: string }).functionName}` : ''} ${ms(e.dur ?? 0).trim()}`)
      .join(', ');
    rows.push([task.ts, `  task  ${ms(task.ts - t0)} → ${ms(end - t0)}  ${top}`]);
  }
  const sum = (names: string[], until: number) =>
    events.filter((e) => main(e) && names.includes(e.name) && e.ts >= t0 && e.ts - t0 <= until * 1000).reduce((n, e) => n + (e.dur ?? 0), 0) / 1000;
  const busy = sum(['RunTask'], firstRowMs);
  rows.sort((a, b) => a[0] - b[0]);
  lines.push(...rows.map((r) => r[1]));
  lines.push(
    `trace: until the first row: main thread busy ${busy.toFixed(0)} ms of ${firstRowMs.toFixed(0)}; style ${sum(['UpdateLayoutTree'], firstRowMs).toFixed(0)} ms, layout ${sum(['Layout'], firstRowMs).toFixed(0)} ms, paint ${sum(['Paint', 'PrePaint'], firstRowMs).toFixed(0)} ms`,
  );
  return lines;
}
