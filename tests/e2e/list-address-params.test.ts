// The records list's address parameters in Chromium against the real server: sort, filter and
// recordId given in the address are honoured on entry from another screen, and no query string of
// one screen leaks into another screen's address.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { dashboardSession } from '../helpers/dashboard-session';

const ADMIN = { email: 'address@example.com', password: 'address-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  viewport: { width: 1280, height: 900 },
  seed: async (api) => {
    // 'aaa' sorts first, so the store's active collection is another one than the address's
    const other = await api.collections.create({ name: 'aaa_other', type: 'base', schema: [{ name: 'label', type: 'text', required: true }] });
    const items = await api.collections.create({ name: 'items', type: 'base', schema: [{ name: 'number', type: 'number' }] });
    for (let i = 1; i <= 5; i++) await api.collection('items').create({ number: i });
    return { other: { id: other.id }, items: { id: items.id } };
  },
});

let url: string;
let api: PocketBase;
let page: Page;
let items: { id: string };
let other: { id: string };
beforeAll(() => {
  ({ url, api, page } = session);
  ({ items, other } = session.seeded);
});

describe('list address params', () => {
  it('honours sort, filter and recordId given in the address when coming from another screen', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${other.id}`);
    await page.getByRole('heading', { name: /aaa_other/ }).or(page.getByText('aaa_other').first()).first().waitFor();
    await page.goto(`${url}/_/#/logs`);
    await page.waitForURL(/#\/logs/);
    const listRequest = page.waitForRequest((r) => r.url().includes(`/api/collections/${items.id}/records?`) && new URL(r.url()).searchParams.has('sort'));
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}&sort=-number&filter=${encodeURIComponent('number>1')}`;
    }, items.id);
    const req = new URL((await listRequest).url());
    expect(req.searchParams.get('sort')).toBe('-number');
    expect(req.searchParams.get('filter')).toBe('number>1');
    await page.waitForTimeout(300);
    const hash = decodeURIComponent(new URL(page.url()).hash);
    expect(hash).toContain('sort=-number');
    expect(hash).toContain('filter=number>1');
    const firstCell = page.locator('tbody tr').first();
    await expect.poll(() => firstCell.textContent()).toContain('5');

    // a record given the same way opens its editor
    const rec = (await api.collection('items').getFirstListItem('number=3')).id;
    await page.evaluate(() => {
      window.location.hash = '#/logs';
    });
    await page.getByRole('table', { name: 'Logs' }).waitFor();
    await page.evaluate(
      ([id, r]) => {
        window.location.hash = `#/collections?collectionId=${id}&sort=-number&recordId=${r}`;
      },
      [items.id, rec],
    );
    await page.getByRole('dialog').waitFor();
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain(`recordId=${rec}`);
    expect(new URL(page.url()).hash).toContain('sort=-number');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it("keeps a screen's links free of another screen's params", async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}&sort=-number`;
    }, items.id);
    await page.locator('tbody tr[data-id]').first().waitFor();
    await page.getByRole('link', { name: 'Logs' }).first().click();
    await page.waitForURL(/#\/logs/);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).hash).not.toContain('collectionId');
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, items.id);
    await page.locator('tbody tr').first().waitFor();
    await page.evaluate(() => {
      window.location.hash = '#/settings/mail';
    });
    await page.waitForURL(/#\/settings\/mail/);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).hash).toBe('#/settings/mail');
  });
});
