// A scoped admin's record editor (issue 36) where the record points at a collection its role does
// not read, and a protected file, in Chromium against the real server: the page asks nothing the
// server refuses (no 403 met, so no toast to explain), says nothing false about the relation's
// target (it exists, the role does not show it), and a protected file's thumb is asked for with a
// file token (without one it answered 403, for full admins too).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, http, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let fullToken = '';
const PASSWORD = '1234567890';
const ids: Record<string, string> = {};
let postId = '';
let editorRole = '';
// a 1x1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const api = (method: string, url: string, body?: unknown) => http(server.url, method, url, { token: fullToken, body });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  server = await startServer({ dashboard: true });
  await http(server.url, 'POST', '/api/admins', { body: { email: 'full@example.com', password: PASSWORD, passwordConfirm: PASSWORD } });
  fullToken = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: 'full@example.com', password: PASSWORD } })).body.token;
  const users = await api('GET', '/api/collections/users');
  ids.users = users.body.id;
  const fields = [
    { name: 'title', type: 'text' },
    { name: 'author', type: 'relation', options: { collectionId: ids.users, maxSelect: 1 } },
    { name: 'doc', type: 'file', options: { maxSelect: 1, maxSize: 100000, protected: true, thumbs: [] } },
  ];
  const posts = await api('POST', '/api/collections', { name: 'posts', schema: fields });
  expect(posts.status, JSON.stringify(posts.body)).toBe(200);
  ids.posts = posts.body.id;
  const user = await api('POST', '/api/collections/users/records', { email: 'author@example.com', password: PASSWORD, passwordConfirm: PASSWORD, name: 'Author' });
  const form = new FormData();
  form.append('title', 'hello');
  form.append('author', user.body.id);
  form.append('doc', new Blob([PNG], { type: 'image/png' }), 'pic.png');
  const post = await fetch(`${server.url}/api/collections/posts/records`, { method: 'POST', headers: { Authorization: fullToken }, body: form });
  postId = ((await post.json()) as { id: string }).id;
  const editor = await api('POST', '/api/admins', { email: 'editor@example.com', password: PASSWORD, passwordConfirm: PASSWORD });
  const role = await api('POST', '/api/outpost/roles', { name: 'Editors', areas: {}, collections: [{ collection: ids.posts, read: true, update: true }] });
  editorRole = role.body.id;
  expect((await api('PUT', `/api/outpost/admin-roles/${editor.body.id}`, { role: editorRole })).status).toBe(200);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A signed-in page that notes every answer of 400 and above from the API. */
async function signedIn(email: string): Promise<{ page: Page; refused: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const refused: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400 && res.url().includes('/api/')) refused.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  await signIn(page, server.url, { email, password: PASSWORD });
  return { page, refused };
}

const errorToasts = (page: Page) => page.locator('.toast-error .toast-message').allTextContents();

describe("a scoped admin's record editor", () => {
  it('asks nothing of a collection its role does not read, and calls the relation target neither missing nor broken', async () => {
    const { page, refused } = await signedIn('editor@example.com');
    await page.goto(`${server.url}/_/#/collections?collectionId=${ids.posts}`);
    await page.getByText('hello').first().waitFor();
    expect(await page.locator('.records-collection-problems').count()).toBe(0);
    await page.goto(`${server.url}/_/#/collections?collectionId=${ids.posts}&recordId=${postId}`);
    const chips = page.locator('.record-relation-chips');
    await chips.first().waitFor();
    await page.waitForTimeout(1500);
    // the author's id, as it is stored (no label: its record is not the role's to read)
    expect(await chips.first().textContent()).toContain((await api('GET', `/api/collections/posts/records/${postId}`)).body.author);
    expect(await page.locator('.record-relation-warning').count()).toBe(0);
    // the protected file's thumb came with a file token
    await page.locator('img.record-file-thumb').first().waitFor();
    expect(await page.locator('img.record-file-thumb').first().getAttribute('src')).toContain('token=');
    await screenshot(page, 'roles-relations-editor-record');
    expect(await errorToasts(page)).toEqual([]);
    expect(refused).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("a full admin's editor shows the protected file's thumb without a refused request", async () => {
    const { page, refused } = await signedIn('full@example.com');
    await page.goto(`${server.url}/_/#/collections?collectionId=${ids.posts}&recordId=${postId}`);
    const thumb = page.locator('img.record-file-thumb').first();
    await thumb.waitFor();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.waitForTimeout(1000);
    expect(refused).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("its collection with a relation into a collection it does not see saves; a rule reaching that one is refused with the server's reason", async () => {
    expect((await api('PATCH', `/api/outpost/roles/${editorRole}`, { collections: [{ collection: ids.posts, read: true, update: true, schema: 'edit' }] })).status).toBe(200);
    const { page } = await signedIn('editor@example.com');
    await page.goto(`${server.url}/_/#/collections?collectionId=${ids.posts}`);
    await page.getByRole('button', { name: 'Edit collection' }).click();
    const editor = page.locator('.collection-editor-panel');
    await editor.getByRole('tab', { name: 'API Rules' }).click();
    const rules = editor.locator('.rules-tab');
    await rules.locator('[data-field="collection-rules-form_listRule"]').getByRole('button', { name: 'Unlock and set custom rule' }).click();
    await rules.locator('.ace_editor').first().waitFor();
    await rules.getByRole('textbox', { name: /^List\/Search rule\b/ }).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('author.email ~ "a"');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    // (a confirmation of the rule change may come first)
    const confirm = page.getByRole('button', { name: 'Confirm' });
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await page.locator('.toast-error .toast-message').filter({ hasText: 'Your role may not read "users"' }).first().waitFor();
    await screenshot(page, 'roles-relations-rule-refused');
    expect((await api('GET', `/api/collections/posts`)).body.listRule).toBeNull();
    // its own fields: saved (the relation's target is not called missing before the request)
    await rules.getByRole('textbox', { name: /^List\/Search rule\b/ }).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('title != ""');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await expect.poll(async () => (await api('GET', `/api/collections/posts`)).body.listRule).toBe('title != ""');
    await page.context().close();
  }, 120_000);
});
