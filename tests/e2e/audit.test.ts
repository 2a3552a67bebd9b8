// The audit trail's screens (issue 36) in Debian's Chromium on the built server: #/audit from the
// sidebar lists the admin's changes, filters by who, collection, action and time, opens an
// entry's changed fields, exports JSON and CSV, sets the retention and a collection's record
// history, names its areas and actions in words (roles among them); the record editor's History tab shows who changed which field when, and puts an old
// value back into the form.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { label, launchBrowser, signIn } from '../helpers/browser';
import { buildServer } from '../helpers/pending-migrations';
import { DASHBOARD_DIR, http, tempDir } from '../helpers/server';
import { spawnServer, type ServerProcess } from '../helpers/server-process';

const ADMIN = { email: 'audit-e2e@example.com', password: 'audit-e2e-pass-1' };

let dir = '';
let server: ServerProcess;
let browser: Browser;
let page: Page;
let token = '';
let posts: { id: string; name: string };
let recordId = '';

const api = (method: string, p: string, body?: unknown) => http(server.url, method, p, { token, body });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  const main = buildServer('audit-e2e');
  dir = tempDir('outpost-e2e-audit-');
  const created = spawnSync(process.execPath, [main, 'admin', 'create', ADMIN.email, ADMIN.password, '--dir=pb_data'], { cwd: dir, encoding: 'utf8' });
  expect(created.stdout).toContain('Successfully created');
  server = await spawnServer(process.execPath, [main, 'serve', '--dir=pb_data'], dir);
  token = (await http(server.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  const res = await api('POST', '/api/collections', { name: 'posts', schema: [{ name: 'title', type: 'text' }, { name: 'score', type: 'number' }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  posts = res.body;
  recordId = (await api('POST', '/api/collections/posts/records', { title: 'first', score: 1 })).body.id;
  expect((await api('PATCH', `/api/collections/posts/records/${recordId}`, { title: 'second' })).status).toBe(200);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const rows = () => page.locator('.audit-list tbody tr.audit-row');
const rowTexts = () => rows().allInnerTexts();

describe('the audit screen', () => {
  it('is in the sidebar and lists the changes with who made them', async () => {
    await page.goto(`${server.url}/_/#/collections`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL(/#\/audit/);
    await expect.poll(() => page.title()).toContain('Audit trail');
    await expect.poll(() => rows().count()).toBeGreaterThanOrEqual(3);
    const texts = await rowTexts();
    // (the area and action in words: "Records · posts", "Update")
    expect(texts.some((t) => t.includes(ADMIN.email) && t.includes('Update') && t.includes('Records · posts'))).toBe(true);
    expect(texts.some((t) => t.includes('Collections') && t.includes('Create'))).toBe(true);
    // what is recorded, that secrets are masked, and who sees it, said above the filters
    const intro = (await page.locator('.audit-intro').textContent()) ?? '';
    expect(intro).toContain('every change made with an admin token');
    expect(intro).toContain('******');
    expect(intro).toContain('only full admins see this screen');
  });

  it('filters by action, collection, who and time', async () => {
    await page.getByLabel('Action', { exact: true }).selectOption('update');
    await expect.poll(async () => (await rowTexts()).every((t) => t.includes('Update'))).toBe(true);
    await expect.poll(() => rows().count()).toBe(1);
    await page.getByLabel('Collection', { exact: true }).selectOption('posts');
    expect(page.url()).toContain('collection=posts');
    await page.getByLabel('Who', { exact: true }).fill('nobody@');
    await page.getByLabel('Who', { exact: true }).press('Enter');
    await expect.poll(() => rows().count()).toBe(0);
    await expect(page.getByText('No entries match.')).toBeTruthy();
    await page.getByLabel('Who', { exact: true }).fill('audit-e2e');
    await page.getByLabel('Who', { exact: true }).press('Enter');
    await expect.poll(() => rows().count()).toBe(1);
    await page.getByLabel('From', { exact: true }).fill('2000-01-01T00:00');
    await page.getByLabel('To', { exact: true }).fill('2000-01-02T00:00');
    await expect.poll(() => rows().count()).toBe(0);
    await page.goto(`${server.url}/_/#/audit?action=update`);
    await expect.poll(() => rows().count()).toBe(1);
  });

  it("opens an entry's changed fields with old and new values", async () => {
    await rows().first().getByRole('button').click();
    const details = page.locator('.audit-details');
    await details.waitFor();
    expect(await details.locator('.audit-changes tbody tr').allInnerTexts()).toEqual(['title\tfirst\tsecond']);
  });

  it('exports what the filters match as JSON and CSV', async () => {
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(json.suggestedFilename()).toMatch(/^audit_\d+\.json$/);
    const entries = JSON.parse(fs.readFileSync((await json.path())!, 'utf8')) as Array<{ action: string; changes: unknown }>;
    expect(entries.map((e) => e.action)).toEqual(['update']);
    expect(entries[0].changes).toEqual({ title: { old: 'first', new: 'second' } });
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = fs.readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('id,created,area,action,collectionName,target,actorKind,actorId,actorEmail,ip,requestId,changes');
    expect(lines).toHaveLength(2);
  });

  it('sets the retention in its settings popup and turns a collection history on', async () => {
    await page.getByRole('button', { name: 'Audit trail settings' }).click();
    const input = page.getByLabel('Max days retention');
    await input.fill('30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Successfully saved audit trail settings.').waitFor();
    expect((await api('GET', '/api/settings')).body.audit).toEqual({ maxDays: 30 });

    await page.getByText('Record history per collection').click();
    // the switch is visually hidden inside its label: click what a user clicks
    await page.getByRole('group', { name: 'Record history of posts' }).locator('label.sf-toggle').click();
    await page.getByText('Record history of posts turned on.').waitFor();
    expect((await api('GET', '/api/outpost/audit/options')).body.history).toEqual([posts.id]);
  });

  it('names the areas and actions in words, roles among them, and filters to a role change', async () => {
    const role = await api('POST', '/api/outpost/roles', { name: 'Reviewers', areas: { logs: true } });
    expect(role.status).toBe(200);
    await page.goto('about:blank');
    await page.goto(`${server.url}/_/#/audit`);
    const area = page.getByLabel('Area', { exact: true });
    // (read once the screen drew its filters: right after the navigation there may be none yet)
    await expect.poll(() => area.locator('option').allInnerTexts()).toEqual(['Any', 'Records', 'Collections', 'Settings', 'Admins', 'Roles', 'Backups']);
    await area.selectOption({ label: 'Roles' });
    await expect.poll(() => page.url()).toContain('area=role');
    await expect.poll(() => rows().count()).toBe(1);
    expect((await rowTexts())[0]).toContain(role.body.id);
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Role given or taken' });
    await expect.poll(() => page.url()).toContain('action=assign');
    await expect.poll(() => rows().count()).toBe(0);
  });
});

describe("the record editor's History tab", () => {
  const panel = () => page.locator('.record-editor-panel');

  it('shows who changed which fields when, and copies an old value back into the form', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}/_/#/collections?collectionId=${posts.id}&recordId=${recordId}`);
    await panel().getByText('Edit posts record').waitFor();
    await panel().getByRole('tab', { name: 'History' }).click();
    const entries = panel().locator('.record-history-entry');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.first().innerText()).toContain('update');
    expect(await entries.first().innerText()).toContain(ADMIN.email);
    expect(await entries.first().locator('.audit-changes tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/^title\tfirst\tsecond/)]);

    await entries.first().getByRole('button', { name: 'Use the old value of title' }).click();
    await page.getByText('The old value of title is in the form').waitFor();
    expect(await panel().getByRole('tab', { name: 'Fields' }).getAttribute('aria-selected')).toBe('true');
    const title = panel().locator('[data-field="record-editor-form_title"]').getByLabel(label('title'));
    await expect.poll(() => title.inputValue()).toBe('first');
    await panel().getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await api('GET', `/api/collections/posts/records/${recordId}`)).body.title).toBe('first');

    await page.goto('about:blank');
    await page.goto(`${server.url}/_/#/collections?collectionId=${posts.id}&recordId=${recordId}`);
    await panel().getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => entries.count()).toBe(3);
    expect(await entries.first().locator('.audit-changes tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/^title\tsecond\tfirst/)]);
  });
});
