// Issue 16 in Chromium against the real server.
// Dark mode: the theme follows prefers-color-scheme, the avatar-menu toggle is remembered across a
// reload and is in place before the first render, ace follows it, axe finds no serious violation.
// Command palette: Ctrl+K opens a collection and (by id) a record of another collection, finds
// admins and settings screens, runs actions; '?' lists the shortcuts.
// Bulk edit: 50 records get one value (checked through the API); in a second run a unique index
// and a record deleted meanwhile make two of three fail, and the panel lists exactly those while
// the other changed; every field type but files is set in bulk and read back through the API.
// Saved views: a view restores filter, sort and hidden columns after a reload; rename, delete,
// and its own JSON export imported back.
// Phone (390x844): no horizontal overflow of the page on the collections, records and settings
// screens; the sidebar menu, New record and an overlay panel (full width) are reachable.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { createApp, type App } from '../../server/app';
import { launchBrowser, screenshot, signIn, injectAxe } from '../helpers/browser';
import { ROOT, tempDir } from '../helpers/server';

const DASHBOARD = process.env.OUTPOST_DASHBOARD_DIR ?? path.join(ROOT, 'dist');
const ADMIN = { email: 'theme@example.com', password: 'theme-pass-123' };
const DARK_BG = 'rgb(23, 24, 28)';
const LIGHT_BG = 'rgb(255, 255, 255)';

let app: App;
let url: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let notesId: string;
let tasksId: string;
let taskId: string;
let itemsId: string;
let api: PocketBase;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  app = await createApp({ dataDir: path.join(tempDir(), 'pb_data'), dashboardDir: DASHBOARD });
  url = await app.listen('127.0.0.1', 0);
  api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  notesId = (await api.collections.create({
    name: 'notes',
    type: 'base',
    listRule: '',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'done', type: 'bool' },
    ],
  })).id;
  for (let i = 0; i < 3; i++) await api.collection('notes').create({ title: `note ${i}`, done: i % 2 === 0 });
  tasksId = (await api.collections.create({ name: 'tasks', type: 'base', schema: [{ name: 'name', type: 'text' }] })).id;
  taskId = (await api.collection('tasks').create({ name: 'the task' })).id;
  itemsId = (
    await api.collections.create({
      name: 'items',
      type: 'base',
      schema: [
        { name: 'note', type: 'text' },
        { name: 'code', type: 'text' },
      ],
      indexes: ["CREATE UNIQUE INDEX `idx_items_code` ON `items` (`code`) WHERE `code` != ''"],
    }).catch((e) => {
      throw new Error(JSON.stringify(e.response));
    })
  ).id;
  for (let i = 0; i < 50; i++) await api.collection('items').create({ note: `before ${i}`, code: '' });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const bodyBg = (p: Page) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function axeSerious(p: Page): Promise<string[]> {
  await injectAxe(p);
  return p.evaluate(async () => {
    type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

async function openNotes(p: Page) {
  await p.goto(`${url}/_/#/collections?collectionId=${notesId}`);
  await p.getByText('note 1').first().waitFor();
}

describe('dark mode', () => {
  it('follows prefers-color-scheme with nothing stored (sign-in page and the app)', async () => {
    await page.goto(`${url}/_/#/login`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await bodyBg(page)).toBe(DARK_BG);
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'theme-login-dark');
    await signIn(page, url, ADMIN);
    await openNotes(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme ?? null)).toBeNull();
    expect(await bodyBg(page)).toBe(DARK_BG);
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'theme-records-dark');

    const light = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const lp = await light.newPage();
    await lp.goto(`${url}/_/#/login`);
    await lp.getByRole('button', { name: 'Login' }).waitFor();
    expect(await bodyBg(lp)).toBe(LIGHT_BG);
    await light.close();
  });

  it('the avatar-menu toggle switches at once, survives a reload and is set before the first render', async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Light theme' }).click();
    expect(await bodyBg(page)).toBe(LIGHT_BG);
    expect(await page.evaluate(() => localStorage.getItem('outpost_theme'))).toBe('light');
    // (the light set's contrast is the delivery issue's; axe runs on the dark set here)

    // Record what the document looked like when parsing ended (before React's first commit).
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { themeAtLoad: string }).themeAtLoad = document.documentElement.dataset.theme ?? 'none';
      });
    });
    await page.reload();
    await page.getByText('note 1').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { themeAtLoad: string }).themeAtLoad)).toBe('light');
    expect(await bodyBg(page)).toBe(LIGHT_BG);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Dark theme' }).click();
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByText('note 1').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { themeAtLoad: string }).themeAtLoad)).toBe('dark');
    expect(await bodyBg(page)).toBe(DARK_BG);
  });

  it('overlays and the rule editor (ace) are dark and axe-clean', async () => {
    await page.getByRole('button', { name: 'Edit collection' }).first().click();
    await page.getByRole('tab', { name: 'API Rules' }).click();
    // ace arrives lazily and then takes the dark theme
    await page.locator('.ace_editor.ace_dark').first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'theme-rules-dark');
    expect(await axeSerious(page)).toEqual([]);
  });
});

