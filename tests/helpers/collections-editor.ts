// Set-up shared by the collection editor tests (tests/e2e/collections-editor-*.test.ts): the real
// server with the dashboard, an admin signed in through the API (`api`) and in Chromium (`page`),
// and the editor's controls.
import { beforeAll, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type PocketBase from 'pocketbase';
import { dashboardSession } from './dashboard-session';

export let page: Page;
export let api: PocketBase;

const ADMIN = { email: 'collections@example.com', password: 'collections-pass-1' };

/**
 * Starts the server and the signed-in page before the file's tests, stops them after
 * (tests/helpers/dashboard-session.ts). `seed` makes collections through the API before the page
 * signs in.
 */
export function withCollectionsEditor(seed?: (api: PocketBase) => Promise<unknown>) {
  const session = dashboardSession({ admin: ADMIN, viewport: { width: 1280, height: 900 }, seed });
  beforeAll(() => {
    ({ page, api } = session);
  });
}

export const editor = () => page.locator('.collection-editor-panel');
export const openRow = () => editor().locator('.field-row--open');

export async function toast(text: string) {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor();
}

export async function openCollection(name: string) {
  await page.getByRole('navigation', { name: 'Collections list' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Edit collection' }).click();
  await editor().getByText('Edit collection', { exact: true }).waitFor();
}

export async function addField(type: string, name: string) {
  await editor().getByRole('button', { name: 'New field' }).click();
  await page.getByRole('menuitem', { name: type, exact: true }).click();
  const input = openRow().getByRole('textbox', { name: /^Field name/ });
  await input.waitFor();
  await input.fill(name);
  return openRow();
}

/** Turns a toggle (a visually hidden switch inside its label) on by clicking its label. */
export async function switchOn(scope: Locator, name: string) {
  const sw = scope.getByRole('switch', { name, exact: true });
  if (!(await sw.isChecked())) {
    await scope.locator('label.sf-toggle').filter({ has: page.locator('.sf-toggle-label', { hasText: new RegExp(`^${name}$`) }) }).click();
  }
  expect(await sw.isChecked()).toBe(true);
}

/** Types into an ace editor (or its stand-in textarea) found by its label. */
export async function typeCode(scope: Locator, labelText: string, text: string) {
  // wait for ace (loaded on demand) to replace its stand-in
  await scope.locator('.ace_editor').first().waitFor();
  // ace names its input '<label>, Cursor at row N'
  const input = scope.getByRole('textbox', { name: new RegExp(`^${labelText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) });
  await input.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}
