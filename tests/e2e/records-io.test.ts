// Records import and export in Chromium against the real server: a filtered CSV export read back
// and compared with the API; the export saying it counts the records until their total is known;
// the import preview marking a bad row (visibly and by text) in a keyboard-focusable scroll box;
// a CSV import with one bad row (the preview shows its error, the other rows are written and the
// server holds them); a long import cancelled mid-way leaves only whole batches.
// OUTPOST_DASHBOARD_DIR serves another build than dist/.
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { injectAxe, launchBrowser, screenshot, signIn } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'recordsio@example.com', password: 'recordsio-pass-123' };

let app: App;
let url: string;
let dataDir: string;
let api: PocketBase;
let browser: Browser;
let page: Page;
let items: { id: string };
let tags: { id: string };
const tagIds: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  dataDir = path.join(tempDir(), 'pb_data');
  app = await createApp({ dataDir, dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);

  tags = await api.collections.create({ name: 'tags', type: 'base', schema: [{ name: 'label', type: 'text', presentable: true }] });
  items = await api.collections.create({
    name: 'items',
    type: 'base',
    schema: [
      { name: 'title', type: 'text', required: true, options: { max: 40 } },
      { name: 'qty', type: 'number' },
      { name: 'active', type: 'bool' },
      { name: 'kind', type: 'select', options: { maxSelect: 1, values: ['a', 'b', 'c'] } },
      { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
      { name: 'tags', type: 'relation', options: { collectionId: tags.id, maxSelect: null } },
      { name: 'due', type: 'date' },
    ],
  });
  for (const label of ['red', 'green']) tagIds.push((await api.collection('tags').create({ label })).id);
  for (let i = 1; i <= 30; i++) {
    await api.collection('items').create({
      title: `item, "${i}"`,
      qty: i,
      active: i % 2 === 0,
      kind: ['a', 'b', 'c'][i % 3],
      meta: { n: i },
      tags: i % 5 === 0 ? tagIds : [tagIds[0]],
      due: `2024-01-${String((i % 28) + 1).padStart(2, '0')} 10:00:00.000Z`,
    });
  }

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
});

const rows = () => page.locator('table.records-table tbody tr.rl-row');

async function openItems(query = '') {
  await page.goto(`${url}/_/#/collections?collectionId=${items.id}${query}`);
  await rows().first().waitFor();
}

async function download(trigger: () => Promise<void>): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), trigger()]);
  const file = await dl.path();
  return fs.readFileSync(file, 'utf8');
}

/** Exports the filtered, sorted list as CSV and checks the file against the API's records. */
async function exportFilteredCsv() {
  const filter = 'qty > 12 && active = true';
  await openItems(`&filter=${encodeURIComponent(filter)}&sort=${encodeURIComponent('-qty')}`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const popup = page.locator('.records-export-popup');
  await popup.getByText('Exports the records matching the current filter').waitFor();
  await popup.getByText('CSV', { exact: true }).waitFor();
  await screenshot(page, 'records-export');
  const text = await download(() => popup.getByRole('button', { name: 'Export', exact: true }).click());
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  const expected = await api.collection('items').getFullList({ filter, sort: '-qty' });
  expect(expected.length).toBe(9);
  expect(parsed.meta.fields).toEqual(['id', 'title', 'qty', 'active', 'kind', 'meta', 'tags', 'due', 'created', 'updated']);
  expect(parsed.data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  for (const [i, row] of parsed.data.entries()) {
    const r = expected[i];
    expect(row.title).toBe(r.title);
    expect(Number(row.qty)).toBe(r.qty);
    expect(row.active).toBe('true');
    expect(row.kind).toBe(r.kind);
    expect(JSON.parse(row.meta)).toEqual(r.meta);
    expect(row.tags).toBe((r.tags as string[]).join(','));
    expect(row.due).toBe(r.due);
    expect(row.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(row.created).toBe(r.created);
  }
  await popup.waitFor({ state: 'hidden' });
}

describe('records export', () => {
  it('exports the filtered, sorted list as CSV and the file reads back as the API returns it', async () => {
    // Outpost: the ids in order from records-ids, then the records by ids
    const asked: string[] = [];
    const track = (req: { url(): string }) => asked.push(req.url());
    page.on('request', track);
    try {
      await exportFilteredCsv();
    } finally {
      page.off('request', track);
    }
    expect(asked.filter((u) => u.includes('/records-ids'))).toHaveLength(1);
  });

  it('exports page by page from a server without records-ids (PocketBase 0.22)', async () => {
    await page.route('**/records-ids*', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, message: "The requested resource wasn't found.", data: {} }) }),
    );
    try {
      await exportFilteredCsv();
    } finally {
      await page.unroute('**/records-ids*');
    }
  });

  it('exports the selection as JSON with relation names', async () => {
    await openItems('&sort=qty');
    for (const i of [0, 4]) await rows().nth(i).locator('input[type=checkbox]').check();
    await page.getByRole('button', { name: 'Export (2 selected)' }).click();
    const popup = page.locator('.records-export-popup');
    await popup.getByText('JSON', { exact: true }).click();
    await popup.getByText('Relations as names').click();
    const text = await download(() => popup.getByRole('button', { name: 'Export', exact: true }).click());
    const list = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(list.map((r) => r.qty)).toEqual([1, 5]);
    expect(list[1].tags).toEqual(['red', 'green']);
    expect(list[0].meta).toEqual({ n: 1 });
    expect(list[0].active).toBe(false);
  });
});

