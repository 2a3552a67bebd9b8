// `npm run bench`: the performance budgets, measured on this machine and printed.
// - bytes over the wire for the sign-in page (every response as Chromium received it: headers and
//   the body as sent, brotli here), budget 150 KB
// - time to ready in Chromium (navigation → sign-in form usable), median of runs
// - server cold start of the BUILT server (node dist-server/main.mjs: spawn → first answered
//   /api/health), median of runs, budget 2.5x a bare `node -e 0` measured in the same run
// - records API on a large collection vs the same SQL run directly (bench/records.ts)
// - records screen on 100,000 records: first rows visible, memory after ten Load more (bench/records-ui.ts)
// - realtime: 1,000 SSE clients on one collection, write → last client p50/p99, writer throughput
//   and server CPU per write with and without them, server memory (bench/realtime.ts)
// - a backup of 100,000 records + 200 MB of files: time, peak memory, p99 of reads/writes meanwhile (bench/backups.ts)
// - logs on 1,000,000 request logs over 7 days: list and stats API p50, #/logs first rows and chart
//   drawn in Chromium (bench/logs.ts; BENCH_LOGS sets another size)
// - health latency while an endless view list runs until its query budget stops it (bench/stall.ts)
// - records import/export: 100,000 records exported to CSV and imported back: wall time, page peak JS heap (bench/records-io.ts)
// - pb_hooks on the built server: record creates with no-op before/after create hooks vs without
//   hooks, a routerAdd route answering c.json vs a small record view (budgets 0.8x), and /api/health
//   p99 while 20 requests block in a hook (sleep, cost-12 bcrypt; budget 100 ms) (bench/hooks.ts)
// - throughput: a public list (200 records, perPage 20 with totals, 10 clients) on the built server
//   beside main at 33cefa4 (before the read pool) in the same run, with and without a browser's
//   Accept-Encoding (budget 1.0x) (bench/throughput.ts)
// - workers: `serve --workers 2` beside one process, a public list and a record create, 16 clients
//   (budget 1.3x) (bench/workers.ts)
// - audit trail: record updates with an admin token, trail on vs off, and guest updates on a
//   collection with its record history on vs off (budgets 0.85x) (bench/audit.ts)
// Figures are medians of one run; compare ratios between commits, not absolute times.
// `npm run bench -- logs records-io` runs only the named sections (names: see SECTIONS).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { benchRecords } from './records';
import { benchLogs } from './logs';
import { benchRecordsUi } from './records-ui';
import { benchPoolPrice } from './pool-price';
import { benchThroughput, BUDGET_THROUGHPUT_RATIO } from './throughput';
import { benchWorkers, BUDGET_WORKERS_RATIO } from './workers';
import { benchRealtime } from './realtime';
import { benchRealtimeFairness } from './realtime-fairness';
import { benchBackups } from './backups';
import { meterWire } from './wire';
import { benchFairness, benchStall } from './stall';
import { benchRecordsIo } from './records-io';
import { benchHooksCost, benchHooksStall, BUDGET_HOOKS_RATIO, BUDGET_HOOKS_STALL_P99_MS } from './hooks';
import { freePort } from './free-port';
import { benchAuditCost, BUDGET_AUDIT_RATIO } from './audit';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Debian's Chromium through playwright-core, launched here rather than through tests/helpers (whose
// server helper relies on vitest's CommonJS globals and does not load under plain tsx).
function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}
const BUDGET_SIGNIN_WIRE = 150 * 1024;
/** The built server's cold start, as a multiple of a bare `node -e 0` in the same run. */
const BUDGET_COLD_START_RATIO = 2.5;
const SERVER_BUNDLE = path.join(ROOT, 'dist-server', 'main.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};


/** Starts the built server; `stop()` resolves once it has exited (and written its code cache, if it had none). */
async function startServer(dataDir: string): Promise<{ url: string; ms: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [SERVER_BUNDLE, 'serve', `--http=127.0.0.1:${port}`, `--dir=${dataDir}`], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (performance.now() - t0 > 30_000) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 2));
  }
  const ms = performance.now() - t0;
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    url,
    ms,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const SECTIONS = ['delivery', 'records', 'throughput', 'workers', 'stall', 'records-ui', 'realtime', 'backups', 'logs', 'records-io', 'hooks', 'audit'] as const;
