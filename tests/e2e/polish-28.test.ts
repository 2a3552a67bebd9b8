// Issue 28's polish items in Chromium against the real server: list params (sort, filter, recordId)
// honoured on entry from another screen, no query string leaking into other screens' addresses, a
// multiple select of one choice refused in the editor, the export counting its ids, bulk edit's
// confirm closing as the run starts, bad rows marked in the import preview, the stored dark theme
// painted before the app's script, and the logs table at 390 px.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { getLogWriter } from '../../server/services/request-log';
import { injectAxe, launchBrowser, signIn } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'polish@example.com', password: 'polish-pass-123' };

let app: App;
let url: string;
let api: PocketBase;
let browser: Browser;
let page: Page;
let items: { id: string };
let other: { id: string };

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  app = await createApp({ dataDir: path.join(tempDir(), 'pb_data'), dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  // 'aaa' sorts first, so the store's active collection is another one than the address's
  other = await api.collections.create({ name: 'aaa_other', type: 'base', schema: [{ name: 'label', type: 'text', required: true }] });
  items = await api.collections.create({ name: 'items', type: 'base', schema: [{ name: 'number', type: 'number' }] });
  for (let i = 1; i <= 5; i++) await api.collection('items').create({ number: i });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, url, ADMIN);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('issue 28: navigation', () => {
  it('honours sort, filter and recordId given in the address when coming from another screen', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${other.id}`);
    await page.getByRole('heading', { name: /aaa_other/ }).or(page.getByText('aaa_other').first()).first().waitFor();
    await page.goto(`${url}/_/#/logs`);
    await page.waitForURL(/#\/logs/);
    const listRequest = page.waitForRequest((r) => r.url().includes(`/api/collections/${items.id}/records?`) && new URL(r.url()).searchParams.has('sort'));
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}&sort=-number&filter=${encodeURIComponent('number>1')}`;
    }, items.id);
    const req = new URL((await listRequest).url());
    expect(req.searchParams.get('sort')).toBe('-number');
    expect(req.searchParams.get('filter')).toBe('number>1');
    await page.waitForTimeout(300);
    const hash = decodeURIComponent(new URL(page.url()).hash);
    expect(hash).toContain('sort=-number');
    expect(hash).toContain('filter=number>1');
    const firstCell = page.locator('tbody tr').first();
    await expect.poll(() => firstCell.textContent()).toContain('5');

    // a record given the same way opens its editor
    const rec = (await api.collection('items').getFirstListItem('number=3')).id;
    await page.evaluate(() => {
      window.location.hash = '#/logs';
    });
    await page.getByRole('table', { name: 'Logs' }).waitFor();
    await page.evaluate(
      ([id, r]) => {
        window.location.hash = `#/collections?collectionId=${id}&sort=-number&recordId=${r}`;
      },
      [items.id, rec],
    );
    await page.getByRole('dialog').waitFor();
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain(`recordId=${rec}`);
    expect(new URL(page.url()).hash).toContain('sort=-number');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it("keeps a screen's links free of another screen's params", async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}&sort=-number`;
    }, items.id);
    await page.locator('tbody tr[data-id]').first().waitFor();
    await page.getByRole('link', { name: 'Logs' }).first().click();
    await page.waitForURL(/#\/logs/);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).hash).not.toContain('collectionId');
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, items.id);
    await page.locator('tbody tr').first().waitFor();
    await page.evaluate(() => {
      window.location.hash = '#/settings/mail';
    });
    await page.waitForURL(/#\/settings\/mail/);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).hash).toBe('#/settings/mail');
  });
});

describe('issue 28: select multiple with one choice', () => {
  it('shows the max select error in the collection editor and does not save a single select', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, items.id);
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByText('Edit collection', { exact: true }).waitFor();
    await editor.getByRole('button', { name: 'New field' }).click();
    await page.getByRole('menuitem', { name: 'Select', exact: true }).click();
    const row = editor.locator('.field-row--open');
    await row.getByRole('textbox', { name: /^Field name/ }).fill('choice');
    await row.getByLabel(/^Choices/).fill('only');
    await row.getByLabel(/^Choices/).blur();
    await row.getByLabel('Values').selectOption({ label: 'Multiple' });
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await row.getByText('Must be no less than 2.').waitFor();
    await page.waitForTimeout(300);
    const saved = await api.collections.getOne(items.id);
    expect(saved.schema.map((f) => f.name)).not.toContain('choice');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
  });
});

describe('issue 28: export while the ids are counted', () => {
  it('says the records are being counted until the total is known, then shows the progress', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, items.id);
    await page.locator('tbody tr').first().waitFor();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/records-ids*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const popup = page.locator('.records-export-popup');
    await popup.getByText('CSV', { exact: true }).waitFor();
    const downloaded = page.waitForEvent('download', { timeout: 30_000 });
    await popup.getByRole('button', { name: 'Export', exact: true }).click();
    await popup.getByRole('status').filter({ hasText: 'Counting the records to export…' }).waitFor();
    expect(await popup.getByText(/Exported 0 of 0/).count()).toBe(0);
    expect(await popup.locator('progress').evaluate((p) => (p as HTMLProgressElement).position)).toBe(-1); // indeterminate
    release();
    await downloaded;
    await page.unroute('**/records-ids*');
  });
});

describe('issue 28: bulk edit', () => {
  it('closes the confirm popup as the run starts, leaving the progress in view', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, items.id);
    await page.locator('tr[data-id]').first().waitFor();
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: 'Edit selected' }).click();
    const panel = page.getByRole('dialog', { name: /Edit \d+ records? selected/ });
    await panel.waitFor();
    await panel.getByLabel('Field').selectOption('number');
    await panel.getByLabel(/^number/).fill('7');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/api/collections/${items.id}/records/*`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await panel.getByRole('button', { name: /^Apply to/ }).click();
    const popup = page.locator('.confirm-popup');
    await popup.getByText(/Do you really want to set "number"/).waitFor();
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await panel.locator('progress').waitFor();
    await popup.waitFor({ state: 'hidden' });
    expect(await panel.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    release();
    await panel.getByText(/Updated 5 records of 5\./).waitFor();
    await page.unroute(`**/api/collections/${items.id}/records/*`);
    await panel.getByRole('button', { name: 'Done' }).click();
  });
});

