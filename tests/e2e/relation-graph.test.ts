// The relation graph in Chromium on a copy of the PocketBase 0.22.12 fixture, at 1440x900: one
// edge per (source, target) pair whose one label lists its fields (demo4 → demo3: eight fields,
// three shown and '+5 more', all in the tooltip), routed so that no edge crosses a box it does not
// connect and no label overlaps another; names only while the small text would be under 11 px;
// the search box (reached by keyboard, visible focus) centres and highlights a collection and its
// neighbours and dims the rest; pan, scroll, zoom and open; dark mode and the phone layout; axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CollectionModel } from 'pocketbase';
import { injectAxe, launchBrowser, screenshot, signIn } from '../helpers/browser';
import { axeSerious, graphGeometry, graphZoom, smallestText } from '../helpers/graph-geometry';
import { FIXTURE_PASSWORD, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'test@example.com', password: FIXTURE_PASSWORD };
const DETAIL = 11 / 12;

let srv: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let collections: CollectionModel[];
/** 'from->to' → the relation fields of `from` pointing at `to`, in schema order. */
let pairs: Map<string, CollectionModel['schema']>;
const byName = (name: string) => collections.find((c) => c.name === name)!;

beforeAll(async () => {
  srv = await startServer({ fixture: true, dashboard: true });
  const api = srv.client();
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  collections = await api.collections.getFullList();
  pairs = new Map();
  for (const c of collections)
    for (const f of c.schema)
      if (f.type === 'relation' && collections.some((t) => t.id === f.options.collectionId)) {
        const key = `${c.id}->${f.options.collectionId}`;
        pairs.set(key, [...(pairs.get(key) ?? []), f]);
      }
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, srv.url, ADMIN);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

const transform = () => page.locator('.rg-scene').getAttribute('transform');

async function zoomToDetail(p: Page) {
  for (let i = 0; i < 12 && (await graphZoom(p)) < DETAIL; i++) await p.getByRole('button', { name: 'Zoom in' }).click();
  expect(await graphZoom(p)).toBeGreaterThanOrEqual(DETAIL);
}

describe('relation graph on the fixture', () => {
  it('bundles the relation fields of each pair into one edge with one label, and keeps it all readable', async () => {
    await page.getByRole('link', { name: 'Relation graph' }).click();
    await page.waitForURL(/#\/collections\/graph/);
    await page.locator('.rg-node').first().waitFor();
    expect(await page.locator('.rg-node').count()).toBe(collections.length);
    for (const c of collections) await expect(page.locator(`.rg-node[data-id="${c.id}"]`).getAttribute('class')).resolves.toContain(`rg-node-${c.type}`);

    // one edge per (source, target) pair, listing its fields; dashed / red when some field is multiple / cascades
    expect(pairs.size).toBeGreaterThan(5);
    expect(await page.locator('.rg-edge').count()).toBe(pairs.size);
    for (const [key, fields] of pairs) {
      const edge = page.locator(`.rg-edge[data-id="${key}"]`);
      expect(await edge.count()).toBe(1);
      await expect(edge.getAttribute('data-fields')).resolves.toBe(fields.map((f) => f.name).join(' '));
      const cls = (await edge.getAttribute('class')) ?? '';
      expect(cls.includes('rg-edge-multiple')).toBe(fields.some((f) => f.options.maxSelect === null || f.options.maxSelect > 1));
      expect(cls.includes('rg-edge-cascade')).toBe(fields.some((f) => f.options.cascadeDelete === true));
    }

    // fitted at 1440x900 the fixture is drawn under 11/12: names only, still at 11 px or more
    const fitted = await graphZoom(page);
    expect(fitted).toBeLessThan(DETAIL);
    expect(await page.locator('.rg-edge-label').count()).toBe(0);
    expect(await page.locator('.rg-field').count()).toBe(0);
    expect(await smallestText(page, '.rg-node-name')).toBeGreaterThanOrEqual(11);
    expect(await page.locator('.rg-status').textContent()).toMatch(/^Names only/);
    await screenshot(page, 'relation-graph-fixture-fit');

    // zoomed in: fields and one label per edge, every text at 11 px or more
    await zoomToDetail(page);
    expect(await page.locator('.rg-edge-label').count()).toBe(pairs.size);
    expect(await smallestText(page, '.rg-edge-label text, .rg-field, .rg-node-type')).toBeGreaterThanOrEqual(11);
    const geometry = await graphGeometry(page);
    expect(geometry.problems).toEqual([]);
    expect(geometry).toMatchObject({ nodes: collections.length, edges: pairs.size, labels: pairs.size });

    // demo4 → demo3: eight fields in one label (three shown and '+5 more'), all of them in its tooltip
    const demo4 = byName('demo4');
    const key = `${demo4.id}->${byName('demo3').id}`;
    const fields = pairs.get(key)!.map((f) => f.name);
    expect(fields).toHaveLength(8);
    const label = page.locator(`.rg-edge-label[data-edge="${key}"]`);
    expect(await label.count()).toBe(1);
    expect(await label.locator('tspan').allTextContents()).toEqual([fields[0], fields[1], `${fields[2]} ✕`, '+5 more']);
    expect((await label.locator('title').textContent())!.split('\n')).toEqual(['demo4 → demo3', ...fields.map((f) => expect.stringMatching(new RegExp(`^${f}: (single|multiple)`)))]);
    await screenshot(page, 'relation-graph-fixture-detail');
  });

  it('finds a collection from the keyboard, centres it and highlights its neighbours, dimming the rest', async () => {
    await page.getByRole('button', { name: 'Fit' }).click();
    // reached with Shift+Tab from the zoom buttons; its focus is visible
    await page.getByRole('button', { name: 'Zoom out' }).focus();
    await page.keyboard.press('Shift+Tab');
    const box = page.getByRole('combobox', { name: 'Find a collection' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');

    await page.keyboard.type('demo', { delay: 20 });
    const list = page.getByRole('listbox', { name: 'Collections' });
    await expect.poll(() => list.getByRole('option').count()).toBe(5);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option').nth(2).getAttribute('id'));
    await page.keyboard.type('4');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['demo4base']);
    await page.keyboard.press('Enter');

    const demo4 = byName('demo4');
    await expect.poll(() => page.locator('.rg-picked').getAttribute('data-id')).toBe(demo4.id);
    const related = new Set([demo4.id]);
    for (const key of pairs.keys()) {
      const [from, to] = key.split('->');
      if (from === demo4.id) related.add(to);
      if (to === demo4.id) related.add(from);
    }
    expect(related.size).toBe(3); // demo3 and demo5
    for (const c of collections) {
      const opacity = Number(await page.locator(`.rg-node[data-id="${c.id}"]`).evaluate((el) => getComputedStyle(el).opacity));
      if (related.has(c.id)) expect(opacity).toBe(1);
      else expect(opacity).toBeLessThan(0.5);
    }
    expect(await page.locator('.rg-status').textContent()).toMatch(/^demo4: related to (demo3, demo5|demo5, demo3)$/);
    // centred, at a scale showing its fields
    expect(await graphZoom(page)).toBeGreaterThanOrEqual(1);
    const area = (await page.locator('.relation-graph').boundingBox())!;
    const node = (await page.locator(`.rg-node[data-id="${demo4.id}"] .rg-node-box`).boundingBox())!;
    expect(Math.abs(node.x + node.width / 2 - (area.x + area.width / 2))).toBeLessThan(3);
    expect(Math.abs(node.y + node.height / 2 - (area.y + area.height / 2))).toBeLessThan(3);
    await injectAxe(page);
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'relation-graph-fixture-search');

    // Esc clears the search and the highlight
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.rg-picked').count()).toBe(0);
    expect(await page.locator('.relation-graph-svg.rg-focusing').count()).toBe(0);
    expect(await box.inputValue()).toBe('');
  });

  it('scrolls with the wheel, zooms with Ctrl + wheel, pans by drag and keys, and opens a collection', async () => {
    await page.getByRole('button', { name: 'Fit' }).click();
    const area = page.locator('.relation-graph');
    const b = (await area.boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    const k0 = await graphZoom(page);
    const t0 = await transform();
    await page.mouse.wheel(0, 120);
    await expect.poll(transform).not.toBe(t0);
    expect(await graphZoom(page)).toBe(k0);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await expect.poll(() => graphZoom(page)).toBeGreaterThan(k0);
    const t1 = await transform();
    await page.mouse.move(b.x + 5, b.y + b.height - 5);
    await page.mouse.down();
    await page.mouse.move(b.x + 105, b.y + b.height - 55, { steps: 5 });
    await page.mouse.up();
    const t2 = await transform();
    expect(t2).not.toBe(t1);
    await area.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(transform).not.toBe(t2);

    await page.getByRole('button', { name: 'Fit' }).click();
    const demo3 = byName('demo3');
    await page.locator(`.rg-node[data-id="${demo3.id}"] .rg-node-box`).click();
    await page.waitForURL(new RegExp(`collectionId=${demo3.id}`));
    await page.locator('table.records-table').waitFor();
  });

  it('works in dark mode and on a phone, with no serious axe finding', async () => {
    const state = await context.storageState();
    for (const [scheme, viewport] of [
      ['dark', { width: 1440, height: 900 }],
      ['light', { width: 390, height: 844 }],
    ] as const) {
      const ctx = await browser.newContext({ viewport, colorScheme: scheme, storageState: state });
      const p = await ctx.newPage();
      await p.goto(`${srv.url}/_/#/collections/graph`);
      await p.locator('.rg-node').first().waitFor();
      const bg = await p.locator('.relation-graph').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg).toBe(scheme === 'dark' ? 'rgb(30, 32, 38)' : 'rgb(247, 248, 250)');
      // the controls are on screen and the page does not scroll sideways
      for (const name of ['Zoom out', 'Zoom in', 'Fit']) {
        const r = (await p.getByRole('button', { name }).boundingBox())!;
        expect(r.x + r.width).toBeLessThanOrEqual(viewport.width);
      }
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      const search = p.getByRole('combobox', { name: 'Find a collection' });
      await search.fill('users');
      await search.press('Enter');
      await expect.poll(() => p.locator('.rg-picked').getAttribute('data-id')).toBe(byName('users').id);
      await injectAxe(p);
      expect(await axeSerious(p)).toEqual([]);
      await screenshot(p, `relation-graph-fixture-${scheme}-${viewport.width}`);
      await ctx.close();
    }
  });
});
