// Logs benchmark: a logs.db of 1,000,000 request logs over 7 days (built by SQL
// in one transaction and cached, bench/logs-data.ts) served by the real server with the built
// dashboard, then:
//  - API latency, p50 of 20: the first page the Logs page asks for (50, -rowid, skipTotal, the
//    default admin preset) and the stats with the same filter, plus a few other filters for scale;
//  - in Chromium, from opening #/logs (navigation start, measured in the page) to the first rows
//    painted and to the chart drawn, median of runs (a fresh context each run, stored session).
// The original PocketBase 0.22.12 UI is the yardstick: the page must be ready well under a second.
// Run alone: `npx tsx bench/logs.ts` (BENCH_LOGS=200000 for a smaller table). From bench/run.ts:
// `await benchLogs({ browser })`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createApp } from '../server/app';
import { ensureLogsDb, installLogsDb } from './logs-data';
import { machineLoad } from './machine-load';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PRESET = 'data.auth!="admin"';
const READY_BUDGET_MS = 1000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export interface LogsBenchResult {
  rows: number;
  buildMs: number;
  firstPageP50Ms: number;
  statsP50Ms: number;
  firstRowsMs: number[];
  chartDrawnMs: number[];
  firstRowsMedianMs: number;
  chartDrawnMedianMs: number;
}

