// Two fixed dashboard defects, in Chromium against the real server:
// - #/settings: clearing the required Application URL and pressing Cancel restores the saved values
//   (Cancel always restores, valid or not);
// - records search: an incomplete expression (`title ~ "x" &&`) answered 400 shows no toast; the
//   search bar is marked invalid instead, quietly, and the mark goes with a valid filter.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, label, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'defects@example.com', password: 'defects-password-1' };
let server: TestServer;
let browser: Browser;
let page: Page;
let token = '';

const toasts = () => page.getByTestId('toast');

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  const coll = await http(server.url, 'POST', '/api/collections', { token, body: { name: 'posts', schema: [{ name: 'title', type: 'text' }] } });
  expect(coll.status).toBe(200);
  for (const title of ['x marks the spot', 'another post', 'x again']) {
    await http(server.url, 'POST', '/api/collections/posts/records', { token, body: { title } });
  }
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('#/settings Cancel', () => {
  it('restores the saved values after the required Application URL was cleared', async () => {
    await page.goto(`${server.url}/_/#/settings`);
    const appUrl = page.getByLabel(label('Application URL'));
    const appName = page.getByLabel(label('Application name'));
    await appUrl.waitFor();
    const savedUrl = await appUrl.inputValue();
    const savedName = await appName.inputValue();
    expect(savedUrl).not.toBe('');

    await appName.fill('Changed name');
    await appUrl.fill('');
    await appUrl.press('Tab');
    await page.getByText('Cannot be blank.').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await expect.poll(() => appUrl.inputValue()).toBe(savedUrl);
    expect(await appName.inputValue()).toBe(savedName);
    expect(await page.getByText('Cannot be blank.').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    // typed and cleared only (the form never valid in between), then Cancel
    await appUrl.fill('');
    await appUrl.pressSequentially('no');
    await appUrl.fill('');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => appUrl.inputValue()).toBe(savedUrl);
    // nothing was saved
    const settings = await http(server.url, 'GET', '/api/settings', { token });
    expect(settings.body.meta.appUrl).toBe(savedUrl);
  });
});

describe('records search with an incomplete expression', () => {
  it('shows no toast on the 400; the search bar is marked invalid quietly', async () => {
    await page.goto(`${server.url}/_/#/collections?collectionId=${(await http(server.url, 'GET', '/api/collections/posts', { token })).body.id}`);
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
