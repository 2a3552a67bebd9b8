// Hostile rich text (editor field) never reaches the live document: a stored value and a paste
// are parsed in an inert DOMParser document and rebuilt from the whitelist before slate renders
// anything. Run with the page's CSP bypassed, so nothing here passes because the CSP blocked a
// handler: a MutationObserver installed before the app's code records every element ever attached
// to the live document, and none may carry an event handler attribute, the payload's code, or a
// frame or media element. (Chromium reports a CSP violation for any DOM parse of such markup, DOMParser and
// <template> included, when the page has a CSP: that is a report made while parsing inertly, not
// a handler run; this test runs without the CSP to show the difference.)
import path from 'node:path';
import fs from 'node:fs';
import PocketBase from 'pocketbase';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type App } from '../../server/app';
import { launchBrowser, signIn } from '../helpers/browser';
import { DASHBOARD_DIR, tempDir } from '../helpers/server';

const ADMIN = { email: 'inert@example.com', password: 'inert-pass-123' };
const HOSTILE =
  '<p>hello <b>world</b></p><img src="x-hostile" onerror="window.__xss=1">' +
  '<svg onload="window.__xss=2"><circle r="1"/></svg><iframe srcdoc="<script>parent.__xss=3</script>"></iframe>' +
  '<script>window.__xss=4</script><a href="javascript:window.__xss=5" onclick="window.__xss=6">link</a>' +
  '<details open ontoggle="window.__xss=7">d</details><video><source onerror="window.__xss=8"></video>';

let app: App;
let url: string;
let dataDir: string;
let browser: Browser;
let page: Page;
let collectionId = '';
let recordId = '';

beforeAll(async () => {
  dataDir = path.join(tempDir(), 'pb_data');
  app = await createApp({ dataDir, dashboardDir: DASHBOARD_DIR });
  url = await app.listen('127.0.0.1', 0);
  const api = new PocketBase(url);
  api.autoCancellation(false);
  await api.admins.create({ email: ADMIN.email, password: ADMIN.password, passwordConfirm: ADMIN.password });
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  collectionId = (await api.collections.create({ name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }, { name: 'body', type: 'editor' }] })).id;
  recordId = (await api.collection('notes').create({ title: 'hostile', body: HOSTILE })).id;

  browser = await launchBrowser();
  const context = await browser.newContext({ bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  // before any of the app's code: every element attached to the live document, as it was attached
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __attached: string[] }).__attached = seen;
    const check = (el: Element) => {
      // an event handler attribute, a frame, or anything carrying the payload's code (the app's own
      // scripts and SVG icons are fine)
      const bad =
        Array.from(el.attributes).some((a) => /^on/i.test(a.name) || /__xss|javascript:/i.test(a.value)) ||
        /^(iframe|video|source|details)$/i.test(el.tagName) ||
        (/^script$/i.test(el.tagName) && /__xss/.test(el.textContent ?? ''));
      if (bad) seen.push(el.outerHTML.slice(0, 200));
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes' && r.target instanceof Element) check(r.target);
        for (const n of Array.from(r.addedNodes)) {
          if (!(n instanceof Element)) continue;
          check(n);
          n.querySelectorAll('*').forEach(check);
        }
      }
    }).observe(document, { childList: true, subtree: true, attributes: true });
  });
  page = await context.newPage();
  await signIn(page, url, ADMIN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const attached = () => page.evaluate(() => (window as unknown as { __attached: string[] }).__attached);
const xss = () => page.evaluate(() => (window as unknown as { __xss?: number }).__xss);

it('opens a stored hostile value: only the whitelisted structure is ever attached', async () => {
  await page.goto(`${url}/_/#/collections?collectionId=${collectionId}&recordId=${recordId}`);
  const editor = page.locator('[data-slate-editor]').first();
  await editor.getByText('world').waitFor();
  await page.waitForTimeout(500);
  expect(await attached()).toEqual([]);
  expect(await xss()).toBeUndefined();
  // what the editor shows: the text and the image (no handler), the link without javascript:
  expect(await editor.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttributeNames().sort().join(',')))).toEqual(['alt,src']);
  expect(await editor.locator('a[href^="javascript"]').count()).toBe(0);
});

it('pastes hostile HTML: parsed inertly, nothing executable attached', async () => {
  const editor = page.locator('[data-slate-editor]').first();
  await page.evaluate(async (h) => {
    await navigator.clipboard.write([new ClipboardItem({ 'text/html': new Blob([h], { type: 'text/html' }), 'text/plain': new Blob(['plain'], { type: 'text/plain' }) })]);
  }, HOSTILE.replace('world', 'pasted'));
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+V');
  await editor.getByText('pasted').waitFor();
  await page.waitForTimeout(500);
  expect(await attached()).toEqual([]);
  expect(await xss()).toBeUndefined();
});
