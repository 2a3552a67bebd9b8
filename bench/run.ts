// `npm run bench`: the performance budgets, measured on this machine and printed.
// - bytes the browser loads for the sign-in page (JS + CSS, gzip), budget 150 KB
// - time to ready in Chromium (navigation → sign-in form usable), median of runs
// - server cold start (spawn → /api/health answers), median of runs
// - records API on a large collection vs the same SQL run directly (bench/records.ts)
// - records screen on 100,000 records: first rows visible, memory after ten Load more (bench/records-ui.ts)
// - realtime: 1,000 SSE clients on one collection, write → last client p50/p99, writer throughput
//   and server CPU per write with and without them, server memory (bench/realtime.ts)
// - a backup of 100,000 records + 200 MB of files: time, peak memory, p99 of reads/writes meanwhile (bench/backups.ts)
// - records import/export: 100,000 records exported to CSV and imported back: wall time, page peak JS heap (bench/records-io.ts)
// Figures are medians of one run; compare ratios between commits, not absolute times.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { benchRecords } from './records';
import { benchRecordsUi } from './records-ui';
import { benchRealtime } from './realtime';
import { benchBackups } from './backups';
import { benchRecordsIo } from './records-io';

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
const BUDGET_SIGNIN_GZIP = 150 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function startServer(dataDir: string): Promise<{ url: string; ms: number; stop: () => void }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'serve', `--http=127.0.0.1:${port}`, `--dir=${dataDir}`], {
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
    await new Promise((r) => setTimeout(r, 10));
  }
  return { url, ms: performance.now() - t0, stop: () => child.kill('SIGTERM') };
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-'));

  // Server cold start: a fresh data dir every run (creates data.db and logs.db).
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = await startServer(path.join(tmp, `cold-${i}`));
    cold.push(s.ms);
    s.stop();
  }

  const server = await startServer(path.join(tmp, 'main'));
  // Create an admin so the sign-in page is what the root shows.
  await fetch(`${server.url}/api/admins`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: '1234567890', passwordConfirm: '1234567890' }),
  });

  const browser = await launchBrowser();
  const bytes = { js: 0, css: 0, jsGzip: 0, cssGzip: 0 };
  const files: { name: string; raw: number; gzip: number }[] = [];
  const ready: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const seen: Promise<void>[] = [];
      if (i === 0) {
        page.on('response', (res) => {
          const type = res.request().resourceType();
          if (type !== 'script' && type !== 'stylesheet') return;
          seen.push(
            res.body().then((body) => {
              const gz = zlib.gzipSync(body, { level: 9 }).length;
              files.push({ name: new URL(res.url()).pathname.replace(/^.*\//, ''), raw: body.length, gzip: gz });
              if (type === 'script') { bytes.js += body.length; bytes.jsGzip += gz; }
              else { bytes.css += body.length; bytes.cssGzip += gz; }
            }).catch(() => undefined),
          );
        });
      }
      const t0 = performance.now();
      await page.goto(`${server.url}/_/#/login`);
      await page.locator('input[type="password"]').first().waitFor({ state: 'visible' });
      ready.push(performance.now() - t0);
      await Promise.all(seen);
      await context.close();
    }
  } finally {
    await browser.close();
    server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const total = bytes.jsGzip + bytes.cssGzip;
  console.log('\nOutpost benchmarks (medians of', RUNS, 'runs)');
  console.log(`sign-in page JS+CSS: ${kb(bytes.js + bytes.css)} raw, ${kb(total)} gzip — budget ${kb(BUDGET_SIGNIN_GZIP)} (${((total / BUDGET_SIGNIN_GZIP) * 100).toFixed(0)}% of budget)`);
  console.log(`  JS ${kb(bytes.jsGzip)} gzip, CSS ${kb(bytes.cssGzip)} gzip`);
  for (const f of files.sort((a, b) => b.gzip - a.gzip)) console.log(`    ${f.name.padEnd(44)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(9)} gzip`);
  console.log(`sign-in time to ready in Chromium: ${median(ready).toFixed(0)} ms median (runs: ${ready.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`server cold start: ${median(cold).toFixed(0)} ms median (runs: ${cold.map((x) => x.toFixed(0)).join(', ')})`);
  if (total > BUDGET_SIGNIN_GZIP) {
    console.log('OVER BUDGET: the sign-in page loads more than 150 KB gzip');
    process.exitCode = 1;
  }

  // Records API on a large collection (100,000 rows; BENCH_FULL=1 for 1,000,000).
  console.log('');
  const records = await benchRecords();
  if (records.totalsRatio > 2) console.log('records: OVER BUDGET: the list with totals is more than 2x the same SQL run directly');

  // Records screen in Chromium on 100,000 records: first rows, Load more, memory.
  console.log('');
  await benchRecordsUi();

  // Realtime: 1,000 SSE clients subscribed to one collection.
  console.log('');
  await benchRealtime();
  // Backups: 100,000 records + 200 MB of files, one backup under read/write traffic.
  console.log('');
  await benchBackups();
  await benchRecordsIo();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