describe('export while the ids are counted', () => {
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

describe('import preview', () => {
  // a collection with a required field: a row without it is bad
  let labels: { id: string };
  beforeAll(async () => {
    labels = await api.collections.create({ name: 'labels', type: 'base', schema: [{ name: 'label', type: 'text', required: true }] });
    await page.reload(); // the collections store is loaded once per page: now it holds 'labels'
  });

  it('marks a bad row in the preview table (visibly and by text) and its scroll box is keyboard-focusable', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, labels.id);
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

async function chooseFile(name: string, text: string, mime = 'text/csv') {
  await page.locator('#records-import-file').setInputFiles({ name, mimeType: mime, buffer: Buffer.from(text) });
}

describe('records import', () => {
  it('imports a CSV with one bad row: the preview shows its error, the other rows are written', async () => {
    await openItems();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.locator('.records-import-panel');
    const csv = [
      'Title,qty,active,kind,tags,unknown_col,meta',
      `new one,7,true,a,${tagIds[0]},x,"{""k"":1}"`,
      `new two,abc,1,b,"${tagIds.join(',')}",y`,
      ',3,false,c,,z', // bad: the required title is missing
      `new four,2.5,TRUE,c,"[""${tagIds[1]}""]",w`,
      'new five,1,no,zzz,,v', // bad too: kind is not one of the values
    ].join('\n');
    await chooseFile('items.csv', csv);
    await panel.getByText('Preview (5 rows)').waitFor();
    // matched by name, case-insensitively; the unknown column is ignored
    expect(await panel.getByLabel('Field for column Title').inputValue()).toBe('title');
    expect(await panel.getByLabel('Field for column unknown_col').inputValue()).toBe('');
    await panel.getByText('3 valid rows, 2 with errors (not imported).').waitFor();
    await panel.getByText('Row 4: title: Missing required value.').waitFor();
    await panel.getByText('Row 6: kind: Invalid value zzz.').waitFor();
    await screenshot(page, 'records-import-preview');
    const before = (await api.collection('items').getList(1, 1)).totalItems;
    await panel.getByRole('button', { name: 'Import 3 rows' }).click();
    await panel.getByText('Import finished.').waitFor({ timeout: 60_000 });
    await expect(panel.locator('.records-import-summary').innerText()).resolves.toContain('Created: 3, updated by id: 0, failed: 2.');
    await screenshot(page, 'records-import-summary');

    const failures = await download(() => panel.getByRole('button', { name: 'Download failures (CSV)' }).click());
    const failed = Papa.parse<Record<string, string>>(failures, { header: true, skipEmptyLines: true }).data;
    expect(failed.map((r) => r.line)).toEqual(['4', '6']);
    expect(failed[0].reason).toBe('title: Missing required value.');

    expect((await api.collection('items').getList(1, 1)).totalItems).toBe(before + 3);
    const got = await api.collection('items').getFullList({ filter: 'title ~ "new "', sort: 'title' });
    expect(got.find((r) => r.title === 'new one')?.meta).toEqual({ k: 1 });
    expect(got.map((r) => [r.title, r.qty, r.active, r.kind, r.tags])).toEqual([
      ['new four', 2.5, true, 'c', [tagIds[1]]],
      ['new one', 7, true, 'a', [tagIds[0]]],
      ['new two', 0, true, 'b', tagIds], // 'abc' casts to 0, '1' to true (0.22's multipart casting)
    ]);
    await panel.getByRole('button', { name: 'Done' }).click();
  });

  it('updates records by id from a JSON file', async () => {
    const target = (await api.collection('items').getList(1, 1, { sort: 'qty' })).items[0];
    await openItems();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.locator('.records-import-panel');
    await chooseFile('items.json', JSON.stringify([{ id: target.id, title: 'renamed', qty: 99, meta: { deep: [1, 2] } }]), 'application/json');
    await panel.getByText('1 valid row, 0 with errors.').waitFor();
    await panel.getByRole('button', { name: 'Import 1 row' }).click();
    await panel.getByText('Created: 0, updated by id: 1, failed: 0.').waitFor({ timeout: 60_000 });
    const after = await api.collection('items').getOne(target.id);
    expect([after.title, after.qty, after.kind, after.meta]).toEqual(['renamed', 99, target.kind, { deep: [1, 2] }]);
    await panel.getByRole('button', { name: 'Done' }).click();
  });

  it('exports formula-like text with a leading quote (the dialog says so) and imports it back unchanged', async () => {
    const titles = ['=HYPERLINK("http://evil.example","x")', '+cmd|/C calc!A0', "'@SUM(1)"];
    const made = await Promise.all(titles.map((title, i) => api.collection('items').create({ title, qty: 500 + i, kind: 'a' })));
    const filter = 'qty >= 500';
    await openItems(`&filter=${encodeURIComponent(filter)}&sort=qty`);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const popup = page.locator('.records-export-popup');
    await popup.getByText("gets a leading ' so spreadsheets show it instead of running it as a formula").waitFor();
    const text = await download(() => popup.getByRole('button', { name: 'Export', exact: true }).click());
    const cells = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data.map((r) => r.title);
    expect(cells).toEqual(titles.map((t) => `'${t}`));
    await popup.waitFor({ state: 'hidden' });

    // the same file imported (updates by id) keeps every value as it was
    await api.collection('items').update(made[0].id, { title: 'changed' });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.locator('.records-import-panel');
    await chooseFile('formulas.csv', text);
    await panel.getByRole('button', { name: 'Import 3 rows' }).click();
    await panel.getByText('Created: 0, updated by id: 3, failed: 0.').waitFor({ timeout: 60_000 });
    const after = await api.collection('items').getFullList({ filter, sort: 'qty' });
    expect(after.map((r) => r.title)).toEqual(titles);
    await panel.getByRole('button', { name: 'Done' }).click();
    await Promise.all(made.map((r) => api.collection('items').delete(r.id)));
  });

  it('falls back to one request per record on a server without the batch endpoint (PocketBase 0.22)', async () => {
    // PocketBase 0.22 has no records-import route: it answers 404
    let batchCalls = 0;
    await page.route('**/records-import', (route) => {
      batchCalls++;
      return route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, message: "The requested resource wasn't found.", data: {} }) });
    });
    try {
      await openItems();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const panel = page.locator('.records-import-panel');
      await chooseFile('fallback.csv', ['title,qty,kind', 'fallback one,1,a', 'fallback two,2,b', 'fallback three,3,c'].join('\n'));
      await panel.getByRole('button', { name: 'Import 3 rows' }).click();
      await panel.getByText('Created: 3, updated by id: 0, failed: 0.').waitFor({ timeout: 60_000 });
      const got = await api.collection('items').getFullList({ filter: 'title ~ "fallback "', sort: 'qty' });
      expect(got.map((r) => [r.title, r.qty, r.kind])).toEqual([
        ['fallback one', 1, 'a'],
        ['fallback two', 2, 'b'],
        ['fallback three', 3, 'c'],
      ]);
      expect(batchCalls).toBe(1);
      await panel.getByRole('button', { name: 'Done' }).click();
    } finally {
      await page.unroute('**/records-import');
    }
  });

  it('a long import cancelled mid-way leaves only whole batches', async () => {
    const bulk = await api.collections.create({ name: 'bulk', type: 'base', schema: [{ name: 'n', type: 'number' }] });
    const lines = ['n'];
    for (let i = 1; i <= 3000; i++) lines.push(String(i));
    await page.reload(); // the dashboard loads the new collection
    await page.locator('nav').getByText('bulk', { exact: true }).click();
    await page.waitForURL((u) => u.hash.includes(bulk.id));
    await page.locator('.records-list').getByRole('button', { name: 'Import', exact: true }).waitFor({ timeout: 60_000 }).catch(async (err) => {
      await screenshot(page, 'records-import-cancel-failure');
      throw err;
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const panel = page.locator('.records-import-panel');
    await chooseFile('bulk.csv', lines.join('\n'));
    await panel.getByRole('button', { name: 'Import 3000 rows' }).click({ timeout: 60_000 }).catch(async (err) => {
      await screenshot(page, 'records-import-3000-failure');
      throw err;
    });
    await panel.getByText(/Imported [1-9]\d* of 3000 rows/).waitFor({ timeout: 60_000 });
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByText('Import cancelled.').waitFor({ timeout: 60_000 });
    const total = (await api.collection('bulk').getList(1, 1)).totalItems;
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(3000);
    expect(total % 100).toBe(0);
    await expect(panel.locator('.records-import-summary').innerText()).resolves.toContain(`Created: ${total},`);
  });
});
