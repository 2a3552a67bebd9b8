// Records list UI benchmark. Builds a collection of 100,000 records by direct
// SQL inserts in a temp data dir served by the real server (with the built dashboard), then in
// Chromium measures:
//  - the time from opening #/collections?collectionId=… (navigation start) to the first rows painted,
//    measured in the page (median of runs, a fresh browser context each run, signed in through the
//    stored session); with PB_UI_DIR (the original PocketBase 0.22.12 UI's ui/dist, not part of this
//    project) the same screen of that UI, served by our server on the same data, in runs interleaved
//    with ours: ours/original must stay at most 0.5x (issue 28); without it the line is skipped;
//  - with BENCH_TRACE=<file>, a Chromium trace of one cold open and its breakdown (bench/load-trace.ts);
//  - the JS heap after ten 'Load more' clicks (CDP Performance.getMetrics after a forced GC), with
//    the time each Load more took to show its rows.
// Run alone: `npx tsx bench/records-ui.ts` (builds dist/ when missing; OUTPOST_DASHBOARD_DIR serves
// another build). From bench/run.ts: `await benchRecordsUi({ browser })`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createApp } from '../server/app';
import { interleavedFirstRows, median, openFirstRow, type Screen } from './first-row';
import { traceColdLoad } from './load-trace';
import { machineLoad } from './machine-load';
import { apiCall, benchAdmin } from './api-client';

/** Budget for the records page of a 100,000-record collection, over the wire. */
const BUDGET_RECORDS_PAGE_WIRE = 250 * 1024;
/** Goal for the first rows, against the original 0.22.12 UI on the same server and data (issue 28). */
const GOAL_RATIO = 0.5;
/** A record row of the original UI's records list (its logs and admins lists use the class too). */
const ORIGINAL_ROW = 'tr.row-handle';

