// #/settings/backups in Chromium against the real server: create a backup through the popup,
// download it (a real zip arrives), restore it by typing its name (the page reloads onto the
// restored data), delete it after confirming, and schedule automatic backups through the cron
// picker (presets and free text checked as you type), saved to the settings.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, label, screenshot, signIn, injectAxe } from '../helpers/browser';
import { startS3, type TestS3 } from '../helpers/s3';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';
import { listZip } from '../helpers/zip';

let server: TestServer;
let browser: Browser;
let page: Page;
let token: string;
let s3: TestS3;

const ADMIN = { email: 'backups@example.com', password: 'backups-password-1' };
const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });
const row = (key: string) => page.locator(`.backups-item[data-key="${key}"]`);
const settings = async () => (await http(server.url, 'GET', '/api/settings', { token })).body;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  s3 = await startS3('outpost-e2e-backups');
  await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await s3?.close();
});

describe('backups', () => {
  it('starts empty, creates a named backup through the popup', async () => {
    await page.goto(`${server.url}/_/#/settings/backups`);
    await page.getByText('No backups yet.').waitFor();
    await expect.poll(() => page.title()).toContain('Backups');
    await screenshot(page, 'backups-empty');

    await page.getByRole('button', { name: 'Initialize new backup' }).click();
    const name = page.getByLabel(label('Backup name'));
    await name.fill('Bad Name');
    await page.getByRole('button', { name: 'Start backup' }).click();
    await page.getByText('Must be in a valid format.').waitFor();
    await screenshot(page, 'backups-create-popup');
    await name.fill('e2e_backup.zip');
    await page.getByRole('button', { name: 'Start backup' }).click();
    await toast('Successfully generated new backup.').waitFor();
    await row('e2e_backup.zip').waitFor();
    await expect(row('e2e_backup.zip').textContent()).resolves.toMatch(/e2e_backup\.zip\s*\(\d+(\.\d+)? KB\)/);
  });

  it('downloads the backup with a file token', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), row('e2e_backup.zip').getByRole('button', { name: 'Download e2e_backup.zip' }).click()]);
    expect(download.suggestedFilename()).toBe('e2e_backup.zip');
    const file = await download.path();
    expect(await listZip(fs.readFileSync(file))).toContain('data.db');
  });

  it('restores it after the exact name is typed, the page reloads onto the restored data', async () => {
    // a change the restore will undo
    await http(server.url, 'PATCH', '/api/settings', { token, body: { meta: { appName: 'Changed after backup' } } });
    await row('e2e_backup.zip').getByRole('button', { name: 'Restore e2e_backup.zip' }).click();
    const dialog = page.locator('.backup-restore-popup');
    await dialog.getByText('Restore e2e_backup.zip').first().waitFor();
    const restore = page.getByRole('button', { name: 'Restore backup' });
    await expect(restore.isDisabled()).resolves.toBe(true);
    await page.getByLabel(label('Backup name')).fill('e2e_backup');
    await expect(restore.isDisabled()).resolves.toBe(true);
    await page.getByLabel(label('Backup name')).fill('e2e_backup.zip');
    await screenshot(page, 'backups-restore-popup');
    await expect(restore.isEnabled()).resolves.toBe(true);
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await restore.click();
    await reloaded;
    expect((await settings()).meta.appName).toBe('Acme');
    await row('e2e_backup.zip').waitFor();
  });

  it('sets the cron through the picker: toggle, preset, free text validated as you type, saved', async () => {
    await page.getByRole('button', { name: 'Backups options' }).click();
    const toggle = page.getByRole('switch', { name: 'Enable auto backups' });
    await toggle.waitFor();
    // the switch is visually hidden inside its label: click what a user clicks
    const toggleLabel = page.locator('label.sf-toggle', { hasText: 'Enable auto backups' });
    await toggleLabel.click();
    await expect(toggle.isChecked()).resolves.toBe(true);
    const cron = page.getByLabel(label('Cron expression'));
    await page.getByLabel('Cron presets').selectOption('0 0 * * 1,3');
    await expect(cron.inputValue()).resolves.toBe('0 0 * * 1,3');
    await cron.fill('61 * * * *');
    await page.getByText('Invalid cron expression.').waitFor();
    await cron.fill('*/30 1-5 * * *');
    await expect(page.getByText('Invalid cron expression.').count()).resolves.toBe(0);
    await page.getByLabel(label('Max @auto backups to keep')).fill('4');
    await screenshot(page, 'backups-options');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully saved backups settings.').waitFor();
    const saved = await settings();
    expect(saved.backups.cron).toBe('*/30 1-5 * * *');
    expect(saved.backups.cronMaxKeep).toBe(4);
    // off clears it
    await toggleLabel.click();
    await expect(toggle.isChecked()).resolves.toBe(false);
    // off: no cron, so no 'Max @auto backups to keep' either
    await expect(page.getByLabel(label('Max @auto backups to keep')).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await settings()).backups.cron).toBe('');
  });

  it('stores backups on S3 once enabled: the connection status shows, a new backup lands in the bucket', async () => {
    await page.getByText('Store backups in S3 storage').click();
    await page.getByLabel(label('Endpoint')).fill(s3.endpoint);
    await page.getByLabel(label('Bucket')).fill(s3.bucket);
    await page.getByLabel(label('Region')).fill(s3.region);
    await page.getByLabel(label('Access key')).fill(s3.accessKey);
    await page.getByLabel(label('Secret')).fill(s3.secret);
    await page.getByText('Force path-style addressing').click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully saved backups settings.').waitFor();
    await page.getByText('S3 connected successfully').waitFor();
    await screenshot(page, 'backups-s3-connected');
    // the list now shows the (empty) bucket; a backup made now goes there
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('No backups yet.').waitFor();
    await page.getByRole('button', { name: 'Initialize new backup' }).click();
    await page.getByRole('button', { name: 'Start backup' }).click();
    await toast('Successfully generated new backup.').waitFor();
    await page.locator('.backups-item').first().waitFor();
    const keys = (await http(server.url, 'GET', '/api/backups', { token })).body.map((b: { key: string }) => b.key);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^pb_backup_acme_\d{14}\.zip$/); // the app name, snake-cased
    expect(fs.existsSync(path.join(server.dataDir, 'backups', keys[0]))).toBe(false);
    // back to local storage
    await page.getByText('Store backups in S3 storage').click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast('Successfully saved backups settings.').waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row('e2e_backup.zip').waitFor();
  });

  it('has no serious accessibility violations (axe-core), list and options open', async () => {
    await injectAxe(page);
    const violations = await page.evaluate(async () => {
      type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
      // the shared breadcrumb's first item is the shell's (reported to the integrator)
      const res = await axe.run({ include: [['.page-wrapper']], exclude: [['.breadcrumbs']] }, { resultTypes: ['violations'] });
      return res.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations).toEqual([]);
  });

  it('deletes the backup after confirming', async () => {
    await row('e2e_backup.zip').getByRole('button', { name: 'Delete e2e_backup.zip' }).click();
    await page.getByText('Do you really want to delete e2e_backup.zip?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await toast('Successfully deleted e2e_backup.zip.').waitFor();
    await page.getByText('No backups yet.').waitFor();
    expect((await http(server.url, 'GET', '/api/backups', { token })).body).toEqual([]);
  });
});
