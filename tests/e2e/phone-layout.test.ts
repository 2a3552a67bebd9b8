// The phone layout (390x844) in Chromium against the real server: no horizontal overflow of the
// page on the collections, records, logs, admins and settings screens; the sidebar is a menu, New
// record and an overlay panel (full width) are reachable; the logs table reflows to the screen with
// every column in view and no sideways scroll.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { App } from '../../server/app';
import { getLogWriter } from '../../server/services/request-log';
import { screenshot, signIn } from '../helpers/browser';
import { dashboardSession } from '../helpers/dashboard-session';

const ADMIN = { email: 'phone@example.com', password: 'phone-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  viewport: { width: 390, height: 844 },
  colorScheme: 'light',
  mobile: true,
  seed: async (api) => {
    const items = await api.collections.create({
      name: 'items',
      type: 'base',
      schema: [
        { name: 'note', type: 'text' },
        { name: 'code', type: 'text' },
      ],
    });
    for (let i = 0; i < 3; i++) await api.collection('items').create({ note: 'bulk value', code: '' });
    const tasks = await api.collections.create({ name: 'tasks', type: 'base', schema: [{ name: 'name', type: 'text' }] });
    await api.collection('tasks').create({ name: 'the task' });
    return { itemsId: items.id, tasksId: tasks.id };
  },
});

let app: App;
let url: string;
let browser: Browser;
let itemsId: string;
let tasksId: string;
beforeAll(() => {
  ({ url, browser } = session);
  app = session.server.app;
  ({ itemsId, tasksId } = session.seeded);
});

describe('phone layout (390x844)', () => {
  let phone: Page;
  const noPageOverflow = () => phone.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const inViewport = async (name: string) => {
    const box = await phone.getByRole('button', { name, exact: true }).boundingBox();
    return !!box && box.x >= 0 && box.x + box.width <= 390 && box.y >= 0;
  };

  beforeAll(() => {
    phone = session.page; // 390x844, touch, light, signed in
  });

  it('collections and records: the sidebar is a menu, the page does not overflow, main buttons are reachable', async () => {
    await phone.goto(`${url}/_/#/collections?collectionId=${itemsId}`);
    await phone.getByText('bulk value').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    expect(await inViewport('New record')).toBe(true);
    expect(await inViewport('Views')).toBe(true);
    // the records table scrolls inside its wrapper
    expect(await phone.locator('.records-table-wrapper').evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
    await screenshot(phone, 'phone-records');

    const menu = phone.getByRole('button', { name: /Collections$/ }).filter({ hasText: '☰' });
    expect(await phone.getByRole('link', { name: 'tasks' }).or(phone.getByText('tasks', { exact: true })).first().isVisible()).toBe(false);
    await menu.click();
    await phone.getByText('tasks', { exact: true }).first().click();
    await phone.waitForURL((u) => u.hash.includes(tasksId));
    await phone.getByText('the task').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await screenshot(phone, 'phone-menu-picked');

    await phone.getByRole('button', { name: 'New record', exact: true }).click();
    const panel = phone.locator('.overlay-panel').last();
    await panel.waitFor();
    const box = await panel.boundingBox();
    expect(box && Math.round(box.width)).toBe(390);
    await screenshot(phone, 'phone-record-panel');
    await phone.keyboard.press('Escape');
  });

  it('logs, admins and settings screens do not overflow either', async () => {
    // the logs table scrolls inside its wrapper (its visually hidden header label once widened the page)
    await phone.goto(`${url}/_/#/logs`);
    await phone.locator('.logs-table tbody tr').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await screenshot(phone, 'phone-logs');
    await phone.goto(`${url}/_/#/settings/admins`);
    await phone.getByText(ADMIN.email).first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await phone.goto(`${url}/_/#/settings/mail`);
    await phone.locator('.page-wrapper form, .page-wrapper .sf-field').first().waitFor();
    expect(await noPageOverflow()).toBe(true);
    await screenshot(phone, 'phone-settings-mail');
  });
});

describe('logs at 390 px', () => {
  it('reflows the logs table to the screen: every column in view, no sideways scroll', async () => {
    const writer = getLogWriter(app.ctx)!;
    writer.add({ level: 4, message: 'GET /api/collections/a_rather_long_collection_name/records?filter=x', data: { type: 'request', auth: 'guest', status: 404, method: 'GET', url: '/api/collections/a_rather_long_collection_name/records', execTime: 1.5, userAgent: 'Mozilla/5.0 (a long user agent string)' } });
    writer.add({ level: 0, message: 'GET /api/health', data: { type: 'request', auth: 'guest', status: 200, method: 'GET', url: '/api/health', execTime: 0.2 } });
    writer.flush();
    const p = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(p, url, ADMIN);
    await p.goto(`${url}/_/#/logs?adminRequests=1`);
    await p.getByText('GET /api/health').first().waitFor();
    const table = p.getByRole('table', { name: 'Logs' });
    await p.waitForFunction(() => {
      const t = document.querySelector('.logs-table');
      return !!t && !t.hasAttribute('aria-busy');
    });
    const m = await table.evaluate((t) => {
      const wrapper = t.closest('.logs-table-wrapper') as HTMLElement;
      const cells = [...t.querySelectorAll('thead th')].map((th) => th.getBoundingClientRect().right);
      return { right: Math.max(...cells), wrapperRight: wrapper.getBoundingClientRect().right, scrollable: wrapper.scrollWidth > wrapper.clientWidth + 1, docWidth: document.documentElement.scrollWidth };
    });
    await p.screenshot({ path: '/tmp/logs390.png', fullPage: true });
    expect(m.docWidth).toBeLessThanOrEqual(390);
    expect(m.scrollable).toBe(false);
    expect(m.right).toBeLessThanOrEqual(m.wrapperRight);
    await p.close();
  });
});
