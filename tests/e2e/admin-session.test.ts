// The admin session in Chromium against the real server: kept under pocketbase_auth and the
// persistent admin key, starting from either, both cleared on logout; an admin whose token expires
// while working is not thrown out (the token is refreshed or renewed).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { signIn } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import type { TestServer } from '../helpers/server';

const ADMIN = { email: 'details@example.com', password: 'details-pass-123' };
const TOKEN_SECONDS = 8;

const session = dashboardSession({ admin: ADMIN, signIn: false }); // the first test signs in

let server: TestServer;
let api: PocketBase;
let page: Page;
beforeAll(() => {
  ({ server, api, page } = session);
});

const stored = (p: Page, key: string) => p.evaluate((k) => localStorage.getItem(k), key);

describe('admin session', () => {
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
});