type Section = (typeof SECTIONS)[number];

/** The sections named on the command line (all when none is). */
function selectedSections(): Set<Section> {
  const names = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`unknown bench section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  return new Set((names.length ? names : SECTIONS) as Section[]);
}

async function main() {
  const run = selectedSections();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  }
  if (run.has('delivery')) await benchDelivery();
  // Records API on a large collection (100,000 rows; BENCH_FULL=1 for 1,000,000).
  if (run.has('records')) {
    console.log('');
    const records = await benchRecords();
    if (records.totalsBareRatio > 1.5) {
      console.log('records: OVER BUDGET: the list with totals takes more than 1.5x a bare Fastify server running the same two statements with the same compression');
      process.exitCode = 1;
    }
    const price = await benchPoolPrice();
    if (price.ratio < 0.9) {
      console.log('pool price: OVER BUDGET: a plain list with the read pool runs below 0.9x the throughput of main-connection reads');
      process.exitCode = 1;
    }
  }
  // The throughput we had: ours beside 33cefa4, with and without compression.
  if (run.has('throughput')) {
    console.log('');
    const tp = await benchThroughput();
    if (Math.min(tp.browserRatio, tp.identityRatio) < BUDGET_THROUGHPUT_RATIO) {
      console.log(`throughput: OVER BUDGET: a public list runs below ${BUDGET_THROUGHPUT_RATIO.toFixed(1)}x the throughput of 33cefa4`);
      process.exitCode = 1;
    }
  }
  // Every core: --workers 2 beside one process, a list and a create.
  if (run.has('workers')) {
    console.log('');
    const w = await benchWorkers();
    if (Math.min(w.listRatio, w.createRatio) < BUDGET_WORKERS_RATIO) {
      console.log(`workers: OVER BUDGET: --workers 2 runs below ${BUDGET_WORKERS_RATIO}x the throughput of one process (list or create)`);
      process.exitCode = 1;
    }
  }
  // One request must never stall the others: health while an endless view list is stopped.
  if (run.has('stall')) {
    console.log('');
    const stall = await benchStall();
    if (stall.healthP50Ms > 50) console.log('stall: OVER BUDGET: /api/health p50 above 50 ms while a slow list runs');
    const fair = await benchFairness();
    if (fair.listP99Ms > 100) {
      console.log('fairness: OVER BUDGET: a normal list p99 above 100 ms while guests hammer a runaway view');
      process.exitCode = 1;
    }
  }
  // Records screen in Chromium on 100,000 records: first rows, Load more, memory.
  if (run.has('records-ui')) {
    console.log('');
    await benchRecordsUi();
  }
  // Realtime: 1,000 SSE clients subscribed to one collection.
  if (run.has('realtime')) {
    console.log('');
    await benchRealtime();
    const fair = await benchRealtimeFairness();
    if (fair.p99Ms > 200) {
      console.log('realtime fairness: OVER BUDGET: an unrelated subscriber waits more than 200 ms (p99) for its event');
      process.exitCode = 1;
    }
  }
  // Backups: 100,000 records + 200 MB of files, one backup under read/write traffic.
  if (run.has('backups')) {
    console.log('');
    await benchBackups();
  }
  // Logs page and API on 1,000,000 request logs (generated once, then cached in the temp dir).
  if (run.has('logs')) {
    console.log('');
    const logs = await benchLogs();
    if (Math.max(logs.firstRowsMedianMs, logs.chartDrawnMedianMs) > 1000) process.exitCode = 1;
  }
  if (run.has('records-io')) {
    console.log('');
    await benchRecordsIo();
  }
  // pb_hooks: what a no-op hook and a hook route cost, and no stall while hooks block
  if (run.has('hooks')) {
    console.log('');
    const cost = await benchHooksCost();
    if (cost.createRatio < BUDGET_HOOKS_RATIO) {
      console.log(`hooks cost: OVER BUDGET: a record create with no-op hooks runs below ${BUDGET_HOOKS_RATIO}x the throughput of the same create without hooks`);
      process.exitCode = 1;
    }
    if (cost.routeRatio < BUDGET_HOOKS_RATIO) {
      console.log(`hooks cost: OVER BUDGET: a routerAdd GET answering c.json runs below ${BUDGET_HOOKS_RATIO}x the throughput of a small record view`);
      process.exitCode = 1;
    }
    const stall = await benchHooksStall();
    if (Math.max(stall.sleepP99Ms, stall.bcryptP99Ms) > BUDGET_HOOKS_STALL_P99_MS) {
      console.log(`hooks stall: OVER BUDGET: /api/health p99 above ${BUDGET_HOOKS_STALL_P99_MS} ms while 20 requests block in a hook`);
      process.exitCode = 1;
    }
  }
  // the audit trail: what recording every admin change, and a collection's history, cost
  if (run.has('audit')) {
    console.log('');
    const cost = await benchAuditCost();
    if (Math.min(cost.adminRatio, cost.historyRatio) < BUDGET_AUDIT_RATIO) {
      console.log(`audit cost: OVER BUDGET: a record update with the trail (or the collection's history) on runs below ${BUDGET_AUDIT_RATIO}x the throughput with it off`);
      process.exitCode = 1;
    }
  }
}

