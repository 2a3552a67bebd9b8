// Export and import collections in Chromium against the real server: export three collections
// (preview and downloaded file), change one on the server, import the file back (diff, deletion
// confirmation, server state), up-to-date and invalid messages, merge vs replace, server errors,
// and the screens hidden in restricted mode.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { launchBrowser, screenshot } from '../helpers/browser';
import { http, startServer, tempDir, type TestServer, DASHBOARD_DIR } from '../helpers/server';

const ADMIN = { email: 'sync@example.com', password: 'sync-password-123' };
const NAMES = ['alpha', 'beta', 'gamma'];

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pb: PocketBase;
let exportedFile = '';
let exported: Array<Record<string, any>> = [];
const pageErrors: string[] = [];

const text = (o: Record<string, unknown>) => ({ system: false, type: 'text', required: false, presentable: false, unique: false, options: {}, ...o });

/** A collection as the server returns it, without the timestamps. */
async function definition(name: string): Promise<Record<string, any>> {
  const c = (await pb.collections.getOne(name)) as unknown as Record<string, any>;
  delete c.created;
  delete c.updated;
  return c;
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  const created = await http(server.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  if (created.status !== 200) throw new Error('could not create the admin: ' + JSON.stringify(created.body));
  pb = server.client();
  await pb.admins.authWithPassword(ADMIN.email, ADMIN.password);

  const alpha = await pb.collections.create({
    name: 'alpha',
    type: 'base',
    schema: [text({ name: 'title', required: true }), { name: 'count', type: 'number', options: {} }],
    listRule: '',
  });
  await pb.collections.create({
    name: 'beta',
    type: 'base',
    schema: [
      text({ name: 'label' }),
      { name: 'owner', type: 'relation', options: { collectionId: alpha.id, maxSelect: 1, cascadeDelete: false } },
    ],
    indexes: ['CREATE INDEX `idx_beta_label` ON `beta` (`label`)'],
    viewRule: 'label != ""',
  });
  await pb.collections.create({ name: 'gamma', type: 'base', schema: [{ name: 'done', type: 'bool', options: {} }] });

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => {
    pageErrors.push(String(err));
    console.error('[pageerror]', err);
  });

  await page.goto(`${server.url}/_/#/login`);
  await page.getByLabel(/^Email\s*\*?$/).fill(ADMIN.email);
  await page.getByLabel(/^Password\s*\*?$/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/#\/collections/);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Closes the toasts and lets transitions end, so screenshots show the screen as it rests. */
async function settle() {
  for (const close of await page.getByTestId('toast').getByRole('button', { name: 'Close' }).all()) await close.click().catch(() => {});
  await page.waitForTimeout(300);
}

/** Opens the import screen afresh (through another route, so its state starts over). */
async function openImport() {
  await page.goto(`${server.url}/_/#/settings/admins`);
  await page.getByRole('heading', { level: 1 }).or(page.locator('.breadcrumbs')).first().waitFor();
  await page.goto(`${server.url}/_/#/settings/import-collections`);
  await page.getByLabel('Collections', { exact: true }).waitFor();
}

describe('export collections', () => {
  it('lists the collections, previews the selected ones and downloads pb_schema.json', async () => {
    await page.goto(`${server.url}/_/#/settings/export-collections`);
    for (const name of NAMES) await page.getByRole('checkbox', { name, exact: true }).waitFor();
    const preview = page.getByTestId('export-preview');
    await expect.poll(async () => (await preview.textContent()) ?? '').toContain('"name": "gamma"');
    await settle();
    await screenshot(page, 'export-collections');

    // Keyboard: a collection checkbox toggles with Space (focus visible in the screenshot).
    const alphaBox = page.getByRole('checkbox', { name: 'alpha', exact: true });
    await alphaBox.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await preview.textContent()) ?? '').not.toContain('"name": "alpha"');
    await settle();
    await screenshot(page, 'export-keyboard');
    await page.keyboard.press('Space');
    await expect.poll(async () => (await preview.textContent()) ?? '').toContain('"name": "alpha"');

    const all = await page.getByRole('checkbox', { name: /Select all/ }).isChecked();
    expect(all).toBe(true);
    const previewed = JSON.parse((await preview.textContent()) ?? '');
    for (const name of NAMES) expect(previewed.map((c: { name: string }) => c.name)).toContain(name);
    expect(previewed.every((c: Record<string, unknown>) => !('created' in c) && !('updated' in c))).toBe(true);

    // Unselect everything: an empty list and no download; then one by one.
    await page.getByRole('checkbox', { name: /Select all/ }).click();
    expect(JSON.parse((await preview.textContent()) ?? '')).toEqual([]);
    expect(await page.getByRole('button', { name: 'Download as JSON' }).isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'beta', exact: true }).check();
    expect(JSON.parse((await preview.textContent()) ?? '').map((c: { name: string }) => c.name)).toEqual(['beta']);
    await page.getByRole('checkbox', { name: /Select all/ }).click();
    expect(JSON.parse((await preview.textContent()) ?? '')).toEqual(previewed);

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('The configuration was copied to your clipboard!').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as JSON' }).click()]);
    expect(download.suggestedFilename()).toBe('pb_schema.json');
    exportedFile = path.join(tempDir('outpost-export-'), 'pb_schema.json');
    await download.saveAs(exportedFile);
    exported = JSON.parse(fs.readFileSync(exportedFile, 'utf8'));
    expect(exported).toEqual(previewed);
    expect(exported.find((c) => c.name === 'beta')).toEqual(await definition('beta'));
  });
});

