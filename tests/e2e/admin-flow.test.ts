// The foundation flow in Chromium against the real server: installer → first admin → sign in →
// create, edit, delete an admin → logout; wrong password; guards; sidebar width persistence.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { startServer, type TestServer, DASHBOARD_DIR } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

// Labels carry a required marker (' *'), so match them whole but for it.
const EMAIL = /^Email\s*\*?$/;
const PASSWORD = /^Password\s*\*?$/;
const PASSWORD_CONFIRM = /^Password confirm\s*\*?$/;

const ADMIN = { email: 'first@example.com', password: 'first-password-123' };

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signIn(p: Page, email: string, password: string) {
  await p.goto(`${server.url}/_/#/login`);
  await p.getByLabel(EMAIL).fill(email);
  await p.getByLabel(PASSWORD).fill(password);
  await p.getByRole('button', { name: 'Login' }).click();
}

describe('foundation flow', () => {
  it('an authenticated-only route while signed out goes to the root (then the login)', async () => {
    await page.goto(`${server.url}/_/#/settings/admins`);
    await page.waitForURL(/#\/login/);
    await screenshot(page, 'login-empty');
  });

  it('installer creates the first admin and signs in', async () => {
    await page.goto(`${server.url}/_/?installer#`);
    await page.getByText('Create your first admin account in order to continue').waitFor();
    await page.getByLabel(EMAIL).fill(ADMIN.email);
    await page.getByLabel(PASSWORD).fill('short');
    await page.getByLabel(PASSWORD_CONFIRM).click();
    await page.getByText('Minimum 10 characters.').first().waitFor();
    await screenshot(page, 'installer-errors');
    await page.getByLabel(PASSWORD).fill(ADMIN.password);
    await page.getByLabel(PASSWORD_CONFIRM).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create and login' }).click();
    // Reloads without the query string and lands on the collections page.
    await page.waitForURL((u) => !u.search.includes('installer') && u.hash.startsWith('#/collections'));
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('pocketbase_auth'))).toContain(ADMIN.email);
    await screenshot(page, 'collections-after-install');

    // The installer is closed now: a guest cannot create another admin.
    const res = await fetch(`${server.url}/api/admins`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', password: '1234567890', passwordConfirm: '1234567890' }),
    });
    expect(res.status).toBe(401);
  });

  it('logout, then a wrong password shows the spec message, then a good one signs in', async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/#\/login/);
    await signIn(page, ADMIN.email, 'wrong-password-xyz');
    await page.getByText('Invalid login credentials.').waitFor();
    await screenshot(page, 'login-invalid');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/#\/collections/);
  });

  it('creates, edits and deletes an admin', async () => {
    await page.goto(`${server.url}/_/#/settings/admins`);
    await page.getByText('You', { exact: true }).waitFor();
    await screenshot(page, 'admins-list');

    await page.getByRole('button', { name: 'New admin' }).click();
    const panel = page.locator('.overlay-panel').last();
    await panel.getByText('New admin').waitFor();
    await panel.getByLabel(EMAIL).fill('second@example.com');
    await panel.getByLabel(PASSWORD).fill('second-password-1');
    await panel.getByLabel(PASSWORD_CONFIRM).fill('second-password-1');
    await screenshot(page, 'admin-editor-new');
    await panel.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Successfully created admin.').waitFor();
    await page.getByText('second@example.com').waitFor();

    // Edit: change the avatar and the email.
    await page.getByRole('row', { name: 'Edit admin second@example.com' }).click();
    const edit = page.locator('.overlay-panel').last();
    await edit.getByText('Edit admin').waitFor();
    await edit.locator('[data-avatar="3"]').click();
    await edit.getByLabel(EMAIL).fill('second-renamed@example.com');
    await screenshot(page, 'admin-editor-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Successfully updated admin.').waitFor();
    await page.getByText('second-renamed@example.com').waitFor();

    const pb = server.client();
    await pb.admins.authWithPassword(ADMIN.email, ADMIN.password);
    const list = await pb.admins.getFullList({ sort: 'created' });
    expect(list.map((a) => [a.email, a.avatar])).toEqual([
      [ADMIN.email, 0],
      ['second-renamed@example.com', 3],
    ]);

    // Delete with confirmation.
    await page.getByRole('row', { name: 'Edit admin second-renamed@example.com' }).click();
    const del = page.locator('.overlay-panel').last();
    await del.getByRole('button', { name: 'More actions' }).click();
    await del.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText('Do you really want to delete the selected admin?').waitFor();
    await screenshot(page, 'admin-delete-confirm');
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Successfully deleted admin.').waitFor();
    expect((await pb.admins.getFullList()).map((a) => a.email)).toEqual([ADMIN.email]);
  });

  it('remembers the resized sidebar width across a reload', async () => {
    await page.goto(`${server.url}/_/#/settings/admins`);
    const handle = page.getByRole('separator', { name: 'Resize sidebar' });
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const stored = Number(await page.evaluate(() => localStorage.getItem('@adminSidebarWidth')));
    expect(stored).toBeGreaterThan(0);
    await page.reload();
    await handle.waitFor();
    const width = await page.locator('.page-sidebar').evaluate((el) => el.getBoundingClientRect().width);
    expect(Math.round(width)).toBe(Math.round(stored));
  });

  it('shows the not-found page for unknown routes', async () => {
    await page.goto(`${server.url}/_/#/no-such-page`);
    await page.getByText("Oops! This page doesn't exist.").waitFor();
    await screenshot(page, 'not-found');
  });

  it('signed in, an only-unauthenticated route goes to the root', async () => {
    await page.goto(`${server.url}/_/#/login`);
    await page.waitForURL(/#\/collections/);
  });
});
