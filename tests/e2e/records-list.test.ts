// The records list in Chromium against the real server: rows with formatted values (relation
// chips, file thumbs, bools, JSON, dates), Total found, Load more, search with autocomplete and
// the normalised filter in the URL, an invalid filter without a toast, sort by header, a hidden
// column that stays hidden after reload, bulk delete of three (checked through the API), the
// editor opened from a row through recordId, a view collection's read-only preview, and an
// incomplete search expression (answered 400) marking the search bar invalid without a toast.
// OUTPOST_DASHBOARD_DIR serves another build than dist/ (e.g. one built to a temp dir).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'records@example.com', password: 'records-pass-123' };

let app: App;
let url: string;
let dataDir: string;
let api: PocketBase;
let browser: Browser;
let page: Page;
let posts: { id: string };
let stats: { id: string };
const postIds: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  dataDir = path.join(tempDir(), 'pb_data');
  app = await createApp({ dataDir, dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);

  const authors = await api.collections.create({
    name: 'authors',
    type: 'base',
    schema: [{ name: 'name', type: 'text', presentable: true }],
  });
  posts = await api.collections.create({
    name: 'posts',
    type: 'base',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'body', type: 'editor' },
      { name: 'views', type: 'number' },
      { name: 'published', type: 'bool' },
      { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
      { name: 'tags', type: 'select', options: { maxSelect: 3, values: ['news', 'tech', 'life'] } },
      { name: 'author', type: 'relation', options: { collectionId: authors.id, maxSelect: 1 } },
      { name: 'cover', type: 'file', options: { maxSelect: 1, maxSize: 5242880, mimeTypes: [], thumbs: [] } },
    ],
  });
  stats = await api.collections.create({
    name: 'post_stats',
    type: 'view',
    options: { query: 'SELECT id, title, views FROM posts WHERE views >= 40' },
  });

  const ann = await api.collection('authors').create({ name: 'Ann Author' });
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 66, g: 99, b: 235 } } }).png().toBuffer();
  for (let i = 1; i <= 45; i++) {
    const data: Record<string, unknown> = {
      title: i % 10 === 0 ? `banana split ${i}` : `post ${String(i).padStart(2, '0')}`,
      body: `<p>Body of <b>post</b> ${i}</p>`,
      views: i,
      published: i % 2 === 0,
      meta: { n: i, tags: ['a', 'b'] },
      tags: i % 3 === 0 ? ['news', 'tech'] : ['life'],
      author: i % 4 === 0 ? ann.id : '',
    };
    let rec;
    if (i === 45) {
      const form = new FormData();
      for (const [k, v] of Object.entries(data)) {
        if (Array.isArray(v)) for (const item of v) form.append(k, String(item));
        else form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
      }
      form.append('cover', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png');
      rec = await api.collection('posts').create(form);
    } else {
      rec = await api.collection('posts').create(data);
    }
    postIds.push(rec.id);
  }

  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const rows = () => page.locator('table.records-table tbody tr.rl-row');
// the hash query is form-encoded ('+' for spaces)
const hash = () => decodeURIComponent(new URL(page.url()).hash.replace(/\+/g, ' '));

async function openPosts(query = '') {
  await page.goto(`${url}/_/#/collections?collectionId=${posts.id}${query}`);
  await rows().first().waitFor();
}

describe('records list', () => {
  it('shows the rows with formatted values, the total and Load more', async () => {
    await openPosts();
    await page.getByText('Total found: 45').waitFor();
    // newest first (-created): post 45 carries the file
    const first = rows().first();
    await first.locator('.rl-file-thumb img').waitFor();
    expect(await first.locator('.rl-file-thumb img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await first.locator('.rl-file-thumb img').getAttribute('src')).toContain('thumb=100x100');
    await expect(first.locator('.col-field-body').innerText()).resolves.toBe('Body of post 45');
    await expect(first.locator('.col-field-published').innerText()).resolves.toBe('False');
    await expect(first.locator('.col-field-meta').innerText()).resolves.toBe('{"n":45,"tags":["a","b"]}');
    await expect(first.locator('.col-field-tags').innerText()).resolves.toBe('news\ntech');
    await expect(first.locator('.col-field-created').innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await expect(rows().nth(1).locator('.col-field-author').innerText()).resolves.toBe('Ann Author'); // post 44
    await screenshot(page, 'records-list');

    // rendered in batches of 20; scrolling renders the rest of the page of 40, then Load more
    expect(await rows().count()).toBeLessThanOrEqual(40);
    for (let i = 0; i < 10 && (await rows().count()) < 40; i++) {
      await rows().last().scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);
    }
    expect(await rows().count()).toBe(40);
    const more = page.getByRole('button', { name: 'Load more' });
    await more.click();
    await expect.poll(() => rows().count()).toBe(45);
    await expect.poll(() => more.count()).toBe(0);
  });

  it('search: autocomplete, the normalised filter in the URL and the matching rows', async () => {
    await openPosts();
    const input = page.getByRole('combobox', { name: 'Search records' });
    await input.click();
    await input.pressSequentially('auth');
    const list = page.getByRole('listbox', { name: 'Filter suggestions' });
    await list.getByRole('option', { name: 'author.name' }).waitFor();
    await screenshot(page, 'records-search-autocomplete');
    await input.press('Escape');
    await input.fill('');
    await input.pressSequentially('banana');
    await input.press('Enter');
    await page.waitForURL((u) => decodeURIComponent(u.hash.replace(/\+/g, ' ')).includes("title~'banana'"));
    expect(hash()).toContain("filter=id~'banana' || title~'banana' || body~'banana'");
    await expect.poll(() => rows().count()).toBe(4);
    await page.getByText('Total found: 4').waitFor();
    for (const t of await rows().locator('.col-field-title').allInnerTexts()) expect(t).toMatch(/^banana split \d+$/);
    expect(await input.inputValue()).toContain("title~'banana'");
    await screenshot(page, 'records-search-result');

    // an expression passes through untouched; nothing matches: the empty state with Clear filters
    await input.fill('views > 1000');
    await input.press('Enter');
    await page.getByText('No records found.').waitFor();
    expect(hash()).toContain('filter=views > 1000');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => hash().includes('filter=')).toBe(false);
    await page.getByText('Total found: 45').waitFor();
  });

  it('an invalid filter shows no toast, only a quiet hint', async () => {
    await openPosts();
    const input = page.getByRole('combobox', { name: 'Search records' });
    await input.fill('nosuchfield = 1');
    await input.press('Enter');
    await page.locator('.filter-search-hint').waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('toast').count()).toBe(0);
    await screenshot(page, 'records-invalid-filter');
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.getByText('Total found: 45').waitFor();
  });

  it('sorts by a column header (toggling -/+), the sort in the URL', async () => {
    await openPosts();
    await page.getByRole('columnheader', { name: 'views' }).getByRole('button').click();
    await expect.poll(() => hash()).toContain('sort=-views');
    await expect.poll(() => rows().first().locator('.col-field-views').innerText()).toBe('45');
    await page.getByRole('columnheader', { name: 'views' }).getByRole('button').click();
    await expect.poll(() => hash()).toContain('sort=+views');
    await expect.poll(() => rows().first().locator('.col-field-views').innerText()).toBe('1');
    expect(await page.getByRole('columnheader', { name: 'views' }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('a hidden column stays hidden after reload', async () => {
    await openPosts();
    await page.getByRole('button', { name: 'Toggle columns' }).click();
    await page.getByRole('group', { name: 'Columns' }).getByLabel('body').uncheck();
    await screenshot(page, 'records-columns-menu');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('columnheader', { name: 'body' }).count()).toBe(0);
    await page.reload();
    await rows().first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'title' }).count()).toBe(1);
    expect(await page.getByRole('columnheader', { name: 'body' }).count()).toBe(0);
    expect(await page.evaluate((id) => localStorage.getItem(`${id}@hiddenColumns`), posts.id)).toBe('["body"]');
    // back on for the other tests
    await page.getByRole('button', { name: 'Toggle columns' }).click();
    await page.getByRole('group', { name: 'Columns' }).getByLabel('body').check();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'body' }).waitFor();
  });

  it('opens the record editor from a row (recordId in the URL) and clears it on close', async () => {
    await openPosts();
    const id = await rows().first().getAttribute('data-id');
    const close = async () => {
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    };
    await rows().first().click();
    await expect.poll(() => hash()).toContain(`recordId=${id}`);
    await page.getByRole('dialog').waitFor();
    await close();
    await expect.poll(() => hash().includes('recordId=')).toBe(false);
    // Enter on a focused row opens it too
    const second = await rows().nth(1).getAttribute('data-id');
    await rows().nth(1).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => hash()).toContain(`recordId=${second}`);
    await page.getByRole('dialog').waitFor();
    await close();
    await expect.poll(() => hash().includes('recordId=')).toBe(false);
    // a deep link opens the record too
    await page.goto(`${url}/_/#/collections?collectionId=${posts.id}&recordId=${postIds[0]}`);
    await page.getByRole('dialog').waitFor();
    await close();
    await expect.poll(() => hash().includes('recordId=')).toBe(false);
    // the header's New record opens an empty editor
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('dialog').waitFor();
    await screenshot(page, 'records-new-record-panel');
    await close();
  });

  it('bulk deletes three selected records', async () => {
    await openPosts();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const row = rows().nth(i);
      ids.push((await row.getAttribute('data-id'))!);
      await row.locator('.col-select input').check();
    }
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByText('Selected 3 records').waitFor();
    await screenshot(page, 'records-bulk-selected');
    await bar.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByText('Do you really want to delete the selected records?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Successfully deleted the selected record(s).' }).waitFor();
    await page.getByText('Total found: 42').waitFor();
    for (const id of ids) {
      await expect(api.collection('posts').getOne(id)).rejects.toMatchObject({ status: 404 });
      // realtime delete events can count the total down before the list's reload replaces the
      // greyed-out rows, so the rows are awaited, not read once
      await expect.poll(() => page.locator(`tr[data-id="${id}"]`).count()).toBe(0);
    }
    // select all then reset
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await bar.getByText(/Selected \d+ records/).waitFor();
    await bar.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => bar.count()).toBe(0);
  });

  it('a view collection shows its rows, no New record, and opens the read-only preview', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${stats.id}`);
    await rows().first().waitFor();
    await page.getByText(/Total found: \d+/).waitFor();
    expect(await page.getByRole('button', { name: 'New record' }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Select all' }).count()).toBe(0);
    const title = await rows().first().locator('.col-field-title').innerText();
    await rows().first().click();
    const preview = page.getByRole('dialog', { name: 'post_stats record preview' });
    await preview.waitFor();
    await preview.getByText(title, { exact: true }).waitFor();
    expect(await preview.locator('input, textarea, [contenteditable="true"]').count()).toBe(0);
    await screenshot(page, 'records-view-preview');
    await preview.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => hash().includes('recordId=')).toBe(false);
  });
});

describe('records search with an incomplete expression', () => {
  // a collection of three: the expression completed matches one of them
  let notes: { id: string };
  const toasts = () => page.getByTestId('toast');
  beforeAll(async () => {
    notes = await api.collections.create({ name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }] });
    for (const title of ['x marks the spot', 'another post', 'x again']) await api.collection('notes').create({ title });
    await page.reload(); // the collections store is loaded once per page: now it holds 'notes'
  });

  it('shows no toast on the 400; the search bar is marked invalid quietly', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notes.id}`);
    const rows = page.locator('tr.rl-row');
    await expect.poll(() => rows.count()).toBe(3);
    const input = page.getByRole('combobox', { name: 'Search records' });
    const bad = page.waitForResponse((r) => r.url().includes('/records?') && r.status() === 400);
    await input.click();
    await input.pressSequentially('title ~ "x" &&');
    await input.press('Enter');
    await bad;
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    await page.waitForTimeout(800); // a toast would have shown by now
    expect(await toasts().count()).toBe(0);
    // the bar itself carries the mark (a danger border) and the reason as its description
    const bar = page.locator('form.searchbar').filter({ has: input });
    const [border, danger] = await bar.evaluate((el) => {
      const probe = document.body.appendChild(document.createElement('span'));
      probe.style.color = 'var(--color-danger)';
      const colors = [getComputedStyle(el).borderTopColor, getComputedStyle(probe).color];
      probe.remove();
      return colors;
    });
    expect(border).toBe(danger);
    const described = await input.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('Invalid filter - check the field names and the syntax.');
    await screenshot(page, 'records-search-invalid-quiet');

    // completing the expression clears the mark and filters
    await input.pressSequentially(' title ~ "spot"');
    await input.press('Enter');
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe(null);
    expect(await toasts().count()).toBe(0);
  });
});
