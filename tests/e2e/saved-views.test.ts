// Saved views in Chromium against the real server: a view restores filter, sort and hidden columns
// after a reload; views are renamed, deleted, and imported back from their own JSON export; a file
// that is not a views export is refused with a clear error.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';
import { axeSerious } from '../helpers/page-checks';
import { tempDir } from '../helpers/server';

const ADMIN = { email: 'views@example.com', password: 'views-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  colorScheme: 'dark', // axe runs on the dark set
  seed: async (api) => {
    const notes = await api.collections.create({
      name: 'notes',
      type: 'base',
      listRule: '',
      schema: [
        { name: 'title', type: 'text' },
        { name: 'done', type: 'bool' },
      ],
    });
    for (let i = 0; i < 3; i++) await api.collection('notes').create({ title: `note ${i}`, done: i % 2 === 0 });
    return { notesId: notes.id };
  },
});

let url: string;
let page: Page;
let notesId: string;
beforeAll(() => {
  ({ url, page } = session);
  ({ notesId } = session.seeded);
});

describe('saved views', () => {
  const views = () => page.getByRole('dialog', { name: 'Saved views of notes' });
  const doneHeader = () => page.getByRole('columnheader', { name: /done/ });

  it('saves filter + sort + columns and restores them after a reload', async () => {
    const filter = 'title ~ "note"';
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}&filter=${encodeURIComponent(filter)}`);
    await page.getByText('note 1').first().waitFor();
    const params = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
    await expect.poll(() => params().get('filter')).toBe(filter);
    // sort by the title header (the user's way); the URL then holds it
    await page.getByRole('columnheader', { name: /title/ }).getByRole('button').click();
    await expect.poll(() => /^-?title$/.test(params().get('sort') ?? '')).toBe(true);
    const sort = params().get('sort');
    await page.getByRole('button', { name: 'Toggle columns' }).click();
    await page.getByRole('group', { name: 'Columns' }).getByRole('checkbox', { name: 'done' }).uncheck();
    await page.keyboard.press('Escape');
    await doneHeader().waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Views', exact: true }).click();
    await views().getByLabel('Save the current filter, sort and columns as').fill('By title');
    await views().getByRole('button', { name: 'Save view' }).click();
    await views().getByRole('button', { name: 'By title', exact: true }).waitFor();
    await screenshot(page, 'saved-views');
    expect(await axeSerious(page)).toEqual([]);
    await views().getByRole('button', { name: 'Close' }).click();
    await views().waitFor({ state: 'detached' });

    // Back to the defaults: no filter, default sort, every column.
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByRole('button', { name: 'Toggle columns' }).click();
    await page.getByRole('group', { name: 'Columns' }).getByRole('checkbox', { name: 'done' }).check();
    await page.keyboard.press('Escape');
    await doneHeader().waitFor();
    await page.reload();
    await page.getByText('note 1').first().waitFor();

    await page.getByRole('button', { name: 'Views', exact: true }).click();
    await views().getByRole('button', { name: 'By title', exact: true }).click();
    await expect.poll(() => params().get('filter'), { timeout: 10_000 }).toBe(filter);
    expect(params().get('sort')).toBe(sort);
    await doneHeader().waitFor({ state: 'detached' });
  });

  it('renames, exports, deletes and imports views back from their own file', async () => {
    await page.getByRole('button', { name: 'Views', exact: true }).click();
    await views().getByRole('button', { name: 'Rename By title' }).click();
    await views().getByLabel('New name of By title').fill('Titles A-Z');
    await views().getByRole('button', { name: 'Save', exact: true }).click();
    await views().getByRole('button', { name: 'Titles A-Z', exact: true }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), views().getByRole('button', { name: 'Export views' }).click()]);
    const file = path.join(tempDir(), 'views.json');
    await download.saveAs(file);
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(exported).toEqual({
      type: 'outpost-saved-views',
      version: 1,
      collections: { notes: [{ name: 'Titles A-Z', filter: 'title ~ "note"', sort: expect.stringMatching(/^-?title$/), hidden: ['done'] }] },
    });

    await views().getByRole('button', { name: 'Delete Titles A-Z' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await views().getByText('No saved views yet.').waitFor();

    await views().getByLabel('Saved views file').setInputFiles(file);
    await views().getByRole('button', { name: 'Titles A-Z', exact: true }).waitFor();

    // Not a views file: a clear error, nothing imported.
    const bad = path.join(tempDir(), 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ collections: [] }));
    await views().getByLabel('Saved views file').setInputFiles(bad);
    await page.getByText('The file is not a saved views export.').waitFor();
    expect(await views().getByRole('list', { name: 'Saved views' }).getByRole('listitem').count()).toBe(1);
  });
});
