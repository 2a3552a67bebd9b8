// Bulk edit in Chromium against the real server: 50 records get one value (checked through the
// API); a unique index and a record deleted meanwhile make two of three fail, and the panel lists
// exactly those while the other changed; every field type but files is set in bulk and read back
// through the API; the confirm popup closes as the run starts, leaving the progress in view.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { axeSerious } from '../helpers/page-checks';

const ADMIN = { email: 'bulk@example.com', password: 'bulk-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  colorScheme: 'dark', // axe runs on the dark set
  seed: async (api) => {
    const items = await api.collections
      .create({
        name: 'items',
        type: 'base',
        schema: [
          { name: 'note', type: 'text' },
          { name: 'code', type: 'text' },
        ],
        indexes: ["CREATE UNIQUE INDEX `idx_items_code` ON `items` (`code`) WHERE `code` != ''"],
      })
      .catch((e) => {
        throw new Error(JSON.stringify(e.response));
      });
    for (let i = 0; i < 50; i++) await api.collection('items').create({ note: `before ${i}`, code: '' });
    const numbers = await api.collections.create({ name: 'numbers', type: 'base', schema: [{ name: 'number', type: 'number' }] });
    for (let i = 1; i <= 5; i++) await api.collection('numbers').create({ number: i });
    return { itemsId: items.id, numbers: { id: numbers.id } };
  },
});

let url: string;
let api: PocketBase;
let page: Page;
let itemsId: string;
let numbers: { id: string };
beforeAll(() => {
  ({ url, api, page } = session);
  ({ itemsId, numbers } = session.seeded);
});

