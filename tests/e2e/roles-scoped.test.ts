// Scoped admins' dashboards in Chromium against the real server (issue 36): three admins with
// different roles open every top-level screen by its address and see either the screen or the
// explanation of what their role lacks (never an empty form or a raw 403); the buttons follow the
// role (records create/update/delete, schema view/edit, import/export, palette, API preview); a
// 403 met after the role changed under an open page is explained; a collection's record history
// is switched in the collection editor's Options.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { axeSerious } from '../helpers/page-checks';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';
import { SCREENS } from '../../src/shell/screens';
import { mayOpen } from '../../src/shell/routes';
import { accessOf, type Area, type CollectionGrant, type Role } from '../../src/lib/roles';

let server: TestServer;
let browser: Browser;
let fullToken = '';
const PASSWORD = '1234567890';
const FULL = 'full@example.com';
const ids: Record<string, string> = {};
let postId = '';

type Scoped = { email: string; role: string; areas: Area[]; collections: (ids: Record<string, string>) => CollectionGrant[]; adminId?: string; roleId?: string };
const SCOPED: Record<'reader' | 'editor' | 'builder', Scoped> = {
  // reads posts, nothing else
  reader: { email: 'reader@example.com', role: 'Readers', areas: [], collections: (c) => [{ collection: c.posts, read: true }] },
  // writes posts' records and sees their schema; sees the notes' schema only; logs and mail
  editor: {
    email: 'editor@example.com',
    role: 'Editors',
    areas: ['logs', 'mail'],
    collections: (c) => [
      { collection: c.posts, read: true, create: true, update: true, delete: true, schema: 'view' },
      { collection: c.notes, schema: 'view' },
    ],
  },
  // reads every collection and edits every schema; application settings and collections export/import
  builder: { email: 'builder@example.com', role: 'Builders', areas: ['settings', 'collectionsImportExport'], collections: () => [{ collection: '*', read: true, schema: 'edit' }] },
};

const api = (method: string, url: string, body?: unknown) => http(server.url, method, url, { token: fullToken, body });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  await http(server.url, 'POST', '/api/admins', { body: { email: FULL, password: PASSWORD, passwordConfirm: PASSWORD } });
  fullToken = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: FULL, password: PASSWORD } })).body.token;
  for (const name of ['posts', 'notes', 'secret']) {
    const c = await api('POST', '/api/collections', { name, schema: [{ name: 'title', type: 'text' }] });
    ids[name] = c.body.id;
    const r = await api('POST', `/api/collections/${name}/records`, { title: `${name} one` });
    if (name === 'posts') postId = r.body.id;
  }
  for (const s of Object.values(SCOPED)) {
    s.adminId = (await api('POST', '/api/admins', { email: s.email, password: PASSWORD, passwordConfirm: PASSWORD })).body.id;
    const role = await api('POST', '/api/outpost/roles', { name: s.role, areas: Object.fromEntries(s.areas.map((a) => [a, true])), collections: s.collections(ids) });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    s.roleId = role.body.id;
    expect((await api('PUT', `/api/outpost/admin-roles/${s.adminId}`, { role: s.roleId })).status).toBe(200);
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signedIn(who: Scoped): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, { email: who.email, password: PASSWORD });
  return page;
}

/** Opens an address as typed into the browser: a fresh load, not a hash change. */
async function openDirect(page: Page, hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${server.url}/_/#${hash}`);
}

const errorToasts = (page: Page) => page.locator('.toast-error .toast-message').allTextContents();
const noAccess = (page: Page) => page.locator('[data-no-access]');
const roleOf = (s: Scoped): Role => ({ id: s.roleId!, name: s.role, created: '', updated: '', areas: Object.fromEntries(s.areas.map((a) => [a, true])), collections: s.collections(ids) });

// every signed-in top-level screen of the screen list (a new one is walked too)
const TOP_LEVEL = SCREENS.filter((s) => s.condition === 'auth' && !s.paths[0].includes(':'));

