// The live records list and the API docs overlay in Chromium against the real server (a copy
// of the fixture): two browser contexts signed in as admins look at the same collection; a
// record created through the API in one is announced live in the other and shown on 'Show'; a
// change made in one while the other has the record open in a dirty editor brings the
// 'changed elsewhere' warning (and saving asks before overwriting); a delete greys the row out.
// Then the API docs overlay of an auth and a view collection: the right tabs and field names.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn, injectAxe } from '../helpers/browser';
import { DASHBOARD_DIR, FIXTURE_PASSWORD, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'test@example.com', password: FIXTURE_PASSWORD };
/** expect.poll with room for a loaded machine (its default gives up after 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });

let srv: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, srv.url, ADMIN);
  return page;
}

/** A request from inside the page with its admin session (as a script in that browser would). */
function apiFromPage(page: Page, method: string, p: string, body?: unknown) {
  return page.evaluate(
    async ({ method, p, body }) => {
      const auth = JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}');
      const res = await fetch(p, {
        method,
        headers: { Authorization: auth.token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    { method, p, body },
  );
}


/** WCAG 2 A/AA violations inside `selector` (axe-core), as "rule: target" lines. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async (sel) => {
    type Result = { violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<Result> } }).axe;
    const result = await axe.run(sel, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  }, selector);
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  srv = await startServer({ fixture: true, dashboard: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await srv?.close();
});

describe('live records list', () => {
  it('announces a record created in another context, updates and greys out rows, and warns an open editor', async () => {
    const writer = await openPage();
    const reader = await openPage();
    for (const page of [writer, reader]) {
      await page.goto(`${srv.url}/_/#/collections?collectionId=sz5l5z67tg7gku0`);
      await page.locator('tr[data-id="llvuca81nly1qls"]').waitFor();
    }
    const rows = reader.locator('.records-table tbody tr.rl-row');
    const before = await rows.count();

    // a create through the API from the writer's browser: announced, not inserted under the reader
    const created = await apiFromPage(writer, 'POST', '/api/collections/demo2/records', { title: 'live-created' });
    expect(created.status).toBe(200);
    const notice = reader.getByRole('status').filter({ hasText: '1 new record' });
    await notice.waitFor();
    expect(await rows.count()).toBe(before);
    await screenshot(reader, 'records-live-announced');
    expect(await axeViolations(reader, '.records-live-notice')).toEqual([]);
    await notice.getByRole('button', { name: 'Show' }).click();
    await poll(() => reader.locator(`tr[data-id="${created.body.id}"]`).count()).toBe(1);
    await poll(() => rows.first().getAttribute('data-id')).toBe(created.body.id);
    await poll(() => reader.locator('.records-footer').textContent()).toContain(`Total found: ${before + 1}`);

    // a change elsewhere updates the row in place
    const row = reader.locator('tr[data-id="achvryl401bhse3"]');
    const index = await row.evaluate((el) => [...el.parentElement!.children].indexOf(el));
    expect((await apiFromPage(writer, 'PATCH', '/api/collections/demo2/records/achvryl401bhse3', { title: 'live-renamed' })).status).toBe(200);
    await poll(() => row.textContent()).toContain('live-renamed');
    expect(await row.evaluate((el) => [...el.parentElement!.children].indexOf(el))).toBe(index);

    // the reader edits a record; the writer changes it meanwhile: the editor warns
    await reader.locator(`tr[data-id="${created.body.id}"]`).click();
    const editor = reader.getByRole('dialog', { name: 'Edit demo2 record' });
    const title = editor.getByLabel(/^title/);
    await poll(() => title.inputValue()).toBe('live-created');
    await title.fill('my local edit');
    expect((await apiFromPage(writer, 'PATCH', `/api/collections/demo2/records/${created.body.id}`, { title: 'their edit' })).status).toBe(200);
    const warning = editor.getByRole('alert').filter({ hasText: 'This record was changed elsewhere after you opened it.' });
    await warning.waitFor();
    await screenshot(reader, 'records-live-changed-elsewhere');
    // saving asks before overwriting; declining keeps the server's version
    await editor.getByRole('button', { name: 'Save changes' }).click();
    const confirmPopup = reader.getByText('This record was changed elsewhere. Do you really want to overwrite those changes?');
    await confirmPopup.waitFor();
    await reader.getByRole('button', { name: 'No', exact: true }).click();
    const stored = await apiFromPage(writer, 'GET', `/api/collections/demo2/records/${created.body.id}`);
    expect(stored.body.title).toBe('their edit');
    // 'Load the new version' drops the local edit
    await warning.getByRole('button', { name: 'Load the new version' }).click();
    await reader.getByRole('button', { name: 'Yes', exact: true }).click();
    await poll(() => title.inputValue()).toBe('their edit');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'hidden' });

    // a delete elsewhere greys the row out where it stands
    expect((await apiFromPage(writer, 'DELETE', '/api/collections/demo2/records/0yxhwia2amd8gec')).status).toBe(204);
    await reader.locator('tr.row-deleted[data-id="0yxhwia2amd8gec"]').waitFor();
    await poll(() => reader.locator('.records-footer').textContent()).toContain(`Total found: ${before}`);
    await screenshot(reader, 'records-live-deleted');
    // (the list's own header, badge and footer colours are checked with the list, not here)
    expect(await axeViolations(reader, 'tr.row-deleted')).toEqual([]);
  });
});

describe('a flood of creates elsewhere', () => {
  it('counts 300 new records, keeping only ids past 200, and Show loads the list again', async () => {
    const writer = await openPage();
    const reader = await openPage();
    for (const page of [writer, reader]) {
      await page.goto(`${srv.url}/_/#/collections?collectionId=sz5l5z67tg7gku0`);
      await page.locator('tr[data-id="llvuca81nly1qls"]').waitFor();
    }
    const footer = reader.locator('.records-footer');
    const before = Number((await footer.textContent())!.match(/Total found: (\d+)/)![1]);
    const created = await writer.evaluate(async () => {
      const auth = JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}');
      const ids: string[] = [];
      for (let i = 0; i < 300; i += 30) {
        const batch = await Promise.all(
          Array.from({ length: 30 }, (_, j) =>
            fetch('/api/collections/demo2/records', {
              method: 'POST',
              headers: { Authorization: auth.token, 'Content-Type': 'application/json' },
              body: JSON.stringify({ title: `flood-${i + j}` }),
            }).then((r) => r.json()),
          ),
        );
        ids.push(...batch.map((r: { id: string }) => r.id));
      }
      return ids;
    });
    expect(created).toHaveLength(300);
    const notice = reader.getByRole('status').filter({ hasText: '300 new records' });
    await notice.waitFor({ timeout: 20_000 });
    await poll(() => footer.textContent()).toContain(`Total found: ${before + 300}`);
    // past 200 announced records only their ids are kept: Show loads the list again
    const reload = reader.waitForRequest((r) => r.url().includes('/api/collections/sz5l5z67tg7gku0/records?') || r.url().includes('/api/collections/demo2/records?'));
    await notice.getByRole('button', { name: 'Show' }).click();
    await reload;
    await notice.waitFor({ state: 'hidden' });
    // newest first (the last batch of 30 was created in parallel, possibly within one millisecond)
    await poll(async () => created.slice(-30).includes((await reader.locator('.records-table tbody tr.rl-row').first().getAttribute('data-id'))!)).toBe(true);
    for (const page of [writer, reader]) await page.context().close();
  });
});

describe('API docs overlay', () => {
  const BASE = ['List/Search', 'View', 'Create', 'Update', 'Delete', 'Realtime'];
  const AUTH = [
    'Auth with password',
    'Auth with OAuth2',
    'Auth refresh',
    'Request verification',
    'Confirm verification',
    'Request password reset',
    'Confirm password reset',
    'Request email change',
    'Confirm email change',
    'List auth methods',
    'List OAuth2 accounts',
    'Unlink OAuth2 account',
  ];

  it('shows the 6 + 12 tabs of an auth collection with its fields and rules, keyboard reachable', async () => {
    const page = await openPage();
    await page.goto(`${srv.url}/_/#/collections?collectionId=_pb_users_auth_`);
    await page.getByRole('button', { name: 'API Preview' }).click();
    const panel = page.getByRole('dialog', { name: 'users API' });
    await panel.waitFor();
    const tabs = panel.getByRole('tab');
    expect(await tabs.allTextContents()).toEqual([...BASE, ...AUTH]);

    // List/Search: the rule in words (null list rule) and the record's fields
    const body = panel.getByRole('tabpanel');
    await body.getByRole('heading', { name: 'List/Search (users)' }).waitFor();
    await poll(() => body.textContent()).toContain('Admins only');
    for (const field of ['name', 'avatar', 'file', 'rel', 'username', 'email', 'verified']) {
      await body.locator('table code', { hasText: new RegExp(`^${field}$`) }).first().waitFor();
    }
    await screenshot(page, 'api-docs-auth-list');

    // arrow keys move along the tabs; Create lists the body with the relation target by name
    await tabs.first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await poll(() => panel.getByRole('tab', { selected: true }).textContent()).toBe('Create');
    await body.getByRole('heading', { name: 'Create (users)' }).waitFor();
    await poll(() => body.textContent()).toContain('id of a record of "demo2"');
    await poll(() => body.textContent()).toContain("pb.collection('users').create(data)");

    // View shows its rule as code; auth tabs have their endpoints
    await panel.getByRole('tab', { name: 'View' }).click();
    await poll(() => body.textContent()).toContain('id = @request.auth.id');
    await panel.getByRole('tab', { name: 'Auth with password' }).click();
    await poll(() => body.textContent()).toContain('/api/collections/users/auth-with-password');
    await panel.getByRole('tab', { name: 'Realtime' }).click();
    await poll(() => body.textContent()).toContain("pb.collection('users').subscribe('*'");
    await screenshot(page, 'api-docs-auth-realtime');
    expect(await axeViolations(page, '.api-docs-panel')).toEqual([]);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });

  it('shows only List/Search and View for a view collection, with its fields', async () => {
    const page = await openPage();
    await page.goto(`${srv.url}/_/#/collections?collectionId=v9gwnfh02gjq1q0`);
    await page.getByRole('button', { name: 'API Preview' }).click();
    const panel = page.getByRole('dialog', { name: 'view1 API' });
    await panel.waitFor();
    expect(await panel.getByRole('tab').allTextContents()).toEqual(['List/Search', 'View']);
    const body = panel.getByRole('tabpanel');
    for (const field of ['text', 'bool', 'url', 'select_one', 'select_many', 'file_one', 'rel_many', 'json']) {
      await body.locator('table code', { hasText: new RegExp(`^${field}$`) }).first().waitFor();
    }
    await poll(() => body.textContent()).toContain('@request.auth.id != "" && bool = true');
    await screenshot(page, 'api-docs-view');
  });
});
