// Records import/export benchmark: in Chromium against the real server,
//  - export of N records (default 100,000, built by direct SQL) to CSV: click → download, wall time;
//  - import of N CSV rows into an empty collection: file chosen → every row parsed and checked
//    ('Import N rows' enabled), then click → 'Import finished.';
// each with the page's peak JS heap (CDP Performance.getMetrics, sampled every 250 ms) and the
// file's size. Run alone: `npx tsx bench/records-io.ts` (BENCH_RECORDS_IO=N for another size;
// BENCH_RECORDS_IO_IMPORT=N imports only the first N exported rows).
// From bench/run.ts: `await benchRecordsIo({ browser })`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createApp } from '../server/app';
import { apiCall, benchAdmin } from './api-client';
import { machineLoad } from './machine-load';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface RecordsIoBenchResult {
  records: number;
  exportMs: number;
  exportPeakHeapMB: number;
  exportBytes: number;
  checkMs: number;
  importMs: number;
  importPeakHeapMB: number;
  importRowsPerSec: number;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Samples the page's JS heap until stopped; returns the peak in MB. */
async function heapSampler(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      peak = Math.max(peak, used);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await cdp.detach();
    return peak / 1024 / 1024;
  };
}

export async function benchRecordsIo(opts: { records?: number; browser?: Browser; log?: (line: string) => void } = {}): Promise<RecordsIoBenchResult> {
  const total = opts.records ?? Number(process.env.BENCH_RECORDS_IO ?? 100_000);
  const importRows = Math.min(total, Number(process.env.BENCH_RECORDS_IO_IMPORT ?? total));
  const log = opts.log ?? ((line: string) => console.log(line));
  const dashboardDir = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dashboardDir, 'index.html'))) spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-records-io-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir });
  const browser = opts.browser ?? (await launch());
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiCall(url);
    const auth = await benchAdmin(call, 'bench-io@example.com');
    const token = auth.token;
    const schema = [
      { name: 'title', type: 'text' },
      { name: 'score', type: 'number' },
      { name: 'active', type: 'bool' },
      { name: 'tags', type: 'select', options: { maxSelect: 3, values: ['a', 'b', 'c'] } },
      { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
    ];
    const src = await call('POST', '/api/collections', { name: 'io_source', schema }, token);
    const dst = await call('POST', '/api/collections', { name: 'io_target', schema }, token);
    const db = app.db;
    db.transaction(() => {
      const ins = db.prepare('INSERT INTO io_source (id, created, updated, title, score, active, tags, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      const base = Date.UTC(2024, 0, 1);
      for (let i = 0; i < total; i++) {
        const created = new Date(base + i * 1000).toISOString().replace('T', ' ');
        ins.run(`r${String(i).padStart(14, '0')}`, created, created, `title, "${i}"`, i, i % 2, JSON.stringify(i % 3 ? ['a'] : ['b', 'c']), JSON.stringify({ i }));
      }
    })();

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addInitScript((s) => localStorage.setItem('pocketbase_auth', s), JSON.stringify({ token, model: auth.admin }));
    const page = await context.newPage();

    // ---- export --------------------------------------------------------------------------------
    await page.goto(`${url}/_/#/collections?collectionId=${src.id}`);
    await page.locator('tr.rl-row').first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const popup = page.locator('.records-export-popup');
    await popup.getByText('CSV', { exact: true }).waitFor();
    let stop = await heapSampler(page);
    let t0 = performance.now();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30 * 60_000 }), popup.getByRole('button', { name: 'Export', exact: true }).click()]);
    const exportMs = performance.now() - t0;
    const exportPeakHeapMB = await stop();
    const file = path.join(dir, 'export.csv');
    await dl.saveAs(file);
    const exportBytes = fs.statSync(file).size;
    log(`records-io: export ${total.toLocaleString('en-US')} records to CSV: ${(exportMs / 1000).toFixed(1)} s, ${(exportBytes / 1e6).toFixed(1)} MB, page peak JS heap ${exportPeakHeapMB.toFixed(1)} MB (${machineLoad()})`);

    // ---- import (the exported file, into an empty collection) -------------------------------------
    await page.goto(`${url}/_/#/collections?collectionId=${dst.id}`);
    await page.getByText('No records found.').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.locator('.records-import-panel');
    // without the id column: every row is a create
    const lines = fs.readFileSync(file, 'utf8').replace(/^id,/, 'source_id,').split('\n');
    // the header and the first importRows records (no field holds a line break)
    const csv = lines.slice(0, importRows + 1).join('\n') + '\n';
    const importFile = path.join(dir, 'import.csv');
    fs.writeFileSync(importFile, csv);
    const tCheck = performance.now();
    await page.locator('#records-import-file').setInputFiles(importFile);
    const button = panel.getByRole('button', { name: `Import ${importRows} rows` });
    await button.waitFor({ timeout: Number(process.env.BENCH_WAIT_MS ?? 10 * 60_000) }).catch(async (err) => {
      await page.screenshot({ path: path.join(ROOT, 'tests', '.tmp', 'bench-records-io-failure.png') });
      throw err;
    });
    const checkMs = performance.now() - tCheck;
    log(`records-io: ${importRows.toLocaleString('en-US')} CSV rows parsed and checked against the record schema (file chosen → 'Import' enabled): ${(checkMs / 1000).toFixed(1)} s`);
    stop = await heapSampler(page);
    t0 = performance.now();
    await button.click();
    await panel.getByText('Import finished.').waitFor({ timeout: 60 * 60_000 });
    const importMs = performance.now() - t0;
    const importPeakHeapMB = await stop();
    const summary = await panel.locator('.records-import-summary p').first().innerText();
    const importRowsPerSec = importRows / (importMs / 1000);
    log(`records-io: import ${importRows.toLocaleString('en-US')} CSV rows: ${(importMs / 1000).toFixed(1)} s (${importRowsPerSec.toFixed(0)} rows/s), page peak JS heap ${importPeakHeapMB.toFixed(1)} MB (${machineLoad()}) — ${summary}`);
    await context.close();
    return { records: total, exportMs, exportPeakHeapMB, exportBytes, checkMs, importMs, importPeakHeapMB, importRowsPerSec };
  } finally {
    if (!opts.browser) await browser.close();
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchRecordsIo().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
