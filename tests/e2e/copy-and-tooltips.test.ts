// Copy buttons and tooltips in Chromium against the real server: a record id copied from the list
// and from the editor (the success icon for 500 ms); tooltips 5 px from their target, shown on hover
// and on focus, dismissed with Esc.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { dashboardSession } from '../helpers/dashboard-session';
import type { TestServer } from '../helpers/server';

const ADMIN = { email: 'copy@example.com', password: 'copy-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  permissions: ['clipboard-read', 'clipboard-write'],
  seed: async (api) => {
    await api.collections.create({ name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }] });
    await api.collection('notes').create({ title: 'first' });
  },
});

let server: TestServer;
let api: PocketBase;
let page: Page;
beforeAll(() => {
  ({ server, api, page } = session);
});

describe('copy buttons and tooltips', () => {
  it('copies a record id from the list and from the editor, with the success icon for 500 ms', async () => {
    const note = (await api.collection('notes').getFullList())[0];
    await page.goto(`${server.url}/_/#/collections?collectionId=${(await api.collections.getOne('notes')).id}`);
    const row = page.getByRole('row').filter({ hasText: note.id });
    await row.hover();
    const copy = row.getByRole('button', { name: 'Copy id' });
    await copy.click();
    // the icon changes once the clipboard write resolves (a moment after the click)
    await expect.poll(() => copy.getAttribute('data-copied'), { interval: 20 }).toBe('true');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(note.id);
    await page.waitForTimeout(700);
    expect(await copy.getAttribute('data-copied')).toBeNull();

    await page.evaluate(() => navigator.clipboard.writeText(''));
    await row.getByText('first').click();
    const panelCopy = page.locator('.record-id').getByRole('button', { name: 'Copy id' });
    await panelCopy.click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { interval: 20 }).toBe(note.id);
    await page.keyboard.press('Escape');
  });

  it('shows tooltips 5 px from their target on hover and focus, and Esc hides them', async () => {
    const refresh = page.getByRole('button', { name: 'Refresh' }).first();
    await refresh.hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    expect(await tip.textContent()).toBe('Refresh');
    const [a, t] = [await refresh.boundingBox(), await tip.boundingBox()];
    expect(Math.round(t!.y - (a!.y + a!.height))).toBe(5);
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: 'detached' });
    await refresh.focus();
    await tip.waitFor();
    await page.keyboard.press('Escape');
    await tip.waitFor({ state: 'detached' });
  });
});