describe('a scoped admin opening every screen by its address', () => {
  it.each(Object.keys(SCOPED) as (keyof typeof SCOPED)[])('%s: the screen its role allows, else the explanation', async (key) => {
    const who = SCOPED[key];
    const access = accessOf(roleOf(who));
    const page = await signedIn(who);
    const problems: string[] = [];
    for (const screen of TOP_LEVEL) {
      const hash = screen.paths[0];
      await openDirect(page, hash);
      await page.locator('.route-view').first().waitFor();
      if (mayOpen(access, screen.area)) {
        // the screen itself: give its first requests time to come back, none may be refused
        await page.locator('.page-loader').waitFor({ state: 'detached' });
        await page.waitForTimeout(1000);
        if ((await noAccess(page).count()) > 0 && hash !== '/collections') problems.push(`${hash}: explained, but the role allows it`);
      } else {
        await noAccess(page).first().waitFor({ timeout: 10_000 }).catch(() => problems.push(`${hash}: no explanation`));
        const text = (await noAccess(page).first().textContent()) ?? '';
        if (!/Not part of your admin role/.test(text) || !/A full admin can change your role on Settings › Admins/.test(text)) problems.push(`${hash}: ${text}`);
        if (screen.area === 'full') {
          if (!text.includes('Only full admins can open')) problems.push(`${hash}: ${text}`);
        } else if (!/Your admin role does not include the /.test(text)) problems.push(`${hash}: ${text}`);
        // nothing of the screen was drawn behind it
        if ((await page.locator('form').count()) > 0) problems.push(`${hash}: a form is drawn`);
        if (key === 'reader' && hash === '/settings/backups') await screenshot(page, 'roles-scoped-no-access-backups');
        if (key === 'reader' && hash === '/settings/mail') {
          expect(await axeSerious(page), 'axe on the explanation').toEqual([]);
          await screenshot(page, 'roles-scoped-no-access-mail');
        }
      }
      const toasts = await errorToasts(page);
      if (toasts.length) problems.push(`${hash}: error toasts ${JSON.stringify(toasts)}`);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('a collection the role does not include, or whose records it may not read, is explained', async () => {
    const page = await signedIn(SCOPED.editor);
    await openDirect(page, `/collections?collectionId=${ids.secret}`);
    await noAccess(page).filter({ hasText: `There is no collection “${ids.secret}” you may open` }).waitFor();
    // the address is kept: it is what the admin asked for
    expect(page.url()).toContain(ids.secret);
    expect(await page.getByText('secret one').count()).toBe(0);
    await screenshot(page, 'roles-scoped-no-access-collection');
    expect(await axeSerious(page)).toEqual([]);

    await openDirect(page, `/collections?collectionId=${ids.notes}`);
    await noAccess(page).filter({ hasText: 'Your admin role does not let you read the records of the collection “notes”' }).waitFor();
    // its schema it may see: the editor opens read-only
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByText("Your admin role lets you see this collection's schema, not change it.").waitFor();
    expect(await editor.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await editor.getByRole('textbox', { name: /Name/ }).first().isDisabled()).toBe(true);
    await screenshot(page, 'roles-scoped-readonly-schema');
    expect(await errorToasts(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});

describe("a scoped admin's buttons", () => {
  it('reader: no New record, Import, bulk actions, schema edit or palette entries it may not use; records read-only', async () => {
    const page = await signedIn(SCOPED.reader);
    await openDirect(page, `/collections?collectionId=${ids.posts}`);
    await page.getByText('posts one').first().waitFor();
    expect(await page.getByRole('button', { name: 'New record' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit collection' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New collection' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Export', exact: true }).waitFor();
    await page.getByRole('button', { name: 'API Preview' }).waitFor();
    await page.getByRole('checkbox', { name: `Select record ${postId}` }).check();
    await page.getByRole('region', { name: 'Bulk actions' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete selected' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Bulk edit/ }).count()).toBe(0);
    await screenshot(page, 'roles-scoped-reader-list');

    // the record opens read-only: no save, no delete, no duplicate, no history
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByLabel(`Open record ${postId}`).click();
    const panel = page.locator('.record-editor-panel');
    await panel.getByText('Your admin role lets you view this record, not change it.').waitFor();
    expect(await panel.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'More record options' }).count()).toBe(0);
    expect(await panel.getByRole('tab', { name: 'History' }).count()).toBe(0);
    expect(await panel.getByRole('textbox', { name: /title/ }).isDisabled()).toBe(true);
    await screenshot(page, 'roles-scoped-reader-record');
    await panel.getByRole('button', { name: 'Close', exact: true }).last().click();

    // the palette: no New record, no New collection, no settings it may not open
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('option', { name: /posts/ }).first().waitFor();
    const options = await palette.getByRole('option').allTextContents();
    expect(options.some((o) => /New record|New collection|Mail settings|Backups|Admins/.test(o)), options.join(' | ')).toBe(false);
    expect(options.some((o) => /API/.test(o)), options.join(' | ')).toBe(true);
    await page.keyboard.press('Escape');
    expect(await errorToasts(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('editor: writes records; a 403 met after its role changed is explained, and the buttons follow the new role', async () => {
    const page = await signedIn(SCOPED.editor);
    await openDirect(page, `/collections?collectionId=${ids.posts}`);
    await page.getByText('posts one').first().waitFor();
    await page.getByRole('button', { name: 'New record' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).waitFor();
    await page.getByLabel(`Open record ${postId}`).click();
    const panel = page.locator('.record-editor-panel');
    const title = panel.getByRole('textbox', { name: /title/ });
    await title.fill('posts one, edited');
    expect(await panel.getByText('Your admin role lets you view this record').count()).toBe(0);

    // meanwhile a full admin takes update away
    const narrowed = SCOPED.editor.collections(ids).map((g) => (g.collection === ids.posts ? { ...g, update: false } : g));
    expect((await api('PATCH', `/api/outpost/roles/${SCOPED.editor.roleId}`, { name: 'Editors', areas: { logs: true, mail: true }, collections: narrowed })).status).toBe(200);
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Your admin role does not allow this. A full admin can change your role on Settings › Admins.').first().waitFor();
    // explained once, not as the server's raw message
    expect(await page.getByText('You are not allowed to perform this request.').count()).toBe(0);
    // the role read again: the form turns read-only, the page stays
    await panel.getByText('Your admin role lets you view this record, not change it.').waitFor();
    expect(page.url()).toContain(ids.posts);
    await screenshot(page, 'roles-scoped-403-explained');
    await page.context().close();
  }, 120_000);

  it("builder: edits the schema, and keeps a collection's record history from the collection editor's Options", async () => {
    const page = await signedIn(SCOPED.builder);
    await openDirect(page, `/collections?collectionId=${ids.notes}`);
    await page.getByText('notes one').first().waitFor();
    expect(await page.getByRole('button', { name: 'New record' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByRole('tab', { name: 'Options' }).click();
    const toggle = editor.locator('label.sf-toggle', { hasText: 'Keep the history of every change to its records' });
    await toggle.waitFor();
    expect(await editor.getByRole('switch', { name: /Keep the history/ }).isChecked()).toBe(false);
    await toggle.click();
    await screenshot(page, 'roles-scoped-history-option');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Successfully updated collection.').first().waitFor();
    expect((await api('GET', '/api/outpost/audit/options')).body.history).toEqual([ids.notes]);
    // opened again, the editor shows it on
    await page.getByRole('button', { name: 'Edit collection' }).click();
    await editor.getByRole('tab', { name: 'Options' }).click();
    await expect.poll(() => editor.getByRole('switch', { name: /Keep the history/ }).isChecked()).toBe(true);
    expect(await errorToasts(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("the editor's Options for a role that sees the schema only: shown, not switchable", async () => {
    const page = await signedIn(SCOPED.editor);
    await openDirect(page, `/collections?collectionId=${ids.posts}`);
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByRole('tab', { name: 'Options' }).click();
    await expect.poll(() => editor.getByRole('switch', { name: /Keep the history/ }).isDisabled()).toBe(true);
    expect(await editor.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await errorToasts(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});

describe('a full admin', () => {
  it("switches a collection's record history in the collection editor's Options", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.url, { email: FULL, password: PASSWORD });
    await openDirect(page, `/collections?collectionId=${ids.secret}`);
    await page.getByText('secret one').first().waitFor();
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByRole('tab', { name: 'Options' }).click();
    await editor.locator('label.sf-toggle', { hasText: 'Keep the history of every change to its records' }).click();
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Successfully updated collection.').first().waitFor();
    expect((await api('GET', `/api/outpost/audit/options/${ids.secret}`)).body).toEqual({ enabled: true, history: true });
    await context.close();
  }, 120_000);
});
