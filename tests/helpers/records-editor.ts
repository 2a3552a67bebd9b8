// Set-up shared by the record editor tests (tests/e2e/records-editor-*.test.ts): the real server
// with a 'posts' collection of every field type (relations to 'tags') and a 'members' auth
// collection, Chromium signed in (dialogs and console errors recorded), and the editor's controls.
import { beforeAll, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { screenshot, signIn } from './browser';
import { dashboardSession } from './dashboard-session';

const ADMIN = { email: 'editor@example.com', password: 'editor-pass-123' };

export let url: string;
export let api: PocketBase;
export let page: Page;
export let posts: { id: string; name: string };
export let members: { id: string; name: string };
export const tagIds: string[] = [];
export const dialogs: string[] = [];
export const consoleErrors: string[] = [];

/**
 * Starts the server, its collections and the page before the file's tests, stops them after
 * (tests/helpers/dashboard-session.ts); the page signs in once it records dialogs and console errors.
 */
export function withEditorPage() {
  const session = dashboardSession({
    admin: ADMIN,
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
    signIn: false,
    seed: async (client) => {
      const tags = await client.collections.create({ name: 'tags', type: 'base', schema: [{ name: 'name', type: 'text', presentable: true }] });
      for (const name of ['alpha', 'beta', 'gamma']) tagIds.push((await client.collection('tags').create({ name })).id);
      posts = await client.collections.create({
        name: 'posts',
        type: 'base',
        schema: [
          { name: 'title', type: 'text', required: true, options: { min: 2 } },
          { name: 'body', type: 'editor' },
          { name: 'views', type: 'number', options: { min: 0, max: 1000 } },
          { name: 'published', type: 'bool' },
          { name: 'contact', type: 'email' },
          { name: 'homepage', type: 'url' },
          { name: 'day', type: 'date' },
          { name: 'status', type: 'select', options: { maxSelect: 1, values: ['draft', 'live', 'gone'] } },
          { name: 'labels', type: 'select', options: { maxSelect: 2, values: ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7'] } },
          { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
          { name: 'cover', type: 'file', options: { maxSelect: 1, maxSize: 5242880, mimeTypes: ['image/png', 'image/jpeg'], thumbs: ['50x50'] } },
          { name: 'tag', type: 'relation', options: { collectionId: tags.id, maxSelect: 1 } },
          { name: 'related', type: 'relation', options: { collectionId: tags.id, maxSelect: 2 } },
        ],
      });
      members = await client.collections.create({
        name: 'members',
        type: 'auth',
        schema: [{ name: 'nick', type: 'text' }],
        options: { allowEmailAuth: true, allowUsernameAuth: true, allowOAuth2Auth: true, minPasswordLength: 8, requireEmail: true },
      });
    },
  });
  beforeAll(async () => {
    ({ url, api, page } = session);
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await signIn(page, url, ADMIN);
  });
}

export const panel = () => page.locator('.record-editor-panel');
export const field = (name: string) => panel().locator(`[data-field="record-editor-form_${name}"]`);

export async function toast(text: string) {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor();
}

export async function openNew(collection: { id: string; name: string }) {
  await page.goto('about:blank');
  await page.goto(`${url}/_/#/collections?collectionId=${collection.id}`);
  await page.getByRole('button', { name: 'New record' }).first().click();
  await panel().getByText(`New ${collection.name} record`).waitFor();
}

export async function openRecord(collection: { id: string; name: string }, id: string) {
  // a fresh page load: whatever panel was open goes
  await page.goto('about:blank');
  await page.goto(`${url}/_/#/collections?collectionId=${collection.id}&recordId=${id}`);
  await panel().getByText(`Edit ${collection.name} record`).waitFor();
  // the record reloaded and the form rebuilt from it
  await expect.poll(() => panel().locator(`input[value="${id}"]`).count()).toBe(1);
}

/** Pastes HTML into the rich editor of a field through the real clipboard and Ctrl+V. */
export async function pasteHtml(target: Locator, html: string) {
  await page.evaluate(async (h) => {
    await navigator.clipboard.write([
      new ClipboardItem({ 'text/html': new Blob([h], { type: 'text/html' }), 'text/plain': new Blob(['plain'], { type: 'text/plain' }) }),
    ]);
  }, html);
  await target.click();
  await page.keyboard.press('Control+V');
}

export async function pickOption(name: string, option: string) {
  await field(name).locator('.record-select-button').click();
  await field(name).getByRole('option', { name: option }).getByRole('button').click();
}

export async function typeAce(name: string, text: string) {
  const editor = field(name).locator('.ace_editor');
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

export async function pickRelations(name: string, targetName: string, labels: string[]) {
  await field(name).locator('.record-relation-open').click();
  const picker = page.getByRole('dialog', { name: `Select ${targetName} records` });
  await picker.waitFor();
  for (const l of labels) await picker.getByRole('option', { name: new RegExp(`^${l}\\b`) }).click();
  await screenshot(page, `records-editor-picker-${name}`);
  await picker.getByRole('button', { name: 'Set selection' }).click();
  await picker.waitFor({ state: 'detached' });
}
