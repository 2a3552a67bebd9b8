// Settings › Hooks in Chromium on the built server with a pb_hooks folder: reached from the
// settings sidebar, it lists the files, the hooks with their tags and whether Outpost fires them,
// the routes with their middlewares, the cron jobs with their next run, and, after a handler threw,
// the error with its file, line and stack trace (opened with the keyboard); a change to the files
// that does not load is shown above the hooks that keep running. axe finds nothing
// serious in the light and the dark theme (screenshots of both). Against PocketBase (the route
// answers 404) the page says the information is not available, without an error toast.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { axeSerious, bodyBg, DARK_BG, LIGHT_BG } from '../helpers/page-checks';
import { buildServer } from '../helpers/pending-migrations';
import { DASHBOARD_DIR, tempDir } from '../helpers/server';
import { spawnServer, type ServerProcess } from '../helpers/server-process';
import { FIRED } from '../../server/hooks/hook-names';

const ADMIN = { email: 'hooks-screen@example.com', password: 'hooks-screen-pass-1' };

const MAIN_PB = `/// <reference path="../pb_data/types.d.ts" />
onRecordBeforeCreateRequest((e) => {
  e.record.set("title", e.record.get("title").trim());
}, "notes");
onRecordAfterCreateRequest((e) => {}, "notes", "tasks");
onTerminate((e) => {});

routerAdd("GET", "/hello/:name", (c) => c.json(200, { hi: c.pathParam("name") }));
routerAdd("POST", "/api/notes/import", (c) => c.json(200, {}), $apis.requireAdminAuth());
routerAdd("GET", "/boom", (c) => {
  throw new Error("the report service is down");
});
`;
const JOBS_PB = `/// <reference path="../pb_data/types.d.ts" />
cronAdd("nightly-cleanup", "0 3 * * *", () => {});
`;

let dir = '';
let server: ServerProcess;
let browser: Browser;
let page: Page;

/** Switches the color scheme and waits for the colors' transitions to end (axe reads the colors). */
async function theme(scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => bodyBg(page)).toBe(scheme === 'dark' ? DARK_BG : LIGHT_BG);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

const section = (name: string) => page.getByRole('table', { name: new RegExp(`^${name}`) });

