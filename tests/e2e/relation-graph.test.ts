// The relation graph in Chromium on a copy of the PocketBase 0.22.12 fixture: reached from the
// collections sidebar, every collection a node (auth/base/view told apart), every relation field an
// edge with single/multiple and cascade delete marked; zoom and pan move the drawing; a click on a
// node opens that collection. Then 50 collections stay laid out without overlapping nodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn } from '../helpers/browser';
import { FIXTURE_PASSWORD, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'test@example.com', password: FIXTURE_PASSWORD };

let srv: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  srv = await startServer({ fixture: true, dashboard: true });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, srv.url, ADMIN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

const transform = () => page.locator('.relation-graph-svg > g').getAttribute('transform');

describe('relation graph', () => {
  it('shows the fixture collections and their relations, pans, zooms and opens a collection', async () => {
    await page.getByRole('link', { name: 'Relation graph' }).click();
    await page.waitForURL(/#\/collections\/graph/);
    await page.locator('.rg-node').first().waitFor();

    const api = srv.client();
    await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
    const collections = await api.collections.getFullList();
    expect(await page.locator('.rg-node').count()).toBe(collections.length);
    for (const c of collections) {
      await expect(page.locator(`.rg-node[data-id="${c.id}"]`).getAttribute('class')).resolves.toContain(`rg-node-${c.type}`);
    }

    // one edge per relation field, with its kind
    const relations = collections.flatMap((c) =>
      c.schema.filter((f) => f.type === 'relation' && collections.some((t) => t.id === f.options.collectionId)).map((f) => ({ c, f })),
    );
    expect(relations.length).toBeGreaterThan(5);
    expect(await page.locator('.rg-edge').count()).toBe(relations.length);
    for (const { c, f } of relations) {
      const edge = page.locator(`.rg-edge[data-from="${c.id}"][data-field="${f.name}"]`);
      await expect(edge.getAttribute('data-to')).resolves.toBe(f.options.collectionId);
      const cls = (await edge.getAttribute('class')) ?? '';
      const multiple = f.options.maxSelect === null || f.options.maxSelect > 1;
      expect(cls.includes('rg-edge-multiple')).toBe(multiple);
      expect(cls.includes('rg-edge-cascade')).toBe(f.options.cascadeDelete === true);
      expect((await edge.locator('path').getAttribute('d'))?.length).toBeGreaterThan(5);
    }
    await screenshot(page, 'relation-graph');

    // zoom with the button and the wheel, pan by dragging and with the keyboard
    const t0 = await transform();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const t1 = await transform();
    expect(t1).not.toBe(t0);
    const area = page.locator('.relation-graph');
    const box = (await area.boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.wheel(0, -300);
    await expect.poll(transform).not.toBe(t1);
    const t2 = await transform();
    await page.mouse.move(box.x + 5, box.y + box.height - 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 105, box.y + box.height - 55, { steps: 5 });
    await page.mouse.up();
    const t3 = await transform();
    expect(t3).not.toBe(t2);
    await area.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(transform).not.toBe(t3);

    // a click on a node opens the collection
    await page.getByRole('button', { name: 'Fit' }).click();
    const demo3 = collections.find((c) => c.name === 'demo3')!;
    await page.locator(`.rg-node[data-id="${demo3.id}"] .rg-node-head`).click();
    await page.waitForURL(new RegExp(`collectionId=${demo3.id}`));
    await page.locator('table.records-table').waitFor();
  });

  it('lays out 50 collections without overlapping nodes', async () => {
    const api = srv.client();
    await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
    const users = (await api.collections.getOne('users')).id;
    let prev = users;
    for (let i = 1; i <= 40; i++) {
      const c = await api.collections.create({
        name: `many_${String(i).padStart(2, '0')}`,
        type: 'base',
        schema: [
          { name: 'title', type: 'text' },
          { name: 'owner', type: 'relation', options: { collectionId: users, maxSelect: 1 } },
          { name: 'parent', type: 'relation', options: { collectionId: prev, maxSelect: null, cascadeDelete: i % 3 === 0 } },
        ],
      });
      prev = c.id;
    }
    await page.goto(`${srv.url}/_/#/collections/graph`);
    await page.reload();
    await expect.poll(() => page.locator('.rg-node').count()).toBeGreaterThanOrEqual(50);
    const rects = await page.locator('.rg-node-box').evaluateAll((els) =>
      els.map((el) => {
        const r = el as SVGRectElement;
        return { x: r.x.baseVal.value, y: r.y.baseVal.value, w: r.width.baseVal.value, h: r.height.baseVal.value };
      }),
    );
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i];
        const b = rects[j];
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap).toBe(false);
      }
    await screenshot(page, 'relation-graph-50');
  });
});
