// The command palette from every entry point (issue 37): the dashboard opened straight on each
// signed-in screen of the route table (a fresh page load on that hash: a reload or a bookmark), then
// Ctrl+K finds a collection by name and Enter opens its records, a record id opens that record, and
// a settings screen is found and opened. Only the records screen loads the collections list as it
// starts: elsewhere the palette asks for it, once, and says so while it is on its way ("Loading
// collections…", not "No results."; an Enter pressed meanwhile runs once it is in). A collection
// created on another screen of the tab, or renamed in another tab, shows up in the palette.
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { ROUTES } from '../../src/shell/routes';
import { label, replaceAceText } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';

const ADMIN = { email: 'palette-entry@example.com', password: 'palette-entry-123' };

const session = dashboardSession({
  admin: ADMIN,
  seed: async (api) => {
    const posts = await api.collections.create({ name: 'posts', type: 'base', schema: [{ name: 'title', type: 'text' }] });
    const post = await api.collection('posts').create({ title: 'first post' });
    await api.collections.create({ name: 'notes', type: 'base', schema: [{ name: 'body', type: 'text' }] });
    return { postsId: posts.id, postId: post.id };
  },
});

/** Every signed-in screen a bookmark can name: the route table's admin routes without parameters. */
const ENTRIES = ROUTES.filter((r) => r.condition === 'auth' && !r.path.includes(':')).map((r) => r.path);

/** The store's own list request (the boot script's and the SDK's: 200 per page, sorted by name). */
const isStoreList = (r: Request) => /\/api\/collections\?/.test(r.url()) && r.url().includes('perPage=200') && r.url().includes('sort=%2Bname');

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const search = (page: Page) => palette(page).getByRole('combobox');
const option = (page: Page, name: RegExp) => palette(page).getByRole('option', { name });

/** A fresh document on `hash` (not a same-document hash change), once its page is drawn. */
async function openFresh(page: Page, hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${session.url}/_/#${hash}`);
  await page.locator('.page-wrapper').first().waitFor();
}

/** A same-document move, as the sidebar's links do. */
async function goWithin(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => (window.location.hash = h), hash);
  await page.waitForURL((u) => u.hash.startsWith(hash));
}

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();

async function openPalette(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await search(page).waitFor();
  await search(page).fill(text);
}

