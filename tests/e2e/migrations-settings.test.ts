// Settings › Migrations and the automigrate marker in Chromium against the real server: a pending
// and an applied migration listed (the pending one from a file added after the start), and a
// collection created and deleted in the editor, and a collections import, telling which migration
// file automigrate wrote.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { label, launchBrowser, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, startServer, tempDir, type TestServer } from '../helpers/server';
import { CREATED_POSTS } from '../helpers/pb022-migrations';

const ADMIN = { email: 'migrations@example.com', password: 'migrations-pass-1' };

let server: TestServer;
let browser: Browser;
let page: Page;
let dir = '';

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  dir = path.join(tempDir('outpost-e2e-mig-'), 'pb_migrations');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, '1714557601_created_posts.js'), CREATED_POSTS);
  server = await startServer({ dashboard: true, options: { migrationsDir: dir, automigrate: true } });
  // added after the start: pending until the next start or `migrate up`
  fs.writeFileSync(path.join(dir, '1714557602_later.js'), 'migrate((db) => {}, (db) => {});\n');
  const api = server.client();
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

const toast = (text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text }).first();
const editor = () => page.locator('.collection-editor-panel');

describe('migrations in the dashboard', () => {
  it('Settings › Migrations lists the applied and the pending migrations', async () => {
    await page.goto(`${server.url}/_/#/settings`);
    await page.getByRole('link', { name: 'Migrations', exact: true }).click();
    await page.waitForURL(/#\/settings\/migrations$/);
    const table = page.getByRole('table', { name: 'Migrations' });
    const applied = table.getByRole('row').filter({ hasText: '1714557601_created_posts.js' });
    const pending = table.getByRole('row').filter({ hasText: '1714557602_later.js' });
    await applied.waitFor();
    expect(await applied.getByText('Applied', { exact: true }).count()).toBe(1);
    expect(await pending.getByText('Pending', { exact: true }).count()).toBe(1);
    expect(await page.getByText('1 applied, 1 pending').count()).toBe(1);
    await page.getByText(dir).first().waitFor();
    await screenshot(page, 'settings/migrations');
  });

  it('the collection editor tells which migration file a change wrote', async () => {
    await page.goto(`${server.url}/_/#/collections`);
    await page.getByRole('button', { name: 'New collection' }).click();
    await editor().getByText('New collection', { exact: true }).waitFor();
    const name = editor().getByLabel(label('Name'));
    await name.fill('tasks');
    await editor().getByRole('button', { name: 'New field' }).click();
    await page.getByRole('menuitem', { name: 'Plain text', exact: true }).click();
    const field = editor().locator('.field-row--open').getByRole('textbox', { name: /^Field name/ });
    await field.waitFor();
    await field.fill('title');
    await editor().getByRole('button', { name: 'Create' }).click();
    await toast('Successfully created collection.').waitFor();
    const marker = page.getByTestId('toast').locator('.toast-message', { hasText: /^Migration written: \d{10}_created_tasks\.js$/ });
    await marker.waitFor();
    const file = (await marker.innerText()).replace('Migration written: ', '').trim();
    expect(fs.existsSync(path.join(dir, file))).toBe(true);

    // the list shows it as applied
    await page.goto(`${server.url}/_/#/settings/migrations`);
    const row = page.getByRole('table', { name: 'Migrations' }).getByRole('row').filter({ hasText: file });
    await row.waitFor();
    expect(await row.getByText('Applied', { exact: true }).count()).toBe(1);
  });

  it('an import tells which snapshot file it wrote', async () => {
    await page.goto(`${server.url}/_/#/settings/import-collections`);
    const imported = [{ id: 'importedthings1', name: 'imported_things', type: 'base', schema: [{ id: 'labelfield1', name: 'label', type: 'text' }] }];
    await page.getByLabel('Collections', { exact: true }).fill(JSON.stringify(imported, null, 2));
    const merge = page.getByRole('checkbox', { name: 'Merge with the existing collections' });
    await merge.focus();
    await page.keyboard.press('Space');
    expect(await merge.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Review' }).click();
    await page.locator('.import-review-popup').getByRole('button', { name: 'Confirm and import' }).click();
    await toast('Successfully imported collections configuration.').waitFor();
    const marker = page.getByTestId('toast').locator('.toast-message', { hasText: /^Migration written: \d{10}_collections_snapshot\.js$/ });
    await marker.waitFor();
    const file = (await marker.innerText()).replace('Migration written: ', '').trim();
    expect(fs.readFileSync(path.join(dir, file), 'utf8')).toContain('imported_things');
  });
});
