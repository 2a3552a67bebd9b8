// The Logs page in Chromium against the real server: requests of several levels and statuses are
// made (and a few entries written through the server's log writer), then the list newest first,
// 'Include requests by admins' (URL + local storage, survives a reload), a filter narrowing rows
// and chart, Load more, two rows downloaded as JSON, the 'Request log' panel with every data key
// in order and its download, an invalid filter without a toast, logId deep links (good and
// missing), HTML shown as text and a 1 MB message that renders.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { getLogWriter } from '../../server/services/request-log';
import { launchBrowser, screenshot, signIn, injectAxe } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'logs-page@example.com', password: 'logs-page-pass-1' };
const PRIORITY = ['execTime', 'type', 'auth', 'status', 'method', 'url', 'referer', 'remoteIp', 'userIp', 'userAgent', 'error', 'details'];
const XSS_MESSAGE = '<img src=x onerror="window.__xss=1">GET /xss';
const NOT_ADMIN = 'data.auth!="admin"';

let app: App;
let url: string;
let dataDir: string;
let api: PocketBase;
let browser: Browser;
let page: Page;
let downloadsDir: string;

type Log = { id: string; created: string; level: number; message: string; data: Record<string, unknown> };

async function apiLogs(filter: string, perPage = 200): Promise<Log[]> {
  return (await api.logs.getList(1, perPage, { sort: '-rowid', filter })).items as unknown as Log[];
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  dataDir = path.join(tempDir(), 'pb_data');
  downloadsDir = tempDir('outpost-logs-downloads-');
  app = await createApp({ dataDir, dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  const settings = await api.settings.getAll();
  await api.settings.update({ logs: { ...settings.logs, minLevel: -4 } });

  // guests: 60 missing routes (404, ERROR) and a 401; an admin: a few successes (INFO)
  for (let i = 0; i < 60; i++) await fetch(`${url}/api/nothing-${i}`, { headers: { Referer: 'http://elsewhere.example/page' } });
  await fetch(`${url}/api/collections`);
  for (let i = 0; i < 3; i++) await api.settings.getAll();
  const writer = getLogWriter(app.ctx)!;
  writer.flush();
  await new Promise((r) => setTimeout(r, 50));
  writer.add({ level: 4, message: 'GET /warned', data: { type: 'request', auth: 'guest', status: 200, method: 'GET', url: '/warned', execTime: 1.5, zeta: 'last', alpha: { nested: [1, 2] } } });
  writer.add({ level: -4, message: 'a debug note', data: { type: 'job', step: 3 } });
  writer.add({ level: 2, message: '', data: { type: 'job' } });
  writer.add({
    level: 8,
    message: XSS_MESSAGE,
    data: { type: 'request', auth: 'guest', status: 500, url: '/xss', error: '<b onmouseover="window.__xss=2">boom</b>', details: '<div><script>window.__xss=3</script><p>detail</p></div>' },
  });
  writer.add({ level: 0, message: 'M'.repeat(1_000_000), data: { type: 'request', auth: 'guest', status: 200, details: 'D'.repeat(300_000) } });
  writer.flush();

  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, url, ADMIN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  if (downloadsDir) fs.rmSync(downloadsDir, { recursive: true, force: true });
});

/**
 * axe-core's WCAG 2.1 A/AA violations on the current page (the delivery work may bring a shared
 * helper). Best-practice rules (one h1, heading order) concern the shared shell, not this page.
 */
async function axeViolations(): Promise<string[]> {
  await injectAxe(page);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })`)) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

const rows = () => page.locator('table.logs-table tbody tr.logs-row');
const rowIds = () => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
const toasts = () => page.getByTestId('toast');
const hash = () => decodeURIComponent(new URL(page.url()).hash.replace(/\+/g, ' '));
const found = () => page.locator('.logs-chart-total');

async function openLogs(query = '') {
  await page.goto(`${url}/_/#/logs${query}`);
  await rows().first().waitFor();
}

async function search(text: string) {
  const input = page.getByRole('combobox', { name: 'Search logs' });
  await input.fill(text);
  await input.press('Escape');
  await input.press('Enter');
}

async function readDownload(click: () => Promise<void>): Promise<{ name: string; json: any }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = path.join(downloadsDir, download.suggestedFilename());
  await download.saveAs(file);
  return { name: download.suggestedFilename(), json: JSON.parse(fs.readFileSync(file, 'utf8')) };
}