describe('issue 28: import preview', () => {
  it('marks a bad row in the preview table (visibly and by text) and its scroll box is keyboard-focusable', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, other.id);
    await page.locator('.records-list').getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.locator('.records-import-panel');
    await page.locator('#records-import-file').setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('label,x\nfine,1\n,2\nalso,3') });
    await panel.getByText('2 valid rows, 1 with errors (not imported).').waitFor();
    const rows = panel.locator('.records-import-table tbody tr');
    await expect.poll(() => rows.nth(1).getAttribute('class')).toContain('records-import-row-invalid');
    expect(await rows.nth(0).getAttribute('class')).toBeNull();
    // the row header names the line and, for screen readers, its errors
    const header = rows.nth(1).getByRole('rowheader');
    expect(await header.textContent()).toMatch(/^3has errors: label: /);
    const bg = await rows.nth(1).locator('td').first().evaluate((td) => getComputedStyle(td).backgroundColor);
    const okBg = await rows.nth(0).locator('td').first().evaluate((td) => getComputedStyle(td).backgroundColor);
    expect(bg).not.toBe(okBg);
    const region = panel.getByRole('region', { name: "Preview of the file's rows" });
    expect(await region.getAttribute('tabindex')).toBe('0');
    await injectAxe(page);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (el: Element, o: object) => Promise<{ violations: { id: string }[] }> } }).axe;
      const res = await axe.run(document.querySelector('.records-import-panel')!, { runOnly: ['scrollable-region-focusable'] });
      return res.violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);
    await panel.getByRole('button', { name: 'Close' }).first().click();
  });
});

describe('issue 28: theme before the app script', () => {
  it('paints the stored dark theme while the main script is held back', async () => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const p = await context.newPage();
    await p.goto(`${url}/_/favicon.svg`);
    await p.evaluate(() => localStorage.setItem('outpost_theme', 'dark'));
    const html = await (await fetch(`${url}/_/`)).text();
    const main = /<script type="module" crossorigin src="([^"]+)"/.exec(html)![1];
    const theme = /<script src="([^"]+boot-theme-[^"]+)"/.exec(html)![1];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await p.route(`**${main}`, async (route) => {
      await held;
      await route.continue();
    });
    // the module script holds DOMContentLoaded back: wait for the body and the stylesheet only
    await p.goto(`${url}/_/#/login`, { waitUntil: 'commit' });
    await p.waitForFunction(() => !!document.getElementById('app') && [...document.styleSheets].some((s) => s.cssRules.length > 0));
    // the app's code has not run: nothing is mounted yet
    expect(await p.locator('#app').innerHTML()).toBe('');
    expect(await p.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(200); // dark, not white
    release();
    await p.getByRole('button', { name: 'Login' }).waitFor();
    // cacheable, and allowed by the strict CSP (an external same-origin script)
    const res = await fetch(url + theme);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${url}/_/`)).headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
    await context.close();
  });
});

describe('issue 28: logs at 390 px', () => {
  it('reflows the logs table to the screen: every column in view, no sideways scroll', async () => {
    const writer = getLogWriter(app.ctx)!;
    writer.add({ level: 4, message: 'GET /api/collections/a_rather_long_collection_name/records?filter=x', data: { type: 'request', auth: 'guest', status: 404, method: 'GET', url: '/api/collections/a_rather_long_collection_name/records', execTime: 1.5, userAgent: 'Mozilla/5.0 (a long user agent string)' } });
    writer.add({ level: 0, message: 'GET /api/health', data: { type: 'request', auth: 'guest', status: 200, method: 'GET', url: '/api/health', execTime: 0.2 } });
    writer.flush();
    const p = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(p, url, ADMIN);
    await p.goto(`${url}/_/#/logs?adminRequests=1`);
    await p.getByText('GET /api/health').first().waitFor();
    const table = p.getByRole('table', { name: 'Logs' });
    await p.waitForFunction(() => {
      const t = document.querySelector('.logs-table');
      return !!t && !t.hasAttribute('aria-busy');
    });
    const m = await table.evaluate((t) => {
      const wrapper = t.closest('.logs-table-wrapper') as HTMLElement;
      const cells = [...t.querySelectorAll('thead th')].map((th) => th.getBoundingClientRect().right);
      return { right: Math.max(...cells), wrapperRight: wrapper.getBoundingClientRect().right, scrollable: wrapper.scrollWidth > wrapper.clientWidth + 1, docWidth: document.documentElement.scrollWidth };
    });
    await p.screenshot({ path: '/tmp/logs390.png', fullPage: true });
    expect(m.docWidth).toBeLessThanOrEqual(390);
    expect(m.scrollable).toBe(false);
    expect(m.right).toBeLessThanOrEqual(m.wrapperRight);
    await p.close();
  });
});
