// Settings › Application's trusted proxy section in Chromium against the real server. Every
// request of the browser carries an X-Forwarded-For (as through a proxy that appends one): the page
// warns that the header is not trusted, listing it and saving makes the server resolve the
// forwarded address (the hint then shows it), a header name that cannot be one is refused under
// its field, and clearing the list brings the warning back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { label, launchBrowser, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let page: Page;
let token = '';

const ADMIN = { email: 'proxy@example.com', password: 'proxy-password-1' };
const FORWARDED = '203.0.113.9';

const saveButton = () => page.getByRole('button', { name: 'Save changes' });
const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });
const headersField = () => page.getByLabel(label('Trusted proxy headers'));
const untrusted = () => page.locator('[data-hint="untrusted-proxy"]');
const resolvedIp = () => page.locator('[data-hint="resolved-ip"]');
const storedProxy = async () => (await http(server.url, 'GET', '/api/settings', { token })).body.trustedProxy;

async function openSettings() {
  await page.goto(`${server.url}/_/#/settings`);
  await headersField().waitFor();
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'X-Forwarded-For': FORWARDED } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Settings › Application › User IP proxy headers', () => {
  it('warns that the forwarding header the requests carry is not trusted', async () => {
    await openSettings();
    await untrusted().waitFor();
    const text = await untrusted().innerText();
    expect(text).toContain('X-Forwarded-For');
    expect(text).toContain('127.0.0.1');
    expect(await resolvedIp().count()).toBe(0);
    expect(await headersField().inputValue()).toBe('');
    expect(await page.getByLabel(label('IP priority selection')).inputValue()).not.toBe('');
    await screenshot(page, 'settings-application-untrusted-proxy');
  });

  it('refuses a header name with a space under its field, and Cancel restores', async () => {
    await openSettings();
    await headersField().fill('X Forwarded For');
    await headersField().press('Tab');
    await page.getByText('Must be a valid header name.').waitFor();
    expect(await saveButton().isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await headersField().inputValue()).toBe('');
    expect(await page.getByText('Must be a valid header name.').count()).toBe(0);
  });

  it('listing the header and saving makes the server resolve the forwarded address; the hint shows it', async () => {
    await openSettings();
    await headersField().fill('X-Forwarded-For');
    await saveButton().click();
    await toast('Successfully saved application settings.').waitFor();
    expect(await storedProxy()).toEqual({ headers: ['X-Forwarded-For'], useLeftmostIP: false });
    await resolvedIp().waitFor();
    expect(await resolvedIp().innerText()).toContain(FORWARDED);
    expect(await untrusted().count()).toBe(0);
    await screenshot(page, 'settings-application-trusted-proxy');

    // the choice of IP is kept too, and survives a reload
    await page.getByLabel(label('IP priority selection')).selectOption({ label: 'Use leftmost IP' });
    await saveButton().click();
    await toast('Successfully saved application settings.').last().waitFor();
    await expect.poll(storedProxy).toEqual({ headers: ['X-Forwarded-For'], useLeftmostIP: true });
    await openSettings();
    expect(await headersField().inputValue()).toBe('X-Forwarded-For');
    expect(await page.getByLabel(label('IP priority selection')).locator('option:checked').innerText()).toBe('Use leftmost IP');
  });

  it('clearing the list brings the warning back', async () => {
    await openSettings();
    await headersField().fill('');
    await saveButton().click();
    await untrusted().waitFor();
    expect(await storedProxy()).toEqual({ headers: [], useLeftmostIP: true });
  });
});