describe('command palette', () => {
  const palette = () => page.getByRole('dialog', { name: 'Command palette' });
  const search = () => palette().getByRole('combobox');

  it('Ctrl+K opens it; a collection is found by name and opened with Enter; Esc closes', async () => {
    await page.goto(`${url}/_/#/settings`);
    await page.locator('.page-wrapper').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().waitFor();
    await expect.poll(() => search().evaluate((el) => el === document.activeElement)).toBe(true);
    await search().fill('tas');
    await palette().getByRole('option', { name: /tasks/ }).waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'palette-dark');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.includes(`collectionId=${tasksId}`));
    expect(await palette().count()).toBe(0);
    await page.getByText('the task').first().waitFor();

    await page.keyboard.press('Control+k');
    await search().waitFor();
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
  });

  it('a 15-character id jumps to that record, in whichever collection holds it', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().fill(taskId);
    const option = palette().getByRole('option', { name: new RegExp(`Open record ${taskId}`) });
    await option.waitFor();
    expect(await option.textContent()).toContain('tasks');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.includes(`collectionId=${tasksId}`) && u.hash.includes(`recordId=${taskId}`));
    await page.getByRole('heading', { name: 'Edit tasks record' }).waitFor();

    // An unknown id says so.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await search().fill('zzzzzzzzzzzzzzz');
    await palette().getByRole('option', { name: 'No record with id zzzzzzzzzzzzzzz' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('finds admins and settings screens, and runs actions (new record here, toggle theme)', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().fill('theme@');
    await palette().getByRole('option', { name: new RegExp(ADMIN.email) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.startsWith('#/settings/admins'));
    await page.getByText(ADMIN.email).first().waitFor();

    await page.keyboard.press('Control+k');
    await search().fill('mail set');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash === '#/settings/mail');

    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.keyboard.press('Control+k');
    await search().fill('new record');
    await palette().getByRole('option', { name: /New record in notes/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New notes record' }).waitFor();
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    await search().fill('light theme');
    await page.keyboard.press('Enter');
    expect(await bodyBg(page)).toBe(LIGHT_BG);
    await page.keyboard.press('Control+k');
    await search().fill('dark theme');
    await page.keyboard.press('Enter');
    expect(await bodyBg(page)).toBe(DARK_BG);
  });

  it("'?' lists every keyboard shortcut", async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${notesId}`);
    await page.getByText('note 1').first().waitFor();
    await page.locator('body').click({ position: { x: 700, y: 600 } });
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const text of ['Open the command palette', 'Save the record in the record editor', 'Show this list of keyboard shortcuts']) {
      await help.getByText(text).waitFor();
    }
    await screenshot(page, 'shortcuts-dark');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });
});

describe('bulk edit', () => {
  const panel = () => page.getByRole('dialog', { name: /Edit \d+ records? selected/ });
  const signedIn = async () => {
    if (!page.url().startsWith(url)) await page.goto(`${url}/_/#/login`);
    if (!(await page.evaluate(() => localStorage.getItem('pocketbase_auth')))) await signIn(page, url, ADMIN);
  };

  it('sets one field on 50 selected records (checked through the API)', async () => {
    await signedIn();
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
    await signedIn();
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

describe('phone layout (390x844)', () => {
  let phone: Page;
  const noPageOverflow = () => phone.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const inViewport = async (name: string) => {
    const box = await phone.getByRole('button', { name, exact: true }).boundingBox();
    return !!box && box.x >= 0 && box.x + box.width <= 390 && box.y >= 0;
  };

  beforeAll(async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'light', isMobile: true, hasTouch: true });
    phone = await ctx.newPage();
    await signIn(phone, url, ADMIN);
  });

  it('collections and records: the sidebar is a menu, the page does not overflow, main buttons are reachable', async () => {
    await phone.goto(`${url}/_/#/collections?collectionId=${itemsId}`);
    await phone.getByText('bulk value').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    expect(await inViewport('New record')).toBe(true);
    expect(await inViewport('Views')).toBe(true);
    // the records table scrolls inside its wrapper
    expect(await phone.locator('.records-table-wrapper').evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
    await screenshot(phone, 'phone-records');

    const menu = phone.getByRole('button', { name: /Collections$/ }).filter({ hasText: '☰' });
    expect(await phone.getByRole('link', { name: 'tasks' }).or(phone.getByText('tasks', { exact: true })).first().isVisible()).toBe(false);
    await menu.click();
    await phone.getByText('tasks', { exact: true }).first().click();
    await phone.waitForURL((u) => u.hash.includes(tasksId));
    await phone.getByText('the task').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await screenshot(phone, 'phone-menu-picked');

    await phone.getByRole('button', { name: 'New record', exact: true }).click();
    const panel = phone.locator('.overlay-panel').last();
    await panel.waitFor();
    const box = await panel.boundingBox();
    expect(box && Math.round(box.width)).toBe(390);
    await screenshot(phone, 'phone-record-panel');
    await phone.keyboard.press('Escape');
  });

  it('logs, admins and settings screens do not overflow either', async () => {
    // the logs table scrolls inside its wrapper (its visually hidden header label once widened the page)
    await phone.goto(`${url}/_/#/logs`);
    await phone.locator('.logs-table tbody tr').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await screenshot(phone, 'phone-logs');
    await phone.goto(`${url}/_/#/settings/admins`);
    await phone.getByText(ADMIN.email).first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await phone.goto(`${url}/_/#/settings/mail`);
    await phone.locator('.page-wrapper form, .page-wrapper .sf-field').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await screenshot(phone, 'phone-settings-mail');
    await phone.context().close();
  });
});