describe('bulk edit', () => {
  const panel = () => page.getByRole('dialog', { name: /Edit \d+ records? selected/ });

  it('sets one field on 50 selected records (checked through the API)', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${itemsId}`);
    await page.getByText('before 49', { exact: true }).first().waitFor();
    // rows render in batches of 20 as the list scrolls; 'Load more' follows the page of 40
    const rows = page.locator('tr[data-id]');
    const more = page.getByRole('button', { name: 'Load more' });
    for (let i = 0; i < 10 && (await more.count()) === 0; i++) {
      await rows.last().scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);
    }
    await more.click();
    await page.getByText('before 0', { exact: true }).first().waitFor();
    await expect.poll(() => page.getByText(/Total found: 50/).count()).toBe(1);
    // all 50 loaded (the last one in creation order is the oldest)
    await rows.nth(49).scrollIntoViewIfNeeded();
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByText('Selected 50 records').waitFor();
    await page.getByRole('button', { name: 'Edit selected' }).click();
    await panel().waitFor();
    await panel().getByLabel('Field').selectOption('note');
    await panel().getByLabel(/^note/).fill('bulk value');
    await panel().getByRole('button', { name: 'Apply to 50 records' }).click();
    await page.getByText('Do you really want to set "note" on the 50 records selected?').waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await panel().getByText('Updated 50 records of 50.').waitFor({ timeout: 60_000 });
    expect(await panel().locator('progress').evaluate((el) => (el as HTMLProgressElement).value)).toBe(50);
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'bulk-edit-done');
    const all = await api.collection('items').getFullList({ fields: 'note' });
    expect(all).toHaveLength(50);
    expect(all.every((r) => r.note === 'bulk value')).toBe(true);
    await panel().getByRole('button', { name: 'Done' }).click();
    await panel().waitFor({ state: 'detached' });
  });

  // Admins pass every API rule in PocketBase 0.22 (and only admins sign in to the dashboard), so the
  // refusals an admin's bulk edit can meet are the server's: validation (a unique index) and a
  // record gone before its turn (404, what a non-admin also gets when the update rule hides it).
  it('lists the records the server refused and reports the count that changed', async () => {
    await page.getByText('bulk value').first().waitFor();
    const boxes = page.getByRole('checkbox', { name: /^Select record / });
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    const ids = await page.locator('tr[data-id]').evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getAttribute('data-id') ?? ''));
    await page.getByRole('button', { name: 'Edit selected' }).click();
    await panel().getByLabel('Field').selectOption('code');
    await panel().getByLabel(/^code/).fill('SAME');
    await panel().getByRole('button', { name: 'Apply to 3 records' }).click();
    await page.getByText('Do you really want to set "code" on the 3 records selected?').waitFor();
    // deleted by someone else while the admin reads the confirmation
    await api.collection('items').delete(ids[2]);
    await page.getByRole('button', { name: 'Yes' }).click();
    await panel().getByText('Updated 1 record of 3; 2 records failed and kept their previous value.').waitFor({ timeout: 30_000 });
    const failures = panel().getByRole('list', { name: 'Failed records' }).getByRole('listitem');
    expect(await failures.count()).toBe(2);
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'bulk-edit-failures');
    const withCode = await api.collection('items').getFullList({ filter: 'code = "SAME"' });
    expect(withCode).toHaveLength(1);
    expect(ids.slice(0, 2)).toContain(withCode[0].id);
    const failedText = await failures.allTextContents();
    expect(failedText.some((t) => t.includes(withCode[0].id))).toBe(false);
    const other = ids.slice(0, 2).find((id) => id !== withCode[0].id) ?? '';
    expect(failedText).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${other}: .*unique`, 'i')), expect.stringMatching(new RegExp(`^${ids[2]}: The record was not found`))]),
    );
    await panel().getByRole('button', { name: 'Done' }).click();
    await panel().waitFor({ state: 'detached' });
  });

  it('sets every field type the record editor edits (files excepted), each checked through the API', async () => {
    const tags = await api.collections.create({ name: 'labels_src', type: 'base', schema: [{ name: 'name', type: 'text', presentable: true }] });
    const tagIds: string[] = [];
    for (const name of ['alpha', 'beta']) tagIds.push((await api.collection('labels_src').create({ name })).id);
    const kinds = await api.collections.create({
      name: 'kinds',
      type: 'base',
      schema: [
        { name: 'title', type: 'text' },
        { name: 'body', type: 'editor' },
        { name: 'views', type: 'number' },
        { name: 'published', type: 'bool' },
        { name: 'contact', type: 'email' },
        { name: 'homepage', type: 'url' },
        { name: 'day', type: 'date' },
        { name: 'status', type: 'select', options: { maxSelect: 1, values: ['draft', 'live'] } },
        { name: 'flags', type: 'select', options: { maxSelect: 2, values: ['f1', 'f2', 'f3'] } },
        { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
        { name: 'cover', type: 'file', options: { maxSelect: 1, maxSize: 5242880 } },
        { name: 'tag', type: 'relation', options: { collectionId: tags.id, maxSelect: 1 } },
        { name: 'tags', type: 'relation', options: { collectionId: tags.id, maxSelect: 2 } },
      ],
    });
    for (let i = 0; i < 3; i++) await api.collection('kinds').create({ title: `kind ${i}` });
    await page.reload(); // the collections store is loaded once per page: now it holds 'kinds'
    await page.goto(`${url}/_/#/collections?collectionId=${kinds.id}`);
    await page.getByText('kind 2', { exact: true }).first().waitFor();
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    const field = (name: string) => panel().locator(`[data-field="bulk-edit-form_${name}"]`);

    const steps: Array<[string, () => Promise<void>, (r: Record<string, unknown>) => unknown, unknown]> = [
      ['title', () => field('title').getByLabel(/^title/).fill('same title'), (r) => r.title, 'same title'],
      [
        'body',
        async () => {
          const rich = field('body').locator('[contenteditable="true"]');
          await rich.click();
          await page.keyboard.type('rich text');
          await field('body').getByText('rich text').waitFor();
        },
        (r) => String(r.body).includes('rich text'),
        true,
      ],
      ['views', () => field('views').getByLabel(/^views/).fill('7'), (r) => r.views, 7],
      ['published', () => field('published').locator('label.sf-toggle').click(), (r) => r.published, true],
      ['contact', () => field('contact').getByLabel(/^contact/).fill('bulk@example.com'), (r) => r.contact, 'bulk@example.com'],
      ['homepage', () => field('homepage').getByLabel(/^homepage/).fill('https://example.com/bulk'), (r) => r.homepage, 'https://example.com/bulk'],
      ['day', () => field('day').locator('input[type="date"]').fill('2024-05-06'), (r) => String(r.day).slice(0, 10), '2024-05-06'],
      [
        'status',
        async () => {
          await field('status').locator('.record-select-button').click();
          await field('status').getByRole('option', { name: 'live' }).getByRole('button').click();
        },
        (r) => r.status,
        'live',
      ],
      [
        'flags',
        async () => {
          await field('flags').locator('.record-select-button').click();
          for (const v of ['f1', 'f3']) await field('flags').getByRole('option', { name: v }).getByRole('button').click();
          await page.keyboard.press('Escape');
        },
        (r) => r.flags,
        ['f1', 'f3'],
      ],
      [
        'meta',
        async () => {
          const editor = field('meta').locator('.ace_editor');
          await editor.waitFor();
          await editor.click();
          await page.keyboard.press('Control+A');
          await page.keyboard.press('Delete');
          await page.keyboard.insertText('{"bulk": [1, 2]}');
          await field('meta').getByText('Valid JSON').waitFor();
        },
        (r) => r.meta,
        { bulk: [1, 2] },
      ],
      [
        'tag',
        async () => {
          await field('tag').locator('.record-relation-open').click();
          const picker = page.getByRole('dialog', { name: 'Select labels_src records' });
          await picker.getByRole('option', { name: /^alpha\b/ }).click();
          await picker.getByRole('button', { name: 'Set selection' }).click();
          await picker.waitFor({ state: 'detached' });
        },
        (r) => r.tag,
        tagIds[0],
      ],
      [
        'tags',
        async () => {
          await field('tags').locator('.record-relation-open').click();
          const picker = page.getByRole('dialog', { name: 'Select labels_src records' });
          for (const n of ['alpha', 'beta']) await picker.getByRole('option', { name: new RegExp(`^${n}\\b`) }).click();
          await picker.getByRole('button', { name: 'Set selection' }).click();
          await picker.waitFor({ state: 'detached' });
        },
        (r) => [...(r.tags as string[])].sort(),
        [...tagIds].sort(),
      ],
    ];

    await page.getByRole('button', { name: 'Edit selected' }).click();
    await panel().waitFor();
    const offered = await panel().getByLabel('Field').locator('option').allTextContents();
    expect(offered).toEqual(steps.map(([name]) => name)); // every field but the file one
    for (const [name, set, read, expected] of steps) {
      await panel().getByLabel('Field').selectOption(name);
      await set();
      await panel().getByRole('button', { name: 'Apply to 3 records' }).click();
      await page.getByRole('button', { name: 'Yes' }).click();
      await panel().getByText('Updated 3 records of 3.').waitFor({ timeout: 30_000 });
      const all = await api.collection('kinds').getFullList();
      expect(all.map((r) => read(r)), name).toEqual([expected, expected, expected]);
    }
    await screenshot(page, 'bulk-edit-every-type');
    await panel().getByRole('button', { name: 'Done' }).click();
    await panel().waitFor({ state: 'detached' });
  });
});

describe('bulk edit: the confirm popup', () => {
  it('closes the confirm popup as the run starts, leaving the progress in view', async () => {
    await page.evaluate((id) => {
      window.location.hash = `#/collections?collectionId=${id}`;
    }, numbers.id);
    await page.locator('tr[data-id]').first().waitFor();
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: 'Edit selected' }).click();
    const panel = page.getByRole('dialog', { name: /Edit \d+ records? selected/ });
    await panel.waitFor();
    await panel.getByLabel('Field').selectOption('number');
    await panel.getByLabel(/^number/).fill('7');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/api/collections/${numbers.id}/records/*`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await panel.getByRole('button', { name: /^Apply to/ }).click();
    const popup = page.locator('.confirm-popup');
    await popup.getByText(/Do you really want to set "number"/).waitFor();
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await panel.locator('progress').waitFor();
    await popup.waitFor({ state: 'hidden' });
    expect(await panel.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    release();
    await panel.getByText(/Updated 5 records of 5\./).waitFor();
    await page.unroute(`**/api/collections/${numbers.id}/records/*`);
    await panel.getByRole('button', { name: 'Done' }).click();
  });
});
