// The auth record password generator in Chromium against the real server: Generate fills both
// password fields with the same 32 characters, shown in clear with a copy button, and the record
// created with it signs in with that password.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import type { TestServer } from '../helpers/server';

const ADMIN = { email: 'generator@example.com', password: 'generator-pass-123' };

const session = dashboardSession({ admin: ADMIN, permissions: ['clipboard-read', 'clipboard-write'] });

let server: TestServer;
let api: PocketBase;
let page: Page;
beforeAll(() => {
  ({ server, api, page } = session);
});

describe('auth record password generator', () => {
  it('generates an auth record password into both password fields', async () => {
    await page.goto(`${server.url}/_/#/collections?collectionId=${(await api.collections.getOne('users')).id}`);
    // the header's button (an empty list offers one too, once loaded)
    await page.locator('header').getByRole('button', { name: 'New record' }).click();
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
});