export interface RecordsUiBenchResult {
  records: number;
  buildMs: number;
  /** navigation start → first record row painted (measured in the page), per run and median */
  firstRowsMs: number[];
  firstRowsMedianMs: number;
  /** the same, for the original 0.22.12 UI (PB_UI_DIR), in runs interleaved with ours */
  originalFirstRowsMs?: number[];
  /** our median / the original's */
  ratio?: number;
  /** rows in the DOM after the ten Load more clicks */
  rowsAfterLoadMore: number;
  /** each Load more: click → its rows in the DOM */
  loadMoreMs: number[];
  /** the records_list request of each page (request start → response end) */
  pageRequestMs: number[];
  heapUsedMB: number;
  heapTotalMB: number;
  domNodes: number;
  /** bytes over the wire for opening the records page (fresh context, until the network is quiet) */
  wireBytes: number;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Scrolls the rendered rows until the Load more button shows (rows render in batches of 20). */
async function scrollToLoadMore(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Load more' });
  for (let i = 0; i < 200; i++) {
    if (await button.isVisible()) return;
    await page.locator('tr.rl-row').last().scrollIntoViewIfNeeded();
    await page.waitForTimeout(30);
  }
  throw new Error('Load more never showed');
}

export async function benchRecordsUi(
  opts: { records?: number; runs?: number; browser?: Browser; dashboardDir?: string; log?: (line: string) => void } = {},
): Promise<RecordsUiBenchResult> {
  const total = opts.records ?? 100_000;
  const runs = opts.runs ?? Number(process.env.BENCH_RUNS ?? 5);
  const log = opts.log ?? ((line: string) => console.log(line));
  const dashboardDir = opts.dashboardDir ?? process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dashboardDir, 'index.html'))) {
    spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-records-ui-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir });
  const browser = opts.browser ?? (await launch());
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiCall(url);
    const auth = await benchAdmin(call, 'bench-ui@example.com');
    const token = auth.token;
    const owners = await call('POST', '/api/collections', { name: 'owners', schema: [{ name: 'name', type: 'text', presentable: true }] }, token);
    const coll = await call(
      'POST',
      '/api/collections',
      {
        name: 'bench_ui',
        schema: [
          { name: 'title', type: 'text' },
          { name: 'body', type: 'editor' },
          { name: 'score', type: 'number' },
          { name: 'active', type: 'bool' },
          { name: 'tags', type: 'select', options: { maxSelect: 3, values: ['a', 'b', 'c', 'd'] } },
          { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
          { name: 'owner', type: 'relation', options: { collectionId: owners.id, maxSelect: 1 } },
        ],
      },
      token,
    );
    if (!coll.id) throw new Error(`failed to create the bench collection: ${JSON.stringify(coll)}`);

    // ---- build -------------------------------------------------------------------------------
    const db = app.db;
    const t0 = Date.now();
    const ownerIds = Array.from({ length: 200 }, (_, i) => `owner${String(i).padStart(10, '0')}`);
    db.transaction(() => {
      const o = db.prepare('INSERT INTO owners (id, created, updated, name) VALUES (?, ?, ?, ?)');
      for (const id of ownerIds) o.run(id, '2024-01-01 00:00:00.000Z', '2024-01-01 00:00:00.000Z', `Owner ${id.slice(-4)}`);
      const ins = db.prepare('INSERT INTO bench_ui (id, created, updated, title, body, score, active, tags, meta, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      const base = Date.UTC(2024, 0, 1);
      for (let i = 0; i < total; i++) {
        // distinct created values so -created is a real order
        const created = new Date(base + i * 1000).toISOString().replace('T', ' ');
        ins.run(
          `r${String(i).padStart(14, '0')}`,
          created,
          created,
          `title ${i}`,
          `<p>Body of <strong>record</strong> ${i} with some more text to excerpt.</p>`,
          (i * 7919) % total,
          i % 2,
          JSON.stringify(i % 3 ? ['a'] : ['b', 'c']),
          JSON.stringify({ i, nested: { ok: true } }),
          ownerIds[i % 200],
        );
      }
    })();
    db.exec('ANALYZE');
    const buildMs = Date.now() - t0;
    log(`records-ui: built ${total.toLocaleString('en-US')} rows in ${buildMs} ms`);

    const session = JSON.stringify({ token, model: auth.admin });
    const target = `${url}/_/#/collections?collectionId=${coll.id}`;

    // ---- first rows (beside the original 0.22.12 UI when PB_UI_DIR names its ui/dist) ----------
    const ours: Screen = { label: 'ours', url: target, storageKey: 'pocketbase_auth', session, rowSelector: 'tr.rl-row' };
    // a first open meters the bytes over the wire (and warms the server's statement cache)
    const metered = await openFirstRow(browser, ours, { wire: true, timeline: !!process.env.BENCH_TIMELINE });
    const wireMeter = metered.wire;
    if (metered.timeline) log(metered.timeline.join('\n'));
    if (process.env.BENCH_TRACE) await traceColdLoad(browser, ours, process.env.BENCH_TRACE, log);
    const uiDir = process.env.PB_UI_DIR;
    const original = uiDir ? await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: uiDir }) : undefined;
    let firstRowsMs: number[];
    let originalFirstRowsMs: number[] | undefined;
    try {
      if (original) {
        const originalUrl = await original.listen('127.0.0.1', 0);
        const theirs: Screen = { label: 'original', url: `${originalUrl}/_/#/collections?collectionId=${coll.id}`, storageKey: 'pb_admin_auth', session, rowSelector: ORIGINAL_ROW };
        if (process.env.BENCH_TIMELINE) log((await openFirstRow(browser, theirs, { timeline: true })).timeline!.join('\n'));
        [firstRowsMs, originalFirstRowsMs] = await interleavedFirstRows(browser, [ours, theirs], runs);
      } else {
        [firstRowsMs] = await interleavedFirstRows(browser, [ours], runs);
      }
    } finally {
      await original?.close();
    }
    const firstRowsLoad = machineLoad();

    // ---- ten Load more -----------------------------------------------------------------------
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((s) => localStorage.setItem('pocketbase_auth', s), session);
    const page = await context.newPage();
    const apiMs: number[] = [];
    page.on('requestfinished', (req) => {
      if (!/\/records\?page=\d+&perPage=40/.test(req.url())) return;
      const t = req.timing();
      apiMs.push(t.responseEnd - t.requestStart);
    });
    await page.goto(target);
    await page.locator('tr.rl-row').first().waitFor({ state: 'visible', timeout: 60_000 });
    const loadMoreMs: number[] = [];
    for (let k = 1; k <= 10; k++) {
      await scrollToLoadMore(page);
      // measured in the page: click → the next page's first rows rendered and painted
      // (a string: tsx would wrap named functions in a helper the page does not have)
      const ms = (await page.evaluate(`(async () => {
        const before = document.querySelectorAll('tr.rl-row').length;
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Load more');
        const t = performance.now();
        button.click();
        await new Promise((resolve) => {
          function check() {
            if (document.querySelectorAll('tr.rl-row').length > before) resolve();
            else requestAnimationFrame(check);
          }
          check();
        });
        await new Promise((r) => requestAnimationFrame(r));
        return performance.now() - t;
      })()`)) as number;
      loadMoreMs.push(ms);
    }
    // render every loaded row (a user scrolling to the end)
    await scrollToLoadMore(page);
    const rowsAfterLoadMore = await page.locator('tr.rl-row').count();
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    const heapUsedMB = metric('JSHeapUsedSize') / 1024 / 1024;
    const heapTotalMB = metric('JSHeapTotalSize') / 1024 / 1024;
    const domNodes = metric('Nodes');
    await context.close();

    const wireBytes = wireMeter?.total() ?? 0;
    log(`records-ui: records page over the wire (documents, scripts, styles, API answers as sent): ${(wireBytes / 1024).toFixed(1)} KB — budget ${BUDGET_RECORDS_PAGE_WIRE / 1024} KB (${((wireBytes / BUDGET_RECORDS_PAGE_WIRE) * 100).toFixed(0)}% of budget)`);
    for (const line of wireMeter?.lines() ?? []) log(line);
    if (wireBytes > BUDGET_RECORDS_PAGE_WIRE) {
      log('records-ui: OVER BUDGET: the records page sends more than 250 KB over the wire');
      process.exitCode = 1;
    }
    const runsOf = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    log(`records-ui: open collection → first rows visible: ${median(firstRowsMs).toFixed(0)} ms median (runs: ${runsOf(firstRowsMs)}; ${firstRowsLoad})`);
    let ratio: number | undefined;
    if (originalFirstRowsMs) {
      ratio = median(firstRowsMs) / median(originalFirstRowsMs);
      log(`records-ui: original 0.22.12 UI, same server and data, interleaved runs: ${median(originalFirstRowsMs).toFixed(0)} ms median (runs: ${runsOf(originalFirstRowsMs)})`);
      log(`records-ui: ours / original = ${ratio.toFixed(2)}x — goal at most ${GOAL_RATIO}x`);
      if (ratio > GOAL_RATIO) {
        log(`records-ui: OVER BUDGET: the records screen's first rows take more than ${GOAL_RATIO}x the original UI's`);
        process.exitCode = 1;
      }
    } else {
      log('records-ui: the original 0.22.12 UI yardstick skipped (set PB_UI_DIR to its ui/dist folder to run it)');
    }
    log(`records-ui: after 10 × Load more: ${rowsAfterLoadMore} rows rendered, JS heap ${heapUsedMB.toFixed(1)} MB used / ${heapTotalMB.toFixed(1)} MB total, ${domNodes} DOM nodes`);
    log(`records-ui: Load more → rows shown: ${median(loadMoreMs).toFixed(0)} ms median (${loadMoreMs.map((x) => x.toFixed(0)).join(', ')}); the page request alone: ${median(apiMs).toFixed(0)} ms median (${apiMs.map((x) => x.toFixed(0)).join(', ')})`);

    return {
      records: total,
      buildMs,
      firstRowsMs,
      firstRowsMedianMs: median(firstRowsMs),
      originalFirstRowsMs,
      ratio,
      rowsAfterLoadMore,
      loadMoreMs,
      pageRequestMs: apiMs,
      heapUsedMB,
      heapTotalMB,
      domNodes,
      wireBytes,
    };
  } finally {
    if (!opts.browser) await browser.close();
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchRecordsUi().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