/** Bytes of the sign-in page over the wire, its time to ready, and the built server's cold start. */
async function benchDelivery() {
  // the server as `npm start` runs it: bundled from the current sources
  spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-'));

  // Server cold start: a fresh data dir every run (creates data.db and logs.db). The first start
  // after a build has no code cache yet (it writes one when it stops): reported on its own; the
  // measured runs start as every later `npm start` does, with the bundle in the OS file cache.
  // Each run is paired with a bare `node -e 0`: this VM's speed drifts by 2x within minutes, and
  // the baseline says which phase a figure was taken in.
  const cold: number[] = [];
  const bare: number[] = [];
  const first = await startServer(path.join(tmp, 'cold-first'));
  await first.stop();
  for (let i = 0; i < Math.max(RUNS, 7); i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t0);
    const s = await startServer(path.join(tmp, `cold-${i}`));
    cold.push(s.ms);
    await s.stop();
  }

  const server = await startServer(path.join(tmp, 'main'));
  // Create an admin so the sign-in page is what the root shows.
  await fetch(`${server.url}/api/admins`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: '1234567890', passwordConfirm: '1234567890' }),
  });

  const browser = await launchBrowser();
  const ready: number[] = [];
  let wireTotal = 0;
  let wireLines: string[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const wire = await meterWire(page);
      const t0 = performance.now();
      await page.goto(`${server.url}/_/#/login`);
      await page.locator('input[type="password"]').first().waitFor({ state: 'visible' });
      ready.push(performance.now() - t0);
      if (i === 0) {
        // everything the page fetches until the network is quiet (idle-time preloads included)
        await wire.idle();
        wireTotal = wire.total();
        wireLines = wire.lines();
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log('\nOutpost benchmarks (medians of', RUNS, 'runs)');
  console.log(`sign-in page over the wire: ${kb(wireTotal)} — budget ${kb(BUDGET_SIGNIN_WIRE)} (${((wireTotal / BUDGET_SIGNIN_WIRE) * 100).toFixed(0)}% of budget)`);
  for (const line of wireLines) console.log(line);
  console.log(`sign-in time to ready in Chromium: ${median(ready).toFixed(0)} ms median (runs: ${ready.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`built server, first start after the build (no code cache yet): ${first.ms.toFixed(0)} ms`);
  const coldRatio = median(cold) / median(bare);
  console.log(`built server cold start to the first answered /api/health: ${median(cold).toFixed(0)} ms median, ${coldRatio.toFixed(2)}x a bare \`node -e 0\` (${median(bare).toFixed(0)} ms median) — budget ${BUDGET_COLD_START_RATIO}x (runs: ${cold.map((x) => x.toFixed(0)).join(', ')}; Node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
  if (wireTotal > BUDGET_SIGNIN_WIRE) {
    console.log('OVER BUDGET: the sign-in page sends more than 150 KB over the wire');
    process.exitCode = 1;
  }
  if (coldRatio > BUDGET_COLD_START_RATIO) {
    console.log(`OVER BUDGET: the built server takes more than ${BUDGET_COLD_START_RATIO}x a bare node start to answer /api/health`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
