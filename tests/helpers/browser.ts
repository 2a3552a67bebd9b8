// Debian's Chromium through playwright-core (never a downloaded browser).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ROOT } from './server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(ROOT, 'tests', '.tmp', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Saves a full-page screenshot under tests/.tmp/screenshots/ (look at them). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A field's accessible name: its label, optionally followed by the required marker ' *'. */
export const label = (text: string): RegExp => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

/** Signs an admin in through the sign-in page and waits for the collections page. */
export async function signIn(page: Page, baseUrl: string, admin: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/_/#/login`);
  await page.getByLabel(label('Email')).fill(admin.email);
  await page.getByLabel(label('Password')).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/#\/collections/);
}

let axeSource: string | undefined;
/** Puts axe-core into the page through the debugging protocol (the dashboard's CSP forbids a script tag). */
export async function injectAxe(page: Page): Promise<void> {
  axeSource ??= fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
}

/**
 * Replaces the text of an ace editor (`editor`: its .ace_editor element) as a user would: a click,
 * select all, delete, the new text inserted like a paste, and Escape for a completion it opened.
 */
export async function replaceAceText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}
