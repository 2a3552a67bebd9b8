// The spec's small requirements in Chromium against the real server: the admin session under both
// storage keys; token auto-refresh (an admin whose token expires while working is not thrown out);
// the password generator of auth records; the copy buttons (success icon for 500 ms); tooltips
// (offset 5 px, on hover and focus, Esc dismisses); the select field's multiple switch.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'details@example.com', password: 'details-pass-123' };
const TOKEN_SECONDS = 8;

let server: TestServer;
let api: PocketBase;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  api = server.client();
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  await api.collections.create({ name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }] });
  await api.collection('notes').create({ title: 'first' });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const stored = (p: Page, key: string) => p.evaluate((k) => localStorage.getItem(k), key);

describe('spec details', () => {
  it('keeps the admin session under pocketbase_auth and the persistent admin key, and starts from either', async () => {
    await signIn(page, server.url, ADMIN);
    const primary = JSON.parse((await stored(page, 'pocketbase_auth')) ?? '{}');
    const mirror = JSON.parse((await stored(page, 'pb_admin_auth')) ?? '{}');
    expect(primary.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(mirror.token).toBe(primary.token);
    expect(mirror.model.email).toBe(ADMIN.email);

    // signed in through the original dashboard only: this one starts signed in. The key is
    // removed from a same-origin page where the dashboard is not running (a request the running
    // dashboard sent meanwhile would go out without a token, and its 401 sign the admin out).
    await page.goto(`${server.url}/api/health`);
    await page.evaluate(() => localStorage.removeItem('pocketbase_auth'));
    await page.goto(`${server.url}/_/#/collections`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(page.url()).toContain('#/collections');
    expect(JSON.parse((await stored(page, 'pocketbase_auth')) ?? '{}').token).toBe(primary.token);

    // logout clears both
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/#\/login/);
    expect(await stored(page, 'pb_admin_auth')).toBeNull();
  });

  it('refreshes or renews an admin token that expires while the admin works', async () => {
    await api.settings.update({ adminAuthToken: { duration: TOKEN_SECONDS } });
    await signIn(page, server.url, ADMIN);
    const first = JSON.parse((await stored(page, 'pocketbase_auth')) ?? '{}').token as string;
    // wait past the token's lifetime, then keep working
    await page.waitForTimeout((TOKEN_SECONDS + 2) * 1000);
    await page.goto(`${server.url}/_/#/settings/admins`);
    await page.getByText(ADMIN.email, { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Collections' }).first().click();
    await page.waitForURL(/#\/collections/);
    await page.waitForTimeout(300);
    expect(page.url()).not.toContain('#/login');
    const now = JSON.parse((await stored(page, 'pocketbase_auth')) ?? '{}').token as string;
    expect(now).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(now).not.toBe(first);
    // the renewed token is a working admin token
    const res = await fetch(`${server.url}/api/admins`, { headers: { Authorization: now } });
    expect(res.status).toBe(200);
    await api.settings.update({ adminAuthToken: { duration: 1209600 } });
  });

  it('generates an auth record password into both password fields', async () => {
    // still signed in from the previous test
    await page.goto(`${server.url}/_/#/collections?collectionId=${(await api.collections.getOne('users')).id}`);
    await page.getByRole('button', { name: 'New record' }).click();
    await page.getByRole('button', { name: 'Generate' }).click();
    const password = await page.locator('input[name$="password"]').first().inputValue();
    const confirm = await page.locator('input[name$="passwordConfirm"]').inputValue();
    expect(password).toHaveLength(32);
    expect(confirm).toBe(password);
    // shown in clear with a copy button
    expect(await page.locator('input[name$="password"]').first().getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Copy password' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { interval: 20 }).toBe(password);
    await page.locator('[name$="username"]').first().fill('generated_user');
    await page.locator('input[name$="email"]').first().fill('gen@example.com');
    await screenshot(page, 'record-password-generated');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Successfully created record.').waitFor();
    const user = new PocketBase(server.url);
    const auth = await user.collection('users').authWithPassword('gen@example.com', password);
    expect(auth.record.email).toBe('gen@example.com');
  });

  it('copies a record id from the list and from the editor, with the success icon for 500 ms', async () => {
    const note = (await api.collection('notes').getFullList())[0];
    await page.goto(`${server.url}/_/#/collections?collectionId=${(await api.collections.getOne('notes')).id}`);
    const row = page.getByRole('row').filter({ hasText: note.id });
    await row.hover();
    const copy = row.getByRole('button', { name: 'Copy id' });
    await copy.click();
    // the icon changes once the clipboard write resolves (a moment after the click)
    await expect.poll(() => copy.getAttribute('data-copied'), { interval: 20 }).toBe('true');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(note.id);
    await page.waitForTimeout(700);
    expect(await copy.getAttribute('data-copied')).toBeNull();

    await page.evaluate(() => navigator.clipboard.writeText(''));
    await row.getByText('first').click();
    const panelCopy = page.locator('.record-id').getByRole('button', { name: 'Copy id' });
    await panelCopy.click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { interval: 20 }).toBe(note.id);
    await page.keyboard.press('Escape');
  });

  it('shows tooltips 5 px from their target on hover and focus, and Esc hides them', async () => {
    const refresh = page.getByRole('button', { name: 'Refresh' }).first();
    await refresh.hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    expect(await tip.textContent()).toBe('Refresh');
    const [a, t] = [await refresh.boundingBox(), await tip.boundingBox()];
    expect(Math.round(t!.y - (a!.y + a!.height))).toBe(5);
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: 'detached' });
    await refresh.focus();
    await tip.waitFor();
    await page.keyboard.press('Escape');
    await tip.waitFor({ state: 'detached' });
  });
});