beforeAll(async () => {
  if (!fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('Run `npx vite build` before the e2e tests.');
  const main = buildServer('settings-hooks-e2e');
  dir = tempDir('outpost-e2e-hooks-');
  fs.mkdirSync(path.join(dir, 'pb_hooks'));
  fs.writeFileSync(path.join(dir, 'pb_hooks', 'main.pb.js'), MAIN_PB);
  fs.writeFileSync(path.join(dir, 'pb_hooks', 'jobs.pb.js'), JOBS_PB);
  const created = spawnSync(process.execPath, [main, 'admin', 'create', ADMIN.email, ADMIN.password, '--dir=pb_data'], { cwd: dir, encoding: 'utf8' });
  expect(created.stdout).toContain('Successfully created');
  server = await spawnServer(process.execPath, [main, 'serve', '--dir=pb_data'], dir);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, server.url, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('Settings › Hooks', () => {
  it('is reached from the settings sidebar and lists the files, hooks, routes and cron jobs', async () => {
    await page.goto(`${server.url}/_/#/settings`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Hooks', exact: true }).click();
    await page.waitForURL(/#\/settings\/hooks$/);
    await expect.poll(() => page.title()).toMatch(/^Hooks/);

    const files = section('Files');
    await files.getByRole('row').filter({ hasText: 'main.pb.js' }).waitFor();
    expect(await files.getByRole('row').allInnerTexts()).toEqual(['File\tHooks\tRoutes\tCron jobs', 'jobs.pb.js\t0\t0\t1', 'main.pb.js\t3\t3\t0']);
    await page.getByText(path.join(dir, 'pb_hooks'), { exact: true }).waitFor();

    const hooks = section('Hooks');
    const before = hooks.getByRole('row').filter({ hasText: 'onRecordBeforeCreateRequest' });
    expect(await before.getByText('notes', { exact: true }).count()).toBe(1);
    expect(await before.getByText('Runs', { exact: true }).count()).toBe(1);
    const after = hooks.getByRole('row').filter({ hasText: 'onRecordAfterCreateRequest' });
    expect(await after.locator('.hooks-tag').allInnerTexts()).toEqual(['notes', 'tasks']);
    const terminate = hooks.getByRole('row').filter({ hasText: 'onTerminate' });
    expect(await terminate.getByText(FIRED.has('onTerminate') ? 'Runs' : 'Not fired by Outpost yet', { exact: true }).count()).toBe(1);
    // the record handlers touch only their event: they run on the main thread, and say why on hover
    for (const row of [before, after]) expect(await row.getByText('on the main thread', { exact: true }).getAttribute('title')).toMatch(/^It cannot block/);
    expect(await terminate.getByText('on the main thread', { exact: true }).count()).toBe(0);

    const routes = section('Routes');
    expect(await routes.getByRole('row').filter({ hasText: '/hello/:name' }).getByText('GET', { exact: true }).count()).toBe(1);
    const imported = routes.getByRole('row').filter({ hasText: '/api/notes/import' });
    expect(await imported.getByText('POST', { exact: true }).count()).toBe(1);
    expect(await imported.getByText('$apis.requireAdminAuth()', { exact: true }).count()).toBe(1);

    const crons = section('Cron jobs');
    const nightly = crons.getByRole('row').filter({ hasText: 'nightly-cleanup' });
    expect(await nightly.getByText('0 3 * * *', { exact: true }).count()).toBe(1);
    expect(await nightly.getByText('Not run yet').count()).toBe(1);
    // the next run, in local time (yyyy-MM-dd HH:mm:ss)
    expect(await nightly.innerText()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:00/);

    expect(await section('Recent errors').getByText('No errors since the hooks were loaded.').count()).toBe(1);
    await expect(axeSerious(page)).resolves.toEqual([]);
    await screenshot(page, 'settings-hooks-light');
  });

  it("shows a handler's error with its file and line, the stack trace opened with the keyboard; dark theme", async () => {
    expect((await fetch(`${server.url}/boom`)).status).toBe(400);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = section('Recent errors').getByRole('row').filter({ hasText: 'the report service is down' });
    await row.waitFor();
    expect(await row.getByText('GET /boom', { exact: true }).count()).toBe(1);
    expect(await row.getByText('main.pb.js:11', { exact: true }).count()).toBe(1);

    // keyboard only: from the Refresh button, Tab reaches the stack trace's toggle, Enter opens it
    await page.getByRole('button', { name: 'Refresh' }).focus();
    const summary = row.locator('summary');
    for (let i = 0; i < 40 && !(await summary.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await row.locator('pre').waitFor();
    expect(await row.locator('pre').innerText()).toContain('main.pb.js:11');

    await theme('dark');
    await expect(axeSerious(page)).resolves.toEqual([]);
    await screenshot(page, 'settings-hooks-dark');
    await theme('light');
  });

  it('says when a change to the files did not load, while the hooks loaded before keep running', async () => {
    const broken = path.join(dir, 'pb_hooks', 'broken.pb.js');
    fs.writeFileSync(broken, '// half written\nrouterAdd("GET", "/later", (c) => {\n');
    const alert = page.getByRole('alert').filter({ hasText: 'The hook files did not load' });
    // --hooksWatch (on by default) tries the change at once; the page shows it at the next refresh
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return alert.count();
      })
      .toBe(1);
    expect(await alert.innerText()).toContain('the hooks loaded before keep running.');
    expect(await alert.innerText()).toMatch(/broken\.pb\.js/);
    expect(await section('Files').getByRole('row').count()).toBe(3);
    await expect(axeSerious(page)).resolves.toEqual([]);
    await screenshot(page, 'settings-hooks-load-error');

    fs.rmSync(broken);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return alert.count();
      })
      .toBe(0);
  });

  it('against PocketBase (no such route) says the information is not available, without an error toast', async () => {
    await page.route('**/api/outpost/hooks', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, message: 'Not Found.', data: {} }) }));
    try {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText('Hooks information is not available on this server (it is an Outpost feature).').waitFor();
      expect(await page.getByTestId('toast').count()).toBe(0);
      expect(await page.getByRole('table').count()).toBe(0);
      await expect(axeSerious(page)).resolves.toEqual([]);
    } finally {
      await page.unroute('**/api/outpost/hooks');
    }
  });
});
