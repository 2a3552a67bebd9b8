// The settings screens in Chromium against the real server: every screen is a screen definition
// rendered by the engine. Application name in the title, required field errors and Cancel (which
// restores the saved values, valid or not, and saves nothing), a test email caught by a real SMTP
// server, the S3 status against a real S3-compatible server (s3rver), invalidated admin tokens, the
// logs settings popup and restricted mode.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot, label, signIn } from '../helpers/browser';
import { startS3, type TestS3 } from '../helpers/s3';
import { http, startServer, type TestServer, DASHBOARD_DIR } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

let server: TestServer;
let smtp: TestSmtp;
let s3: TestS3;
let browser: Browser;
let page: Page;

const ADMIN = { email: 'settings@example.com', password: 'settings-password-1' };

async function open(route: string, firstLabel: string) {
  await page.goto(`${server.url}/_/#${route}`);
  await page.getByLabel(label(firstLabel)).first().waitFor();
}

const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });
const saveButton = () => page.getByRole('button', { name: 'Save changes' });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  [smtp, s3] = await Promise.all([startSmtp(), startS3('outpost-files')]);
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
  await s3?.close();
});

describe('Application', () => {
  it('saving a new app name shows it in the page title', async () => {
    await open('/settings', 'Application name');
    await expect.poll(() => page.title()).toBe('Application settings - Acme - Outpost');
    await expect(saveButton().isDisabled()).resolves.toBe(true);
    await screenshot(page, 'settings-application');

    await page.getByLabel(label('Application name')).fill('Renamed App');
    await expect(saveButton().isEnabled()).resolves.toBe(true);
    await saveButton().click();
    await toast('Successfully saved application settings.').waitFor();
    await expect.poll(() => page.title()).toBe('Application settings - Renamed App - Outpost');
    await expect(saveButton().isDisabled()).resolves.toBe(true);
    // the title of another page follows too
    await page.getByRole('link', { name: 'Mail settings' }).click();
    await expect.poll(() => page.title()).toBe('Mail settings - Renamed App - Outpost');
  });

  it('an emptied required field shows its error, Save stays disabled, Cancel restores', async () => {
    await open('/settings', 'Application URL');
    const url = page.getByLabel(label('Application URL'));
    await url.fill('');
    await url.press('Tab');
    await page.getByText('Cannot be blank.').waitFor();
    expect(await saveButton().isDisabled()).toBe(true);
    await screenshot(page, 'settings-application-error');

    await url.fill('not a url');
    await url.press('Tab');
    await page.getByText('Must be a valid url.').waitFor();
    expect(await saveButton().isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await url.inputValue()).toBe('http://localhost:8090');
    expect(await page.getByText('Must be a valid url.').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
  });

  it('restricted mode hides the export/import links everywhere', async () => {
    await open('/settings', 'Application name');
    expect(await page.getByRole('link', { name: 'Export collections' }).count()).toBe(1);
    await page.getByText('Hide collection create and edit controls').click();
    await saveButton().click();
    await toast('Successfully saved application settings.').waitFor();
    await page.getByRole('link', { name: 'Export collections' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('link', { name: 'Import collections' }).count()).toBe(0);
    await page.getByText('Hide collection create and edit controls').click();
    await saveButton().click();
    await page.getByRole('link', { name: 'Export collections' }).waitFor();
  });
});

describe('#/settings Cancel', () => {
  let token = '';
  beforeAll(async () => {
    token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  });

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

describe('Mail settings', () => {
  it('sends a test email through a real SMTP server on loopback', async () => {
    await open('/settings/mail', 'Sender name');
    // the test is offered only without unsaved changes
    expect(await page.getByRole('button', { name: 'Send test email' }).count()).toBe(1);
    await page.getByText('Use SMTP mail server').click();
    expect(await page.getByRole('button', { name: 'Send test email' }).count()).toBe(0);
    await page.getByLabel(label('SMTP server host')).fill('127.0.0.1');
    await page.getByLabel(label('Port')).fill(String(smtp.port));
    await page.getByRole('button', { name: 'Show more options' }).click();
    await page.getByLabel(label('TLS encryption')).waitFor();
    await page.getByRole('button', { name: 'Default Verification email template' }).click();
    await screenshot(page, 'settings-mail');
    await saveButton().click();
    await toast('Successfully saved mail settings.').waitFor();

    await page.getByRole('button', { name: 'Send test email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send test email' });
    await dialog.waitFor();
    await dialog.getByLabel('Password reset').check();
    await dialog.getByLabel(label('To email address')).fill('reader@example.com');
    await screenshot(page, 'settings-mail-test-email');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await toast('Successfully sent test email.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const mail = await smtp.waitFor((m) => m.to.includes('reader@example.com'));
    expect(mail.subject).toBe('Reset your Renamed App password');
    expect(mail.html).toMatch(/confirm-password-reset\/[\w-]+\.[\w-]+\.[\w-]+/);

    // the recipient is remembered
    await page.getByRole('button', { name: 'Send test email' }).click();
    expect(await page.getByRole('dialog', { name: 'Send test email' }).getByLabel(label('To email address')).inputValue()).toBe('reader@example.com');
    await page.getByRole('dialog', { name: 'Send test email' }).getByRole('button', { name: 'Close' }).first().click();
  });

  it('a template without {TOKEN} gets the server-side and form error under its field', async () => {
    await open('/settings/mail', 'Sender name');
    await page.getByRole('button', { name: 'Default Password reset email template' }).click();
    const actionUrl = page.locator('[id="settings-mail-0_resetPasswordTemplate_actionUrl"]');
    await actionUrl.fill('{APP_URL}/reset');
    await actionUrl.press('Tab');
    await page.getByText('Missing required parameter "{TOKEN}".').waitFor();
    expect(await saveButton().isDisabled()).toBe(true);
    // the placeholder chips copy on click
    await page.getByRole('button', { name: '{TOKEN}' }).first().click();
    await toast('Copied {TOKEN} to clipboard').waitFor();
    await screenshot(page, 'settings-mail-template-error');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('Files storage', () => {
  it('S3 status: connected against a real S3-compatible server, failed with its message for a wrong bucket', async () => {
    await open('/settings/storage', 'Use S3 storage');
    await page.getByText('Use S3 storage').click();
    await page.getByText(/you'll have to migrate them manually/).waitFor();
    await page.getByLabel(label('Endpoint')).fill(s3.endpoint);
    await page.getByLabel(label('Bucket')).fill(s3.bucket);
    await page.getByLabel(label('Region')).fill(s3.region);
    await page.getByLabel(label('Access key')).fill(s3.accessKey);
    await page.getByLabel(label('Secret')).fill(s3.secret);
    await page.getByText('Force path-style addressing').click();
    await screenshot(page, 'settings-storage-edit');
    await saveButton().click();
    await toast('Successfully saved files storage settings.').waitFor();
    await page.getByText('S3 connected successfully').waitFor();
    await screenshot(page, 'settings-storage-connected');

    await page.getByLabel(label('Bucket')).fill('missing-bucket');
    await saveButton().click();
    await toast('Successfully saved but failed to establish S3 connection.').waitFor();
    const failed = page.getByText('Failed to establish S3 connection', { exact: true });
    await failed.waitFor();
    // the server message is a real tooltip: shown on keyboard focus, announced, gone with Esc
    await page.locator('.status-label--error').locator('xpath=..').focus();
    await expect(page.getByRole('tooltip').textContent()).resolves.toContain('The specified bucket does not exist');
    const describedBy = await page.locator('.status-label--error').locator('xpath=..').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('The specified bucket does not exist');
    await page.keyboard.press('Escape');
    await page.getByRole('tooltip').waitFor({ state: 'detached' });

    // the test runs by itself 100 ms after the screen loads
    await page.reload();
    await page.getByText('Failed to establish S3 connection', { exact: true }).waitFor();
    await screenshot(page, 'settings-storage-failed');

    // the secret is masked, with a button to set a new value
    await page.getByRole('button', { name: 'Set new value' }).waitFor();
  });
});

describe('Logs settings popup', () => {
  it('opens from the Logs page header and saves', async () => {
    await page.goto(`${server.url}/_/#/logs`);
    await page.getByRole('button', { name: 'Logs settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Logs settings' });
    await dialog.getByLabel(label('Max days retention')).waitFor();
    // the popup is anchored by its top: an error appearing under a field does not move what is above it
    const topOf = async (l: Locator) => (await l.boundingBox())?.y;
    await page.waitForTimeout(300); // the pop-in animation
    const before = { popup: await topOf(dialog), field: await topOf(dialog.getByLabel(label('Max days retention'))) };
    await dialog.getByLabel(label('Min log level')).fill('101');
    await dialog.getByLabel(label('Min log level')).press('Tab');
    await dialog.getByText('Must be no greater than 100.').waitFor();
    expect({ popup: await topOf(dialog), field: await topOf(dialog.getByLabel(label('Max days retention'))) }).toEqual(before);
    expect(await dialog.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await dialog.getByLabel(label('Min log level')).fill('4');
    await dialog.getByLabel(label('Max days retention')).fill('9');
    await screenshot(page, 'logs-settings');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully saved logs settings.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const stored = JSON.parse((server.app.db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string }).value);
    expect(stored.logs).toMatchObject({ maxDays: 9, minLevel: 4 });
  });
});

describe('Token options', () => {
  it('invalidating the admin tokens signs the admin out on the next request', async () => {
    await open('/settings/tokens', 'Duration (in seconds)');
    await screenshot(page, 'settings-tokens');
    const adminAuth = page.locator('[id="settings-tokens-0_adminAuthToken"]');
    await adminAuth.getByText('Invalidate all previously issued tokens').click();
    await saveButton().click();
    await toast('Successfully saved tokens options.').waitFor();
    // the next request carries the old token: 401, signed out to the login page
    await page.getByRole('link', { name: 'Application' }).click();
    await page.waitForURL(/#\/login/);
    expect(await page.evaluate(() => localStorage.getItem('pocketbase_auth'))).toBeNull();
  });
});