describe('logs page', () => {
  it('lists the requests newest first, with levels, the chart total and the footer', async () => {
    const totalOf = async () => (await api.logs.getStats({ filter: NOT_ADMIN })).reduce((n, s) => n + s.total, 0);
    // requests logged in the background (batched writes) may land while the page loads: the
    // chart's total lies between the totals before and after
    const before = await totalOf();
    await openLogs();
    const expected = await apiLogs(NOT_ADMIN, 50);
    await expect.poll(() => rows().count()).toBe(50);
    expect(await rowIds()).toEqual(expected.map((l) => l.id));
    // the newest entry (the 1 MB message) comes first; its row text is cut
    expect((await rows().first().locator('.logs-message').textContent())!.length).toBeLessThan(200);
    for (const label of ['ERROR (8)', 'WARN (4)', 'DEBUG (-4)', 'INFO (0)', 'UNKN (2)']) {
      await page.locator('.logs-table .log-level', { hasText: label }).first().waitFor();
    }
    await expect.poll(() => found().textContent()).toMatch(/^Found \d+ logs$/);
    const shown = Number((await found().textContent())!.replace(/\D/g, ''));
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(await totalOf());
    await page.locator('.logs-chart-canvas[data-drawn] svg').waitFor();
    const xLabels = await page.locator('.logs-chart-canvas .apexcharts-xaxis-label').count();
    expect(xLabels).toBeLessThanOrEqual(15);
    const yLabels = await page.locator('.logs-chart-canvas .apexcharts-yaxis-label').allTextContents();
    expect(yLabels.length).toBeLessThanOrEqual(4);
    expect(yLabels.every((t) => /^\d+$/.test(t.trim()))).toBe(true);
    expect(yLabels.map((t) => Number(t))).toContain(0);
    // no admin request is listed by default
    expect(await page.locator('.logs-chip', { hasText: 'auth: admin' }).count()).toBe(0);
    const footer = page.locator('footer.page-footer');
    expect(await footer.getByRole('link', { name: 'Docs' }).getAttribute('href')).toMatch(/^https:\/\//);
    expect(await footer.getByRole('link', { name: /v0\.22\.12$/ }).getAttribute('href')).toContain('/releases');
    expect(await toasts().count()).toBe(0);
    await screenshot(page, 'logs-page');
    expect(await axeViolations()).toEqual([]);
  });

  it("'Include requests by admins' changes the rows and survives a reload", async () => {
    await openLogs();
    const box = page.getByRole('checkbox', { name: 'Include requests by admins' });
    expect(await box.isChecked()).toBe(false);
    const adminIds = (await apiLogs('data.auth="admin"')).map((l) => l.id);
    expect(adminIds.length).toBeGreaterThan(0);
    // counted before the check: the chart, fetched after it, holds at least these (requests that
    // arrive meanwhile, the page's own included, only add to it)
    const guests = (await api.logs.getStats({ filter: NOT_ADMIN })).reduce((n, s) => n + s.total, 0);
    await box.check();
    await expect.poll(hash).toContain('adminRequests=1');
    await expect.poll(async () => (await rowIds()).some((id) => adminIds.includes(id!))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('adminLogRequests'))).toBe('1');
    // the chart counts the admins' requests too
    await expect.poll(async () => Number((await found().textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(guests + adminIds.length);

    await page.goto(`${url}/_/#/logs`);
    await rows().first().waitFor();
    expect(await page.getByRole('checkbox', { name: 'Include requests by admins' }).isChecked()).toBe(true);
    await expect.poll(hash).toContain('adminRequests=1');
    await expect.poll(async () => (await rowIds()).some((id) => adminIds.includes(id!))).toBe(true);

    await page.getByRole('checkbox', { name: 'Include requests by admins' }).uncheck();
    await expect.poll(async () => (await rowIds()).some((id) => adminIds.includes(id!))).toBe(false);
    expect(hash()).not.toContain('adminRequests');
    expect(await page.evaluate(() => localStorage.getItem('adminLogRequests'))).toBe('0');
  });

  it('a filter narrows the rows and the chart; a plain term is normalised; autocomplete offers data keys', async () => {
    await openLogs();
    const input = page.getByRole('combobox', { name: 'Search logs' });
    await input.fill('data.us');
    const suggestions = page.getByRole('listbox', { name: 'Filter suggestions' });
    await suggestions.getByRole('option', { name: 'data.userAgent' }).waitFor();
    await input.press('Escape');

    await search('level = 4');
    await expect.poll(hash).toContain('filter=level = 4');
    const warns = await apiLogs(`(${NOT_ADMIN}) && (level = 4)`);
    await expect.poll(() => rowIds()).toEqual(warns.map((l) => l.id));
    await expect.poll(() => found().textContent()).toBe(`Found ${warns.length} ${warns.length === 1 ? 'log' : 'logs'}`);

    await search('nothing-1');
    await expect.poll(hash).toContain("filter=level~'nothing-1' || message~'nothing-1' || data~'nothing-1'");
    const matching = await apiLogs(`(${NOT_ADMIN}) && (message ~ "nothing-1")`);
    expect(matching.length).toBe(11); // nothing-1, nothing-10 … nothing-19
    await expect.poll(() => rows().count()).toBe(11);
    await expect.poll(() => found().textContent()).toBe('Found 11 logs');
    await screenshot(page, 'logs-filtered');

    await search('no such thing at all');
    await page.getByText('No logs found.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows().count()).toBe(50);
    expect(hash()).not.toContain('filter=');
  });

  it('Load more fetches the next page', async () => {
    await openLogs();
    await expect.poll(() => rows().count()).toBe(50);
    expect((await apiLogs(NOT_ADMIN, 200)).length).toBeGreaterThan(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    // Entries logged after the first page loaded (the writer flushes in batches) sit above it and
    // shift page 2's offset: the list then drops the repeated rows. What it shows must be the
    // API's newest-first order from its first row on, both pages, no gaps and no repeats.
    let olderCount = 0;
    let arrived = 0;
    await expect
      .poll(async () => {
        const shown = await rowIds();
        const all = (await apiLogs(NOT_ADMIN, 200)).map((l) => l.id);
        arrived = Math.max(0, all.indexOf(shown[0] ?? ''));
        const older = all.slice(arrived);
        olderCount = older.length;
        return { ordered: shown.every((id, i) => id === older[i]), complete: shown.length === Math.min(100 - arrived, older.length) };
      })
      .toEqual({ ordered: true, complete: true });
    if (olderCount < 100 - arrived) expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('selects two rows and downloads them as JSON', async () => {
    await openLogs();
    const ids = (await rowIds()).slice(3, 5) as string[];
    for (const id of ids) await page.getByRole('checkbox', { name: `Select log ${id}` }).check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByText('Selected 2 logs').waitFor();
    const { name, json } = await readDownload(() => bar.getByRole('button', { name: 'Download as JSON' }).click());
    const expected = await Promise.all(ids.map((id) => api.logs.getOne(id)));
    expect(json).toHaveLength(2);
    expect(json.map((l: Log) => l.id)).toEqual(ids); // newest first, as listed
    expect(json[0]).toEqual(JSON.parse(JSON.stringify(expected[0])));
    const strip = (c: string) => c.replace(/[-:. ]/g, '');
    expect(name).toBe(`2_logs_${strip(expected[1].created)}_to_${strip(expected[0].created)}.json`);
    await bar.getByRole('button', { name: 'Reset' }).click();
    await bar.waitFor({ state: 'detached' });
    // select all, then none
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await bar.getByText(`Selected ${await rows().count()} logs`).waitFor();
    await page.getByRole('checkbox', { name: 'Select all' }).uncheck();
    await bar.waitFor({ state: 'detached' });
  });

  it('opens a row in the Request log panel with every data key in order, and downloads it', async () => {
    const [failed] = await apiLogs(`${NOT_ADMIN} && message = "GET /api/nothing-7"`);
    await openLogs();
    await search('message = "GET /api/nothing-7"');
    await expect.poll(() => rowIds()).toEqual([failed.id]);
    await rows().first().focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Request log' });
    await dialog.waitFor();
    await expect.poll(hash).toContain(`logId=${failed.id}`);
    const names = await dialog.locator('tr th').allTextContents();
    const dataKeys = PRIORITY.filter((k) => failed.data[k] !== undefined);
    expect(dataKeys).toEqual(expect.arrayContaining(['execTime', 'type', 'auth', 'status', 'method', 'url', 'referer', 'userAgent', 'error']));
    expect(names).toEqual(['id', 'level', 'created', 'message', ...dataKeys.map((k) => `data.${k}`)]);
    await dialog.locator('tr[data-key="execTime"] td', { hasText: /ms$/ }).waitFor();
    await dialog.locator('tr[data-key="error"] .log-error-label', { hasText: 'Not Found.' }).waitFor();
    await dialog.locator('tr[data-key="details"]', { hasText: 'N/A' }).waitFor();
    await dialog.getByRole('button', { name: 'Copy id' }).click();
    await dialog.locator('.copy-btn[data-copied]').waitFor();
    await screenshot(page, 'logs-panel');
    expect(await axeViolations()).toEqual([]);
    const { name, json } = await readDownload(() => dialog.getByRole('button', { name: 'Download as JSON' }).click());
    expect(name).toBe(`log_${failed.created.replace(/[-:. ]/g, '')}.json`);
    expect(json).toEqual(JSON.parse(JSON.stringify(failed)));
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    expect(hash()).not.toContain('logId');
  });

  it('other keys follow the known ones, pretty-printed; an empty message is N/A', async () => {
    const [warned] = await apiLogs('message = "GET /warned"');
    await openLogs(`?logId=${warned.id}`);
    const dialog = page.getByRole('dialog', { name: 'Request log' });
    await dialog.waitFor();
    expect(await dialog.locator('tr th').allTextContents()).toEqual([
      'id', 'level', 'created', 'message',
      'data.execTime', 'data.type', 'data.auth', 'data.status', 'data.method', 'data.url', 'data.alpha', 'data.zeta',
    ]);
    expect(await dialog.locator('tr[data-key="alpha"] pre').textContent()).toBe(JSON.stringify({ nested: [1, 2] }, null, 2));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const [empty] = await apiLogs('level = 2');
    await page.goto(`${url}/_/#/logs?logId=${empty.id}`);
    await dialog.locator('tr', { hasText: 'message' }).getByText('N/A').waitFor();
  });

  it('an invalid filter shows no toast and leaves the page usable', async () => {
    await openLogs();
    for (const bad of ['nope = 1', 'level >', '(level = 1', 'message = "unterminated']) {
      await search(bad);
      await page.locator('.filter-search-hint').waitFor();
      await page.getByText('No logs found.').waitFor();
      await expect.poll(() => found().textContent()).toBe('Found 0 logs');
    }
    await page.waitForTimeout(300);
    expect(await toasts().count()).toBe(0);
    await screenshot(page, 'logs-invalid-filter');
    await search('level = 8');
    await rows().first().waitFor();
    await page.locator('.filter-search-hint').waitFor({ state: 'detached' });
  });

  it('logId in the URL opens the panel; a missing one toasts and closes it', async () => {
    const [log] = await apiLogs('message = "GET /api/nothing-3"');
    await page.goto(`${url}/_/#/logs?logId=${log.id}`);
    const dialog = page.getByRole('dialog', { name: 'Request log' });
    await dialog.getByText(log.id, { exact: true }).waitFor();
    await page.goto(`${url}/_/#/logs`);
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${url}/_/#/logs?logId=missing0000000`);
    await toasts().filter({ hasText: 'Unable to load log with id "missing0000000"' }).waitFor();
    await expect.poll(hash).not.toContain('logId');
    expect(await dialog.count()).toBe(0);
  });

  it('shows HTML as text and renders a 1 MB message without freezing', async () => {
    const [xss] = await apiLogs('message ~ "GET /xss"');
    await openLogs();
    await page.locator('.logs-message', { hasText: XSS_MESSAGE }).waitFor();
    await page.goto(`${url}/_/#/logs?logId=${xss.id}`);
    const dialog = page.getByRole('dialog', { name: 'Request log' });
    await dialog.getByText(XSS_MESSAGE).waitFor();
    await dialog.locator('.log-error-label', { hasText: '<b onmouseover="window.__xss=2">boom</b>' }).hover();
    expect(await dialog.locator('tr[data-key="details"] pre').textContent()).toContain('<script>window.__xss=3</script>');
    expect(await dialog.locator('img, script, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    const [huge] = await apiLogs('message ~ "MMMMMMMMMM"', 1);
    await page.goto(`${url}/_/#/logs?logId=${huge.id}`);
    await dialog.getByText('980,000 more characters', { exact: false }).waitFor();
    await dialog.locator('tr[data-key="details"]', { hasText: '280,000 more characters' }).waitFor();
    // the page still answers input at once
    expect(await page.evaluate(() => new Promise<number>((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }))).toBeLessThan(1000);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('asks for the first page and the stats once each, before the chart code, which waits for the rows', async () => {
    // a fresh tab: the page's code (and its early requests) runs as it loads
    const fresh = await page.context().newPage();
    const asked: string[] = [];
    fresh.on('request', (req) => {
      const u = req.url();
      if (u.includes('/api/logs?')) asked.push('list');
      else if (u.includes('/api/logs/stats')) asked.push('stats');
      else if (/\/assets\/LogsChart-[^/]+\.js$/.test(u)) asked.push('chart');
    });
    await fresh.goto(`${url}/_/#/logs`);
    await fresh.locator('tr.logs-row').first().waitFor();
    await fresh.locator('.logs-chart-canvas[data-drawn]').waitFor();
    expect(asked.filter((a) => a === 'list')).toHaveLength(1);
    expect(asked.filter((a) => a === 'stats')).toHaveLength(1);
    expect(asked.indexOf('chart')).toBeGreaterThan(Math.max(asked.indexOf('list'), asked.indexOf('stats')));
    await fresh.close();
  });
});