describe('import collections', () => {
  it('an unchanged import is already up to date', async () => {
    await openImport();
    await page.getByTestId('import-file').setInputFiles(exportedFile);
    await page.getByText('Your collections configuration is already up-to-date!').waitFor();
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    await settle();
    await screenshot(page, 'import-up-to-date');
  });

  it('invalid JSON shows the spec message and keeps Review disabled', async () => {
    await openImport();
    const area = page.getByLabel('Collections', { exact: true });
    for (const bad of ['{not json', '{"id":"a","name":"b"}', '[{"id":"x"}]', '[]']) {
      await area.fill(bad);
      await page.getByText('Invalid collections configuration.').waitFor();
      expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    }
    await settle();
    await screenshot(page, 'import-invalid');

    // An invalid file is rejected with a toast and the field is cleared.
    const bad = path.join(tempDir('outpost-bad-'), 'bad.json');
    fs.writeFileSync(bad, '{"not": "a list"}');
    await page.getByTestId('import-file').setInputFiles(bad);
    await page.getByTestId('toast').filter({ hasText: 'Invalid collections configuration.' }).waitFor();
    expect(await area.inputValue()).toBe('');
  });

  it('imports the exported file back over a changed collection: diff, deletion confirmation, server state', async () => {
    // Change beta on the server: rename a field, add one, change a rule.
    const before = await definition('beta');
    const schema = before.schema.map((f: Record<string, unknown>) => (f.name === 'label' ? { ...f, name: 'caption' } : f));
    schema.push(text({ name: 'extra' }));
    await pb.collections.update('beta', {
      schema,
      viewRule: null,
      indexes: ['CREATE INDEX `idx_beta_label` ON `beta` (`caption`)'],
    });
    const changed = await definition('beta');
    const extra = changed.schema.find((f: { name: string }) => f.name === 'extra');
    expect(extra).toMatchObject({ name: 'extra', type: 'text' });

    await openImport();
    await page.getByTestId('import-file').setInputFiles(exportedFile);
    const items = page.getByTestId('detected-change');
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    const item = items.first();
    expect(await item.textContent()).toContain('Changed');
    expect(await item.textContent()).toContain('beta');
    expect(await item.textContent()).toContain('caption → label');
    expect(await item.textContent()).toContain('extra');
    await settle();
    await screenshot(page, 'import-detected-changes');

    // Keyboard: the merge toggle is reachable and switches with Space (merge keeps 'extra').
    const toggle = page.getByRole('checkbox', { name: 'Merge with the existing collections' });
    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(true);
    await expect.poll(async () => (await item.textContent()) ?? '').not.toContain('extra');
    await page.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Review' }).click();
    const popup = page.locator('.import-review-popup');
    await popup.getByText('Side-by-side diff').waitFor();
    const diff = popup.getByTestId('collection-diff');
    expect(await diff.count()).toBe(1);
    // Old (server) lines on the left, imported lines on the right, highlighted.
    const oldChanged = await diff.locator('td.diff-code.diff-del').allTextContents();
    const newChanged = await diff.locator('td.diff-code.diff-ins').allTextContents();
    expect(oldChanged.join('\n')).toContain('"name": "caption"');
    expect(oldChanged.join('\n')).toContain('"name": "extra"');
    expect(newChanged.join('\n')).toContain('"name": "label"');
    expect(newChanged.join('\n')).toContain('"viewRule": "label != \\"\\""');
    await settle();
    await screenshot(page, 'import-diff');

    await popup.getByRole('button', { name: 'Confirm and import' }).click();
    const confirm = page.locator('.import-delete-confirm');
    await confirm.getByText('Do you really want to delete the following collection fields').waitFor();
    expect((await confirm.locator('li').allTextContents()).map((s) => s.trim())).toEqual([`beta.extra (${extra.id})`]);
    await settle();
    await screenshot(page, 'import-delete-confirm');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Successfully imported collections configuration.').waitFor();
    await popup.waitFor({ state: 'detached' });

    const after = await definition('beta');
    expect(after).toEqual(exported.find((c) => c.name === 'beta'));
    for (const name of ['alpha', 'gamma']) expect(await definition(name)).toEqual(exported.find((c) => c.name === name));
    expect(await page.getByLabel('Collections', { exact: true }).inputValue()).toBe('');
  });

  it('merge keeps fields missing from the import; replace would delete them', async () => {
    const gamma = await definition('gamma');
    await pb.collections.update('gamma', { schema: [...gamma.schema, text({ name: 'note' })] });

    await openImport();
    await page.getByLabel('Collections', { exact: true }).fill(fs.readFileSync(exportedFile, 'utf8'));
    const item = page.getByTestId('detected-change').first();
    await item.waitFor();
    expect(await item.textContent()).toContain('gamma');
    expect(await item.textContent()).toContain('note');

    await page.getByText('Merge with the existing collections').click();
    await page.getByText('Your collections configuration is already up-to-date!').waitFor();
    await settle();
    await screenshot(page, 'import-merge-up-to-date');
  });

  it('a server error is shown and nothing changes', async () => {
    await openImport();
    await page.getByText('Merge with the existing collections').click();
    const bad = [{ ...exported.find((c) => c.name === 'gamma'), id: 'brandnewcoll001', name: 'bad name!' }];
    await page.getByLabel('Collections', { exact: true }).fill(JSON.stringify(bad, null, 2));
    await page.getByTestId('detected-change').first().waitFor();
    await page.getByRole('button', { name: 'Review' }).click();
    const popup = page.locator('.import-review-popup');
    await popup.getByRole('button', { name: 'Confirm and import' }).click();
    await popup.locator('.import-error').waitFor();
    expect(await popup.locator('.import-error').textContent()).toMatch(/bad name!|name/);
    await settle();
    await screenshot(page, 'import-server-error');
    await popup.getByRole('button', { name: 'Close', exact: true }).last().click();
    const names = (await pb.collections.getFullList()).map((c) => c.name);
    expect(names).not.toContain('bad name!');
  });
});

describe('restricted mode', () => {
  it('hides the links and sends the screens to the root', async () => {
    await pb.settings.update({ meta: { hideControls: true } });
    try {
      await page.goto(`${server.url}/_/#/settings/admins`);
      await page.reload();
      await page.getByRole('navigation', { name: 'Settings' }).getByText('Admins').waitFor();
      await expect.poll(() => page.getByRole('link', { name: 'Export collections' }).count()).toBe(0);
      await page.goto(`${server.url}/_/#/settings/import-collections`);
      await page.waitForURL(/#\/collections/);
      await page.goto(`${server.url}/_/#/settings/export-collections`);
      await page.waitForURL(/#\/collections/);
    } finally {
      await pb.settings.update({ meta: { hideControls: false } });
    }
    expect(pageErrors).toEqual([]);
  });
});
