// The select field's "Multiple" values in the collection editor, in Chromium against the real
// server: a multiple select with one choice shows the max select error and nothing is saved.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { dashboardSession } from '../helpers/dashboard-session';

const ADMIN = { email: 'select@example.com', password: 'select-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  viewport: { width: 1280, height: 900 },
  seed: async (api) => {
    const items = await api.collections.create({ name: 'items', type: 'base', schema: [{ name: 'number', type: 'number' }] });
    return { items: { id: items.id } };
  },
});

let api: PocketBase;
let page: Page;
let items: { id: string };
beforeAll(() => {
  ({ api, page } = session);
  ({ items } = session.seeded);
});

describe('select multiple with one choice', () => {
  it('shows the max select error in the collection editor and does not save a single select', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, items.id);
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByText('Edit collection', { exact: true }).waitFor();
    await editor.getByRole('button', { name: 'New field' }).click();
    await page.getByRole('menuitem', { name: 'Select', exact: true }).click();
    const row = editor.locator('.field-row--open');
    await row.getByRole('textbox', { name: /^Field name/ }).fill('choice');
    await row.getByLabel(/^Choices/).fill('only');
    await row.getByLabel(/^Choices/).blur();
    await row.getByLabel('Values').selectOption({ label: 'Multiple' });
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await row.getByText('Must be no less than 2.').waitFor();
    await page.waitForTimeout(300);
    const saved = await api.collections.getOne(items.id);
    expect(saved.schema.map((f) => f.name)).not.toContain('choice');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
  });
});
