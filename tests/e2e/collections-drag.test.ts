// Reordering fields in the collection editor with the mouse (native drag and drop of a row's drag
// handle) in Chromium against the real server: the saved order comes back from the API, and a
// field marked for deletion (removed, not saved yet) cannot be dragged nor be dropped on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let page: Page;
let api: PocketBase;

const ADMIN = { email: 'drag@example.com', password: 'drag-password-1' };

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  api = server.client();
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  await api.collections.create({
    name: 'ordered',
    type: 'base',
    schema: ['alpha', 'beta', 'gamma', 'delta'].map((name) => ({ name, type: 'text' })),
  });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const editor = () => page.locator('.collection-editor-panel');
const row = (name: string) => editor().locator(`[data-field-name="${name}"]`);
const handle = (name: string) => row(name).getByRole('button', { name: new RegExp(`^Reorder field ${name}\\b`) });
const saveButton = () => editor().getByRole('button', { name: 'Save changes' });

async function openCollection(name: string) {
  await page.getByRole('navigation', { name: 'Collections list' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Edit collection' }).click();
  await editor().getByText('Edit collection', { exact: true }).waitFor();
}

async function fieldNames(): Promise<string[]> {
  return editor()
    .getByRole('textbox', { name: /^Field name/ })
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
}

/** Presses the mouse on `from`, moves it in steps onto the middle of `to` and releases it there. */
async function mouseDrag(from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('drag source or target is not visible');
  const start = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x, start.y + 6, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

describe('collection editor: reordering fields with the mouse', () => {
  it('drags a field by its handle, saves, and the API returns the new order', async () => {
    await openCollection('ordered');
    expect(await fieldNames()).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect(await handle('gamma').getAttribute('draggable')).toBe('true');

    // gamma onto alpha: gamma goes first
    await mouseDrag(handle('gamma'), row('alpha').locator('.field-row-header'));
    await expect.poll(fieldNames).toEqual(['gamma', 'alpha', 'beta', 'delta']);
    // alpha down onto delta: alpha goes last
    await mouseDrag(handle('alpha'), row('delta').locator('.field-row-header'));
    await expect.poll(fieldNames).toEqual(['gamma', 'beta', 'delta', 'alpha']);
    await screenshot(page, 'collections/editor-fields-dragged');

    expect(await saveButton().isEnabled()).toBe(true);
    await saveButton().click();
    await page.getByTestId('toast').filter({ hasText: 'Successfully updated collection.' }).first().waitFor();
    await editor().waitFor({ state: 'detached' });

    const saved = await api.collections.getOne('ordered');
    expect(saved.schema.map((f) => f.name)).toEqual(['gamma', 'beta', 'delta', 'alpha']);

    // reopened in the saved order
    await openCollection('ordered');
    expect(await fieldNames()).toEqual(['gamma', 'beta', 'delta', 'alpha']);
    await editor().getByRole('button', { name: 'Cancel' }).click();
    await editor().waitFor({ state: 'detached' });
  });

  it('a field marked for deletion cannot be dragged, nor another field dropped on it', async () => {
    await openCollection('ordered');
    expect(await fieldNames()).toEqual(['gamma', 'beta', 'delta', 'alpha']);
    await row('delta').getByRole('button', { name: /options of delta/ }).click();
    await editor().locator('.field-row--open').getByRole('button', { name: 'Remove' }).click();
    await row('delta').getByRole('button', { name: 'Restore' }).waitFor();
    expect(await row('delta').getAttribute('class')).toContain('field-row--deleted');
    expect(await handle('delta').isDisabled()).toBe(true);
    expect(await handle('delta').getAttribute('draggable')).toBe('false');

    // the removed field's handle, dragged to the top: nothing moves
    await mouseDrag(handle('delta'), row('gamma').locator('.field-row-header'));
    await page.waitForTimeout(300);
    expect(await fieldNames()).toEqual(['gamma', 'beta', 'delta', 'alpha']);
    // another field dropped on the removed one: nothing moves either
    await mouseDrag(handle('alpha'), row('delta').locator('.field-row-header'));
    await page.waitForTimeout(300);
    expect(await fieldNames()).toEqual(['gamma', 'beta', 'delta', 'alpha']);
    await screenshot(page, 'collections/editor-fields-drag-deleted');

    // the other fields still drag around it (alpha onto gamma: alpha first)
    await mouseDrag(handle('alpha'), row('gamma').locator('.field-row-header'));
    await expect.poll(fieldNames).toEqual(['alpha', 'gamma', 'beta', 'delta']);

    // nothing was saved: discard and the API keeps the previous order with all four fields
    await editor().getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('You have unsaved changes. Do you really want to close the panel?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await editor().waitFor({ state: 'detached' });
    expect((await api.collections.getOne('ordered')).schema.map((f) => f.name)).toEqual(['gamma', 'beta', 'delta', 'alpha']);
  });
});
