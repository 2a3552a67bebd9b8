// In Chromium against the real server. The palette's record lookup answers for every
// collection: with 52 collections a record of the last one and a users record open by id, through
// Outpost's find-record endpoint in one request, and through the list API (every collection, a few
// at a time) when the endpoint answers as PocketBase 0.22 does for a route it lacks. Ctrl+K right
// after a page load, then typing at 40 ms per key while the palette's chunk still loads, keeps
// every key (Esc before it shows cancels it).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { launchBrowser, signIn } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'palette@example.com', password: 'palette-pass-123' };
const COUNT = 52;
const FIND = '**/api/outpost/find-record/**';

let app: App;
let url: string;
let browser: Browser;
let page: Page;
let lastId: string;
let lastRecord: string;
let usersId: string;
let userRecord: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  app = await createApp({ dataDir: path.join(tempDir(), 'pb_data'), dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  const api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  for (let i = 0; i < COUNT; i++) {
    const c = await api.collections.create({ name: `coll_${String(i).padStart(2, '0')}`, type: 'base', schema: [{ name: 'title', type: 'text' }] });
    lastId = c.id;
  }
  lastRecord = (await api.collection(lastId).create({ title: 'in the last one' })).id;
  usersId = (await api.collections.getOne('users')).id;
  userRecord = (await api.collection('users').create({ email: 'someone@example.com', password: 'user-pass-123', passwordConfirm: 'user-pass-123' })).id;
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, url, ADMIN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const palette = () => page.getByRole('dialog', { name: 'Command palette' });
const search = () => palette().getByRole('combobox');

/** Opens the palette, types the id and opens the record it offers; checks where it landed. */
async function jump(id: string, collectionId: string, collectionName: string) {
  await page.keyboard.press('Control+k');
  await search().fill(id);
  const option = palette().getByRole('option', { name: new RegExp(`Open record ${id}`) });
  await option.waitFor();
  expect(await option.textContent()).toContain(collectionName);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.hash.includes(`collectionId=${collectionId}`) && u.hash.includes(`recordId=${id}`));
  await page.getByRole('heading', { name: `Edit ${collectionName} record` }).waitFor();
}

describe('palette record lookup', () => {
  it('finds a record of the last of 52 collections and a users record, one request each', async () => {
    await page.goto(`${url}/_/#/collections`);
    await page.locator('.page-wrapper').first().waitFor();
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes('/api/outpost/find-record/') || /\/records\?/.test(r.url())) asked.push(r.url());
    };
    page.on('request', onRequest);
    await jump(lastRecord, lastId, `coll_${COUNT - 1}`);
    expect(asked.filter((u) => u.includes('find-record')).length).toBe(1);
    await page.keyboard.press('Escape');
    await jump(userRecord, usersId, 'users');
    page.off('request', onRequest);
    expect(asked.filter((u) => u.includes('find-record')).length).toBe(2);

    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await search().fill('zzzzzzzzzzzzzzz');
    await palette().getByRole('option', { name: 'No record with id zzzzzzzzzzzzzzz' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('falls back to the list API over every collection when the endpoint is missing (PocketBase 0.22)', async () => {
    await page.route(FIND, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, message: 'Not Found.', data: {} }) }));
    try {
      await page.goto(`${url}/_/#/collections`);
      await page.reload(); // a fresh module state: the lookup has not yet seen the route missing
      await page.locator('.page-wrapper').first().waitFor();
      let lists = 0;
      let finds = 0;
      page.on('request', (r) => {
        if (r.url().includes('/api/outpost/find-record/')) finds++;
        else if (r.url().includes('/records?') && r.url().includes('filter=')) lists++;
      });
      await jump(lastRecord, lastId, `coll_${COUNT - 1}`);
      expect(finds).toBe(1);
      expect(lists).toBeGreaterThan(25); // past the old 25-collection cap
      await page.keyboard.press('Escape');
      await jump(userRecord, usersId, 'users');
      expect(finds).toBe(1); // the missing route is remembered

      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+k');
      await search().fill('zzzzzzzzzzzzzzz');
      await palette().getByRole('option', { name: 'No record with id zzzzzzzzzzzzzzz' }).waitFor();
      await page.keyboard.press('Escape');
    } finally {
      await page.unroute(FIND);
    }
  });

  it('keeps every key typed right after Ctrl+K following a page load', async () => {
    // the palette's chunk is held back a little, as on a slow network: the keys come before it
    await page.route(/\/assets\/CommandPalette[^/]*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    try {
      await page.goto(`${url}/_/#/collections`);
      await page.reload();
      await page.locator('.page-wrapper').first().waitFor();
      await page.keyboard.press('Control+k');
      await page.keyboard.type(lastRecord, { delay: 40 });
      await expect.poll(() => search().inputValue()).toBe(lastRecord);
      await expect.poll(() => search().evaluate((el) => el === document.activeElement)).toBe(true);
      await palette().getByRole('option', { name: new RegExp(`Open record ${lastRecord}`) }).waitFor();
      await page.keyboard.press('Escape');

      // Esc before the palette shows cancels it
      await page.reload();
      await page.locator('.page-wrapper').first().waitFor();
      await page.keyboard.press('Control+k');
      await page.keyboard.type('abc', { delay: 40 });
      await page.keyboard.press('Escape');
      await page.waitForTimeout(800);
      expect(await palette().count()).toBe(0);

      // and without the delay, on a fresh load
      await page.unroute(/\/assets\/CommandPalette[^/]*\.js$/);
      await page.reload();
      await page.locator('.page-wrapper').first().waitFor();
      await page.keyboard.press('Control+k');
      await page.keyboard.type('coll_51', { delay: 40 });
      await expect.poll(() => search().inputValue()).toBe('coll_51');
      await page.keyboard.press('Escape');
    } finally {
      await page.unrouteAll();
    }
  });
});