export async function benchLogs(opts: { rows?: number; runs?: number; browser?: Browser; log?: (line: string) => void } = {}): Promise<LogsBenchResult> {
  const rows = opts.rows ?? Number(process.env.BENCH_LOGS ?? 1_000_000);
  const runs = opts.runs ?? Number(process.env.BENCH_RUNS ?? 5);
  const log = opts.log ?? ((line: string) => console.log(line));
  const dashboardDir = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dashboardDir, 'index.html'))) spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });

  const data = ensureLogsDb(rows, 7);
  log(data.buildMs ? `logs: built ${rows.toLocaleString('en-US')} request logs over 7 days in ${(data.buildMs / 1000).toFixed(1)} s (cached for the next runs)` : `logs: reusing the cached ${rows.toLocaleString('en-US')}-row logs.db`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-logs-'));
  const dataDir = path.join(dir, 'pb_data');
  const creds = { email: 'bench-logs@example.com', password: '1234567890' };
  // first start: the admin and a retention that keeps 7 days (the default 5 would prune the data)
  {
    const app = await createApp({ dataDir, dashboardDir: null });
    const url = await app.listen('127.0.0.1', 0);
    const post = (p: string, body: unknown, token?: string) =>
      fetch(url + p, { method: p === '/api/settings' ? 'PATCH' : 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) }, body: JSON.stringify(body) });
    await post('/api/admins', { ...creds, passwordConfirm: creds.password });
    const auth = (await (await post('/api/admins/auth-with-password', { identity: creds.email, password: creds.password })).json()) as { token: string };
    await post('/api/settings', { logs: { maxDays: 30, minLevel: -4, logIp: true } }, auth.token);
    await app.close();
  }
  installLogsDb(data, dataDir);

  const app = await createApp({ dataDir, dashboardDir });
  const browser = opts.browser ?? (await launch());
  try {
    const url = await app.listen('127.0.0.1', 0);
    const authRes = await fetch(`${url}/api/admins/auth-with-password`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identity: creds.email, password: creds.password }) });
    const auth = (await authRes.json()) as { token: string; admin: unknown };

    // ---- API, p50 of 20 after a first call (the stats keep closed hours: the first call is cold) ----
    const firstCalls: Record<string, number> = {};
    const timeApi = async (p: string) => {
      const times: number[] = [];
      for (let i = 0; i < 21; i++) {
        const t0 = performance.now();
        const res = await fetch(url + p, { headers: { Authorization: auth.token } });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${p}: ${res.status}`);
        if (i > 0) times.push(performance.now() - t0);
        else firstCalls[p] = performance.now() - t0;
      }
      return median(times);
    };
    const cold = (p: string) => `${firstCalls[p].toFixed(0)} ms cold`;
    const q = encodeURIComponent;
    const firstPage = await timeApi(`/api/logs?page=1&perPage=50&sort=-rowid&skipTotal=1&filter=${q(PRESET)}`);
    const stats = await timeApi(`/api/logs/stats?filter=${q(PRESET)}`);
    const statsAll = await timeApi('/api/logs/stats');
    const statsLevel = await timeApi(`/api/logs/stats?filter=${q(`(${PRESET}) && (level > 0)`)}`);
    const term = `(${PRESET}) && (level~'PATCH' || message~'PATCH' || data~'PATCH')`;
    const firstPageTerm = await timeApi(`/api/logs?page=1&perPage=50&sort=-rowid&skipTotal=1&filter=${q(term)}`);
    const statsPath = `/api/logs/stats?filter=${q(PRESET)}`;
    log(`logs API (p50 of 20): first page ${firstPage.toFixed(1)} ms, stats ${stats.toFixed(1)} ms (${cold(statsPath)}) with the default admin preset`);
    log(
      `logs API (p50 of 20): stats without filter ${statsAll.toFixed(1)} ms (${cold('/api/logs/stats')}), with 'level > 0' ${statsLevel.toFixed(1)} ms; first page of a search term ${firstPageTerm.toFixed(1)} ms`,
    );

    // ---- Chromium: opening #/logs → first rows, chart drawn ----
    const session = JSON.stringify({ token: auth.token, model: auth.admin });
    const { firstRowsMs, chartDrawnMs } = await timeScreen(browser, `${url}/_/#/logs`, runs, { storageKey: 'pocketbase_auth', session, ...OUR_MARKERS }, log);
    const rowsMedian = median(firstRowsMs);
    const chartMedian = median(chartDrawnMs);
    const load = machineLoad();
    log(`logs screen: open #/logs → first rows ${rowsMedian.toFixed(0)} ms median (runs: ${firstRowsMs.map((x) => x.toFixed(0)).join(', ')}; ${load})`);
    log(`logs screen: open #/logs → chart drawn ${chartMedian.toFixed(0)} ms median (runs: ${chartDrawnMs.map((x) => x.toFixed(0)).join(', ')}; ${load})`);
    if (Math.max(rowsMedian, chartMedian) > READY_BUDGET_MS) log(`logs: OVER BUDGET: the page is not ready within ${READY_BUDGET_MS} ms`);
    if (process.env.PB_UI_DIR) await yardstick(process.env.PB_UI_DIR, dataDir, session, runs, browser, log);
    return { rows, buildMs: data.buildMs, firstPageP50Ms: firstPage, statsP50Ms: stats, firstRowsMs, chartDrawnMs, firstRowsMedianMs: rowsMedian, chartDrawnMedianMs: chartMedian };
  } finally {
    if (!opts.browser) await browser.close();
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What says, in a page, that its first log row and its chart are painted. */
interface Markers {
  /** an expression true once a log row is in the page */
  rowReady: string;
  /** an expression true once the chart for the loaded stats is in the page */
  chartReady: string;
}

// our page: rows are tr.logs-row, the chart marks itself drawn (LogsChart.tsx)
const OUR_MARKERS: Markers = {
  rowReady: `document.querySelector('tr.logs-row')`,
  chartReady: `document.querySelector('.logs-chart-canvas[data-drawn] .apexcharts-area-series path')`,
};
// the original 0.22.12 UI: rows are tr.row-handle; its Chart.js canvas (no animation) is updated
// in the same task that clears the wrapper's 'loading' class and shows the total
const ORIGINAL_MARKERS: Markers = {
  rowReady: `document.querySelector('tr.row-handle')`,
  chartReady: `(window.__chartLoading ||= !!document.querySelector('.chart-wrapper.loading')) && document.querySelector('.chart-wrapper:not(.loading) .total-logs:not(.hidden)')`,
};

/** Opens `url` in fresh contexts (a stored session) and times the first row and the chart, since navigation start. */
async function timeScreen(browser: Browser, url: string, runs: number, opts: Markers & { storageKey: string; session: string }, log: (line: string) => void) {
  const firstRowsMs: number[] = [];
  const chartDrawnMs: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(([k, s]) => localStorage.setItem(k, s), [opts.storageKey, opts.session]);
    // the moments (since navigation start) the first row and the chart are painted
    await context.addInitScript(`(() => {
      const obs = new MutationObserver(() => {
        if (window.__firstRowMs === undefined && (${opts.rowReady})) {
          requestAnimationFrame(() => { window.__firstRowMs = performance.now(); });
          window.__firstRowMs = null;
        }
        if (window.__chartMs === undefined && (${opts.chartReady})) {
          requestAnimationFrame(() => { window.__chartMs = performance.now(); });
          window.__chartMs = null;
        }
        if (window.__firstRowMs !== undefined && window.__chartMs !== undefined) obs.disconnect();
      });
      obs.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
    })()`);
    const page = await context.newPage();
    await page.goto(url);
    const rowMs = (await (await page.waitForFunction(() => (globalThis as unknown as Record<string, unknown>).__firstRowMs, null, { timeout: 60_000 })).jsonValue()) as number;
    const chartMs = (await (await page.waitForFunction(() => (globalThis as unknown as Record<string, unknown>).__chartMs, null, { timeout: 60_000 })).jsonValue()) as number;
    if (process.env.BENCH_TIMELINE && i === runs) {
      const entries = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => `${e.startTime.toFixed(0).padStart(5)} → ${(e as PerformanceResourceTiming).responseEnd.toFixed(0).padStart(5)}  ${e.name.replace(/^.*\/(api|assets)\//, '$1/').slice(0, 110)}`),
      );
      log(entries.join('\n'));
    }
    if (i > 0) {
      // the first run warms the server's caches and the browser's
      firstRowsMs.push(rowMs);
      chartDrawnMs.push(chartMs);
    }
    await context.close();
  }
  return { firstRowsMs, chartDrawnMs };
}

/**
 * The same screen in the original PocketBase 0.22.12 UI (PB_UI_DIR: its ui/dist folder, from a
 * PocketBase checkout; nothing of it is part of this project), served by this server on the same
 * logs.db: the yardstick the issue names, measured in the same run.
 */
async function yardstick(uiDir: string, dataDir: string, session: string, runs: number, browser: Browser, log: (line: string) => void) {
  const app = await createApp({ dataDir, dashboardDir: uiDir });
  try {
    const url = await app.listen('127.0.0.1', 0);
    const { firstRowsMs, chartDrawnMs } = await timeScreen(browser, `${url}/_/#/logs`, runs, { storageKey: 'pb_admin_auth', session, ...ORIGINAL_MARKERS }, log);
    const runsOf = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    log(`original 0.22.12 UI, same server and data: first rows ${median(firstRowsMs).toFixed(0)} ms median (runs: ${runsOf(firstRowsMs)}), chart drawn ${median(chartDrawnMs).toFixed(0)} ms median (runs: ${runsOf(chartDrawnMs)}; ${machineLoad()})`);
  } finally {
    await app.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchLogs().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
