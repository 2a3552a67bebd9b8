// The SQL console (#/sql) in Debian's Chromium on the built server (`serve --queryTimeout=2`): reached
// from the sidebar by keyboard, a statement typed into ace with table and column completion and run
// with Ctrl+Enter, rows in the virtualised grid (10,000 of 25,000, only the rows in view in the
// DOM), EXPLAIN QUERY PLAN as a tree, a refused write and a stopped runaway said on the page (while
// /api/health stays fast), every row exported as CSV with its progress, a saved query and the
// history kept across a reload, visible focus, and no serious axe violation.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { injectAxe, label, launchBrowser, replaceAceText, screenshot, signIn } from '../helpers/browser';
import { buildServer } from '../helpers/pending-migrations';
import { DASHBOARD_DIR, http, tempDir } from '../helpers/server';
import { spawnServer, type ServerProcess } from '../helpers/server-process';

const ADMIN = { email: 'sql-console@example.com', password: 'sql-console-pass-1' };
const COUNTER = (limit?: number) => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c${limit ? ` LIMIT ${limit}` : ''})`;

let dir = '';
let server: ServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  const main = buildServer('sql-console-e2e');
  dir = tempDir('outpost-e2e-sql-');
  const created = spawnSync(process.execPath, [main, 'admin', 'create', ADMIN.email, ADMIN.password, '--dir=pb_data'], { cwd: dir, encoding: 'utf8' });
  expect(created.stdout).toContain('Successfully created');
  server = await spawnServer(process.execPath, [main, 'serve', '--dir=pb_data', '--queryTimeout=2'], dir);
  const token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  const posts = await http(server.url, 'POST', '/api/collections', {
    token,
    body: { name: 'posts', schema: [{ name: 'title', type: 'text' }, { name: 'views', type: 'number' }], indexes: ['CREATE INDEX idx_posts_title ON posts (title)'] },
  });
  expect(posts.status, JSON.stringify(posts.body)).toBe(200);
  for (let i = 1; i <= 5; i++) await http(server.url, 'POST', '/api/collections/posts/records', { token, body: { title: `Post ${i}`, views: i * 10 } });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const editor = () => page.locator('.sql-editor .ace_editor');
const status = () => page.locator('.sql-status');

/** Replaces the editor's text (ace takes inserted text like a paste: no completion pops up). */
async function setSql(sql: string): Promise<void> {
  await replaceAceText(page, editor(), sql);
  await expect.poll(() => page.evaluate(() => (window as unknown as { ace: { edit(el: Element): { getValue(): string } } }).ace.edit(document.querySelector('.sql-editor .ace_editor')!).getValue())).toBe(sql);
}

/** Types `sql`, runs it with Ctrl+Enter and waits until its result is in (or refused). */
async function runWithKeyboard(sql: string): Promise<void> {
  await setSql(sql);
  const before = Number(await page.locator('.sql-results').getAttribute('data-run'));
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction((n) => {
    const el = document.querySelector('.sql-results');
    return Number(el?.getAttribute('data-run')) > n && el?.getAttribute('data-state') !== 'running';
  }, before);
}

describe('the SQL console', () => {
  it('is in the sidebar, reached by keyboard, with the page title', async () => {
    await page.goto(`${server.url}/_/#/collections`);
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SQL' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/sql$/);
    await editor().waitFor();
    expect(await page.title()).toMatch(/^SQL console - /);
    expect(await link.getAttribute('aria-current')).toBe('page');
    // the editor is labelled, and Tab leaves it for Run with a visible focus ring
    expect(await page.getByLabel('SQL statement').count()).toBeGreaterThan(0);
    await editor().click();
    // the click focuses ace's text input; only then does Tab mean "leave the editor"
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('ace_text-input'))).toBe(true);
    await page.keyboard.press('Tab');
    const focusedNow = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return { text: el.textContent?.trim(), where: `${el.tagName}.${el.className}`, outline: style.outlineStyle };
      });
    await expect.poll(async () => (await focusedNow()).text, { message: JSON.stringify(await focusedNow()) }).toBe('Run');
    expect((await focusedNow()).outline).not.toBe('none');
  });

  it('completes tables and columns from the collections', async () => {
    await setSql('SELECT * FROM pos');
    await page.keyboard.press('Control+Space');
    const popup = page.locator('.ace_autocomplete');
    await popup.waitFor();
    await expect.poll(() => popup.textContent()).toMatch(/posts\s*table/);
    await page.keyboard.press('Escape');
    await setSql('SELECT posts.vi');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => popup.textContent()).toMatch(/views\s*posts/);
    await page.keyboard.press('Escape');
  });

  it('runs with Ctrl+Enter and shows the rows', async () => {
    await runWithKeyboard('SELECT title, views FROM posts ORDER BY views DESC');
    const grid = page.getByRole('region', { name: 'Results: 5 rows' });
    await grid.waitFor();
    expect(await grid.locator('thead th').allInnerTexts()).toEqual(['#', 'title', 'views']);
    expect(await grid.locator('tbody tr').first().locator('td').allInnerTexts()).toEqual(['1', 'Post 5', '50']);
    expect(await status().innerText()).toMatch(/^5 rows · [\d.]+ ms$/);
  });

  it('shows 10,000 of 25,000 rows, drawing only the rows in view', async () => {
    await runWithKeyboard(`${COUNTER(25_000)} SELECT x, 'row ' || x AS label, NULL AS empty FROM c`);
    expect(await status().innerText()).toMatch(/^The first 10,000 rows \(there are more: Export CSV has them all\)/);
    const grid = page.getByRole('region', { name: 'Results: 10,000 rows' });
    expect(await grid.locator('table').getAttribute('aria-rowcount')).toBe('10001');
    expect(await grid.locator('tbody tr:not(.sql-grid-spacer)').count()).toBeLessThan(100);
    expect(await grid.locator('tbody tr').nth(0).locator('td').allInnerTexts()).toEqual(['1', '1', 'row 1', 'NULL']);
    // keyboard scrolling: the grid takes focus, End goes to the last row
    await grid.focus();
    await page.keyboard.press('End');
    await expect.poll(() => grid.locator('tbody tr:not(.sql-grid-spacer)').last().locator('td').first().innerText()).toBe('10000');
    expect(await grid.locator('tbody tr:not(.sql-grid-spacer)').count()).toBeLessThan(100);
    await screenshot(page, 'sql/rows');
  });

  it('exports every row as CSV, with its progress', async () => {
    const downloaded = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('progressbar', { name: 'CSV export progress' }).or(page.getByText(/^Exported 25,000 rows\.$/)).first().waitFor();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^query_\d{8}_\d{6}\.csv$/);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(25_001);
    expect(lines[0]).toBe('x,label,empty');
    expect(lines[25_000]).toBe('25000,row 25000,');
    await page.getByText('Exported 25,000 rows.').waitFor();
  });

  it('shows the progress of a long export and can cancel it', async () => {
    await setSql(`${COUNTER(3_000_000)} SELECT x, printf('%080d', x) AS pad FROM c`);
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const progress = page.locator('.sql-export [role="status"]');
    await expect.poll(() => progress.innerText(), { timeout: 20_000 }).toMatch(/^Exporting… [\d,]+ rows written \([\d.]+ (KB|MB)\)$/);
    const first = await progress.innerText();
    await expect.poll(() => progress.innerText(), { timeout: 20_000 }).not.toBe(first);
    await screenshot(page, 'sql/export-progress');
    await page.getByRole('button', { name: 'Cancel export' }).click();
    await page.getByText('The export was cancelled.').waitFor();
    await page.locator('.sql-export').waitFor({ state: 'detached' });
  });

  it('draws EXPLAIN QUERY PLAN as a tree', async () => {
    await runWithKeyboard("EXPLAIN QUERY PLAN SELECT p.title, (SELECT count(*) FROM posts q WHERE q.title = p.title) AS same FROM posts p ORDER BY p.views");
    const plan = page.getByRole('figure', { name: 'Query plan' });
    await plan.waitFor();
    const steps = await plan.locator('.sql-plan-step').allInnerTexts();
    expect(steps.some((s) => /^SCAN p\b/.test(s))).toBe(true);
    expect(steps.some((s) => /USING (COVERING )?INDEX idx_posts_title/.test(s))).toBe(true);
    // the subquery's search hangs under its step
    expect(await plan.locator('li li .sql-plan-step').count()).toBeGreaterThan(0);
    await screenshot(page, 'sql/plan');
  });

  it('says why a write or a secret is refused', async () => {
    await runWithKeyboard("DELETE FROM posts WHERE title = 'Post 1'");
    const alert = page.getByRole('alert').filter({ hasText: 'Refused.' });
    await expect.poll(() => alert.innerText()).toMatch(/Only read-only statements can run here .*DELETE is not one\./);
    await runWithKeyboard('SELECT email, passwordHash FROM _admins');
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/passwordHash.*a secret that neither the console nor a view may read/);
    const count = await http(server.url, 'GET', '/api/collections/posts/records', {
      token: (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token,
    });
    expect(count.body.totalItems).toBe(5);
  });

  it('stops a runaway query at the budget and says so, while /api/health stays fast', async () => {
    await setSql(`${COUNTER()} SELECT count(*) FROM c`);
    await page.keyboard.press('Control+Enter');
    await page.locator('.sql-toolbar .btn-loading').waitFor();
    const latencies: number[] = [];
    while (await page.locator('.sql-toolbar .btn-loading').count()) {
      const t0 = performance.now();
      await (await fetch(`${server.url}/api/health`)).arrayBuffer();
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Stopped. The query was stopped: it ran past your time budget of 2 s.');
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? latencies[latencies.length - 1];
    console.log(`[sql-console e2e] /api/health while the runaway ran: ${latencies.length} calls, p99 ${p99.toFixed(1)} ms`);
    expect(latencies.length).toBeGreaterThan(10);
    expect(p99).toBeLessThan(150);
    await screenshot(page, 'sql/stopped');
  });

  it('saves a query and keeps it, and the history, across a reload', async () => {
    await runWithKeyboard('SELECT count(*) AS posts FROM posts');
    await page.getByRole('button', { name: 'Save query' }).click();
    const popup = page.locator('.sql-save-popup');
    await popup.getByLabel(label('Name')).fill('Post count');
    await popup.getByRole('button', { name: 'Save query' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Query saved.' }).first().waitFor();
    await page.reload();
    await editor().waitFor();
    const side = page.getByRole('complementary', { name: 'Saved queries and history' });
    const saved = side.getByRole('button', { name: /^Post count/ });
    await saved.waitFor();
    const history = side.locator('.sql-list').nth(1);
    expect(await history.locator('.sql-list-sql').first().innerText()).toBe('SELECT count(*) AS posts FROM posts');
    expect(await history.innerText()).toContain('DELETE FROM posts');
    await setSql('SELECT 1');
    await saved.click();
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('region', { name: 'Results: 1 row' }).waitFor();
    expect(await page.getByRole('region', { name: 'Results: 1 row' }).locator('tbody td').nth(1).innerText()).toBe('5');
    await screenshot(page, 'sql/console');
  });

  it('has no serious accessibility violations (axe-core) with rows, a plan and the lists', async () => {
    const check = async (where: string) => {
      await injectAxe(page);
      const violations = await page.evaluate(async () => {
        type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
        const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
        const res = await axe.run(document, { resultTypes: ['violations'] });
        return res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      expect(violations, where).toEqual([]);
    };
    await check('rows');
    await runWithKeyboard('EXPLAIN QUERY PLAN SELECT * FROM posts WHERE title = 1');
    await page.getByRole('figure', { name: 'Query plan' }).waitFor();
    await check('plan');
    await runWithKeyboard('DROP TABLE posts');
    await page.getByRole('alert').waitFor();
    await check('refusal');
  });
});