describe('command palette from every entry screen', () => {
  it('covers the dashboard’s top-level screens', () => {
    for (const p of ['/collections', '/collections/graph', '/logs', '/settings', '/settings/mail', '/settings/storage', '/settings/backups', '/settings/admins']) {
      expect(ENTRIES).toContain(p);
    }
  });

  it.each(ENTRIES)('entry %s: a collection by name (one list request), a record id, a settings screen', async (entry) => {
    const { page } = session;
    const { postsId, postId } = session.seeded;

    // a collection by name; Enter lands on its records
    const lists: string[] = [];
    const onRequest = (r: Request) => void (isStoreList(r) && lists.push(r.url()));
    page.on('request', onRequest);
    await openFresh(page, entry);
    await openPalette(page, 'posts');
    await option(page, /^posts/).waitFor();
    page.off('request', onRequest);
    expect(lists.length).toBe(1);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.startsWith('#/collections?') && u.hash.includes(`collectionId=${postsId}`));
    await page.getByText('first post').first().waitFor();
    expect(await palette(page).count()).toBe(0);

    // a record id; Enter opens that record
    await openFresh(page, entry);
    await openPalette(page, postId);
    const found = option(page, new RegExp(`Open record ${postId}`));
    await found.waitFor();
    expect(await found.textContent()).toContain('posts');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash.includes(`collectionId=${postsId}`) && u.hash.includes(`recordId=${postId}`));
    await page.getByRole('heading', { name: 'Edit posts record' }).waitFor();

    // a settings screen
    const [query, label, target] = entry === '/settings/mail' ? ['token', /Token options/, '#/settings/tokens'] : ['mail', /Mail settings/, '#/settings/mail'];
    await openFresh(page, entry);
    await openPalette(page, query);
    await option(page, label).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.hash === target);
    await page.locator('.page-wrapper').first().waitFor();
  });

  it('says "Loading collections…" while the list is on its way, asks once, and runs an Enter pressed meanwhile', async () => {
    const { page } = session;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let lists = 0;
    await page.route(/\/api\/collections\?/, async (route) => {
      if (isStoreList(route.request())) {
        lists++;
        await held;
      }
      await route.continue();
    });
    try {
      await openFresh(page, '/settings');
      await openPalette(page, 'posts');
      await palette(page).getByText('Loading collections…').waitFor();
      expect(await palette(page).getByText('No results.').count()).toBe(0);
      // closed and opened again while the answer is held: still the one request
      await page.keyboard.press('Escape');
      await openPalette(page, 'posts');
      await palette(page).getByText('Loading collections…').waitFor();
      await page.keyboard.press('Enter');
      await page.waitForTimeout(200);
      expect(lists).toBe(1);
      release();
      await page.waitForURL((u) => u.hash.includes(`collectionId=${session.seeded.postsId}`));
      await page.getByText('first post').first().waitFor();
    } finally {
      release();
      await page.unrouteAll();
    }
  });

  it('a record id from #/settings on a server without the find-record endpoint (PocketBase 0.22): the lists, once the collections are in', async () => {
    const { page } = session;
    const { postsId, postId } = session.seeded;
    await page.route('**/api/outpost/find-record/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, message: 'Not Found.', data: {} }) }),
    );
    try {
      await openFresh(page, '/settings');
      await openPalette(page, postId);
      await option(page, new RegExp(`Open record ${postId}`)).waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.hash.includes(`collectionId=${postsId}`) && u.hash.includes(`recordId=${postId}`));
      await page.getByRole('heading', { name: 'Edit posts record' }).waitFor();
    } finally {
      await page.unrouteAll();
    }
  });

  it('a collection created on another screen and one renamed in another tab show up', async () => {
    const { page, context } = session;
    // the palette loads the list on #/settings
    await openFresh(page, '/settings');
    await openPalette(page, 'notes');
    await option(page, /^notes/).waitFor();
    await page.keyboard.press('Escape');

    // created on the collections screen of this tab, then looked for from #/logs
    await goWithin(page, '#/collections');
    await page.getByRole('button', { name: 'New collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByLabel(label('Name')).fill('drafts');
    await editor.getByRole('button', { name: 'New field' }).click();
    await page.getByRole('menuitem', { name: 'Plain text', exact: true }).click();
    await editor.locator('.field-row--open').getByRole('textbox', { name: /^Field name/ }).fill('title');
    await editor.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Successfully created collection.');
    await goWithin(page, '#/logs');
    await page.locator('.page-wrapper').first().waitFor();
    await openPalette(page, 'drafts');
    await option(page, /^drafts/).waitFor();
    await page.keyboard.press('Escape');

    // renamed in another tab: this one (on #/logs, its list loaded) hears of it
    const other = await context.newPage();
    try {
      await other.goto(`${session.url}/_/#/collections`);
      await other.getByRole('navigation', { name: 'Collections list' }).getByRole('link', { name: 'notes', exact: true }).click();
      await other.getByRole('button', { name: 'Edit collection' }).click();
      const otherEditor = other.locator('.collection-editor-panel');
      await otherEditor.getByLabel(label('Name')).fill('memos');
      await otherEditor.getByRole('button', { name: 'Save changes' }).click();
      await other.locator('.confirm-changes').getByRole('button', { name: 'Confirm' }).click();
      await toast(other, 'Successfully updated collection.');
    } finally {
      await other.close();
    }
    await openPalette(page, 'memos');
    await option(page, /^memos/).waitFor();
    await search(page).fill('notes');
    await expect.poll(() => option(page, /^notes/).count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('opens from inside a code editor, which binds Ctrl+K itself (ace: find next), and leaves its text alone', async () => {
    const { page } = session;
    await openFresh(page, '/sql');
    const ace = page.locator('.sql-editor .ace_editor');
    await replaceAceText(page, ace, 'SELECT 1');
    await openPalette(page, 'posts');
    await option(page, /^posts/).waitFor();
    await page.keyboard.press('Escape');
    await palette(page).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { ace: { edit(el: Element): { getValue(): string } } }).ace.edit(document.querySelector('.sql-editor .ace_editor')!).getValue())).toBe('SELECT 1');
  });
});
