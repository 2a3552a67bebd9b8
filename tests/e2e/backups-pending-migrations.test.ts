// #/settings/backups in Chromium on the built server (a project folder from the 0.22.12 fixture,
// automigrate on): a backup made before a collection was created shows '1 migration pending' in
// the list (a later backup shows nothing), its restore dialog lists the collection's `_created_`
// file before the admin confirms, and after the restore the collection is back (the file ran at
// the restart). A backup that cannot be read says so in one quiet line and can still be restored;
// where the routes are absent (PocketBase answers 404) neither the list nor the dialog speaks of
// migrations. Screenshots of the list and dialog, light and dark.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { label, launchBrowser, screenshot, signIn } from '../helpers/browser';
import { buildServer, builtProject, createCollection, type BuiltProject } from '../helpers/pending-migrations';
import { axeSerious } from '../helpers/page-checks';
import { DASHBOARD_DIR, FIXTURE_PASSWORD } from '../helpers/server';
import { zipEntries } from '../helpers/zip';

let project: BuiltProject;
let browser: Browser;
let page: Page;
let created = '';

const row = (key: string) => page.locator(`.backups-item[data-key="${key}"]`);
const dialog = () => page.locator('.backup-restore-popup');
const note = () => dialog().locator('.backup-restore-migrations');

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  project = builtProject(buildServer('built-pending-migrations-e2e'));
  await project.start();
  expect((await project.api('POST', '/api/backups', { name: 'before.zip' })).status).toBe(204);
  created = await createCollection(project, 'posts');
  expect((await project.api('POST', '/api/backups', { name: 'after.zip' })).status).toBe(204);
  fs.writeFileSync(path.join(project.dataDir, 'backups', 'broken.zip'), await zipEntries([{ name: 'logs.db', data: Buffer.from('x') }]));
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, project.url, { email: 'test@example.com', password: FIXTURE_PASSWORD });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await project?.close();
});

async function openRestore(key: string) {
  await row(key).getByRole('button', { name: `Restore ${key}` }).click();
  await dialog().getByText(`Restore ${key}`).first().waitFor();
}

async function closeRestore() {
  // one click on Cancel with the name field focused (its blur used to show 'Cannot be blank.' and
  // move Cancel from under the pointer between the press and the release)
  await dialog().getByLabel(/name/i).first().focus();
  await dialog().getByRole('button', { name: 'Cancel', exact: true }).click();
  await dialog().waitFor({ state: 'hidden' });
}

describe('pending migrations in Settings › Backups', () => {
  it('the list shows the count on the backup made before the collection, and nothing on the others', async () => {
    await page.goto(`${project.url}/_/#/settings/backups`);
    await row('before.zip').waitFor();
    const badge = row('before.zip').locator('.backups-item-pending');
    await expect.poll(() => badge.textContent()).toBe('1 migration pending');
    await expect(row('after.zip').locator('.backups-item-pending').count()).resolves.toBe(0);
    await expect(row('broken.zip').locator('.backups-item-pending').count()).resolves.toBe(0);
    await screenshot(page, 'backups-pending-list-light');
    await expect(axeSerious(page)).resolves.toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'backups-pending-list-dark');
    await expect(axeSerious(page)).resolves.toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the restore dialog lists the file that will run, says when none will, and a failed check does not block', async () => {
    await openRestore('before.zip');
    await note().getByText('After the restore, these migration files will run:').waitFor();
    await expect(note().getByRole('list', { name: 'Migration files that will run' }).locator('li').allTextContents()).resolves.toEqual([created]);
    await screenshot(page, 'backups-pending-dialog-light');
    await expect(axeSerious(page)).resolves.toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'backups-pending-dialog-dark');
    await expect(axeSerious(page)).resolves.toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await closeRestore();

    await openRestore('after.zip');
    await note().getByText('No migration files will run after the restore.').waitFor();
    await closeRestore();

    await openRestore('broken.zip');
    await note().getByText('Could not check which migration files will run after the restore: The backup has no data.db file at its root.').waitFor();
    await page.waitForTimeout(400); // the popup's opening transition
    await screenshot(page, 'backups-pending-dialog-error');
    await page.getByLabel(label('Backup name')).fill('broken.zip');
    await expect(dialog().getByRole('button', { name: 'Restore backup' }).isEnabled()).resolves.toBe(true);
    await closeRestore();
  });

  it('says nothing about migrations where the routes are absent (PocketBase: 404)', async () => {
    await page.route('**/api/outpost/backups/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, message: 'Not Found.', data: {} }) }),
    );
    try {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await row('before.zip').waitFor();
      await openRestore('before.zip');
      await dialog().getByText('Type the backup name').waitFor();
      // the answer is in: nothing about migrations, nothing in the list either
      await expect.poll(() => page.evaluate(() => document.querySelectorAll('.backup-restore-migrations').length)).toBe(0);
      await expect(dialog().textContent()).resolves.not.toMatch(/migration/i);
      await expect(page.locator('.backups-item-pending').count()).resolves.toBe(0);
      await closeRestore();
    } finally {
      await page.unroute('**/api/outpost/backups/**');
    }
  });

  it('confirming the restore brings the collection back (its file ran at the restart)', async () => {
    const rec = await project.api('POST', '/api/collections/posts/records', { title: 'made after the backup' });
    expect(rec.status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await openRestore('before.zip');
    await note().getByText(created).waitFor();
    await page.getByLabel(label('Backup name')).fill('before.zip');
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await dialog().getByRole('button', { name: 'Restore backup' }).click();
    await reloaded;
    await expect.poll(() => project.server!.output()).toContain(`Applied ${created}`);
    expect((await project.api('GET', '/api/collections/posts')).status).toBe(200);
    expect((await project.api('GET', '/api/collections/posts/records')).body.totalItems).toBe(0);
    await row('before.zip').waitFor();
  });
});
