// The rich editor's image picker in Chromium against the real server: 'New record' opens a
// record editor for the picker's collection on top of the picker (and of the record being edited);
// a PNG uploaded and saved there shows up in the picker at once and is inserted into the rich text.
// The record being edited is neither saved nor touched by the nested editor. Also: the rich editor
// chunk is preloaded once signed in, and an editor field with convertUrls stores the
// picked same-origin image URL root-relative.
// OUTPOST_DASHBOARD_DIR serves another build than dist/.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import PocketBase, { type RecordModel } from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { launchBrowser, screenshot, label } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'picker@example.com', password: 'picker-pass-123' };

let app: App;
let url: string;
let dataDir: string;
let api: PocketBase;
let browser: Browser;
let page: Page;
let articles: { id: string; name: string };
let photos: { id: string; name: string };
let article: RecordModel;
const richRequests: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  dataDir = path.join(tempDir(), 'pb_data');
  app = await createApp({ dataDir, dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);

  photos = await api.collections.create({
    name: 'photos',
    type: 'base',
    schema: [
      { name: 'caption', type: 'text', presentable: true },
      { name: 'image', type: 'file', options: { maxSelect: 1, maxSize: 5242880, mimeTypes: ['image/png'], thumbs: ['40x40'] } },
    ],
  });
  articles = await api.collections.create({
    name: 'articles',
    type: 'base',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'body', type: 'editor', options: { convertUrls: true } },
    ],
  });
  article = await api.collection('articles').create({ title: 'Hello', body: '<p>Some text</p>' });

  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  page.on('request', (r) => {
    if (/\/assets\/RichEditor-[\w-]+\.js$/.test(r.url())) richRequests.push(r.url());
  });
  await page.goto(`${url}/_/#/login`);
  // the sign-in page does not fetch the rich editor
  await page.getByRole('button', { name: 'Login' }).waitFor();
  expect(richRequests).toEqual([]);
  await page.getByLabel(label('Email')).fill(ADMIN.email);
  await page.getByLabel(label('Password')).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/#\/collections/);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const editor = () => page.getByRole('dialog', { name: /^Edit articles record/ });
const picker = () => page.getByRole('dialog', { name: 'Select an image' });
const nested = () => page.getByRole('dialog', { name: /^New photos record/ });

describe('image picker', () => {
  it('preloads the rich editor chunk once signed in, with no editor open', async () => {
    await expect.poll(() => richRequests.length, { timeout: 10_000 }).toBe(1);
    expect(await page.locator('.rich-editor').count()).toBe(0);
  });

  it('New record: create a record with a PNG, its image shows in the picker and is inserted', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${articles.id}&recordId=${article.id}`);
    await editor().waitFor();
    const rich = editor().locator('[contenteditable="true"]');
    await rich.waitFor();
    await rich.getByText('Some text').click();
    await editor().getByRole('button', { name: 'Insert image' }).click();
    await picker().waitFor();
    await picker().getByRole('button', { name: 'photos' }).waitFor();
    await picker().getByText('No records with images found.').waitFor();

    await picker().getByRole('button', { name: 'New record' }).click();
    await nested().waitFor();
    // its fields have their own ids: none clash with the editor underneath
    const caption = nested().locator('[data-field="image-picker-record-form_caption"]');
    await caption.getByLabel(label('caption')).fill('Sunset');
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 240, g: 120, b: 20 } } }).png().toBuffer();
    const file = nested().locator('[data-field="image-picker-record-form_image"] input[type="file"]');
    await file.setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: png });
    await nested().getByText('sunset.png').waitFor();
    await screenshot(page, 'records-image-picker-new-record');
    await nested().getByRole('button', { name: 'Create' }).click();
    await nested().waitFor({ state: 'detached' });

    const [photo] = await api.collection('photos').getFullList();
    expect(photo).toMatchObject({ caption: 'Sunset' });
    expect(photo.image).toMatch(/^sunset_\w{10}\.png$/);

    // the picker is still open and lists the new image
    const thumb = picker().locator('.image-picker-thumb', { has: page.locator(`img[alt="${photo.image}"]`) });
    await thumb.waitFor();
    expect(await picker().getByText('No records with images found.').count()).toBe(0);
    await thumb.click();
    await picker().getByLabel('Image size').selectOption('40x40');
    await screenshot(page, 'records-image-picker-refreshed');
    await picker().getByRole('button', { name: 'Insert image' }).click();
    await picker().waitFor({ state: 'detached' });
    await rich.locator(`img[src*="${photo.image}?thumb=40x40"]`).waitFor();

    // the article underneath was not saved by the nested Create
    expect((await api.collection('articles').getOne(article.id)).body).toBe('<p>Some text</p>');
    await editor().getByRole('button', { name: 'Save changes' }).click();
    await editor().waitFor({ state: 'detached' });
    const body = String((await api.collection('articles').getOne(article.id)).body);
    // convertUrls on: the same-origin file URL is stored root-relative
    expect(body).toContain(`<img src="/api/files/${photos.id}/${photo.id}/${photo.image}?thumb=40x40" alt="">`);
    expect(body).not.toContain(url);
  });

  it('Ctrl+S in the nested editor saves only the nested record', async () => {
    await page.goto('about:blank');
    await page.goto(`${url}/_/#/collections?collectionId=${articles.id}&recordId=${article.id}`);
    const rich = editor().locator('[contenteditable="true"]');
    await rich.waitFor();
    await editor().getByLabel(label('title')).fill('Changed, unsaved');
    await editor().getByRole('button', { name: 'Insert image' }).click();
    await picker().locator('.image-picker-thumb').first().waitFor();
    await picker().getByRole('button', { name: 'New record' }).click();
    await nested().waitFor();
    await nested().locator('[data-field="image-picker-record-form_caption"]').getByLabel(label('caption')).fill('Second');
    const png = await sharp({ create: { width: 30, height: 30, channels: 3, background: { r: 0, g: 90, b: 200 } } }).png().toBuffer();
    await nested().locator('input[type="file"]').setInputFiles({ name: 'second.png', mimeType: 'image/png', buffer: png });
    await nested().getByText('second.png').waitFor();
    await page.keyboard.press('Control+s');
    // saved and kept open, now editing the new record
    await page.getByRole('dialog', { name: /^Edit photos record/ }).waitFor();
    const second = await api.collection('photos').getFirstListItem('caption = "Second"');
    await picker().locator(`img[alt="${second.image}"]`).waitFor();
    expect(await picker().locator('.image-picker-thumb').count()).toBe(2);
    // the article underneath kept its unsaved change and was not saved
    expect((await api.collection('articles').getOne(article.id)).title).toBe('Hello');
    await page.getByRole('dialog', { name: /^Edit photos record/ }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog', { name: /^Edit photos record/ }).waitFor({ state: 'detached' });
    await picker().getByRole('button', { name: 'Cancel' }).click();
    await picker().waitFor({ state: 'detached' });
    expect(await editor().getByLabel(label('title')).inputValue()).toBe('Changed, unsaved');
  });
});
