// The relation graph at 100 generated collections (tests/helpers/graph-collections.ts, created
// through the API on the real server, over a copy of the 0.22.12 fixture), in Chromium at
// 1440x900: Fit stops at a floor scale with names still at 11 px or more (and centres on the most
// connected collection instead of shrinking everything past reading); zoomed to full detail, no
// edge label's box overlaps another label or a box and no edge path crosses a collection box it
// does not connect (points sampled along every rendered path); the search box reaches any of them,
// and so does Tab (the focused box is brought on screen).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { injectAxe, launchBrowser, screenshot, signIn } from '../helpers/browser';
import { generatedCollections } from '../helpers/graph-collections';
import { axeSerious, graphGeometry, graphZoom, smallestText } from '../helpers/graph-geometry';
import { FIXTURE_PASSWORD, startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'test@example.com', password: FIXTURE_PASSWORD };
const COUNT = 100;

let srv: TestServer;
let browser: Browser;
let page: Page;
let total: number;
let pairs: Set<string>;
let usersId: string;

beforeAll(async () => {
  srv = await startServer({ fixture: true, dashboard: true });
  const api = srv.client();
  await api.admins.authWithPassword(ADMIN.email, ADMIN.password);
  usersId = (await api.collections.getOne('users')).id;
  for (const c of generatedCollections(COUNT, usersId)) {
    await api.collections.create({ id: c.id, name: c.name, type: c.type, schema: c.schema });
    if (c.selfRelations.length) {
      const stored = await api.collections.getOne(c.id);
      await api.collections.update(c.id, { schema: [...stored.schema, ...c.selfRelations] });
    }
  }
  const all = await api.collections.getFullList();
  total = all.length;
  pairs = new Set(all.flatMap((c) => c.schema.filter((f) => f.type === 'relation').map((f) => `${c.id}->${f.options.collectionId}`)));
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err));
  await signIn(page, srv.url, ADMIN);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe('relation graph with 100 generated collections', () => {
  it('fits at a readable floor scale, names only', async () => {
    expect(total).toBe(COUNT + 11);
    await page.goto(`${srv.url}/_/#/collections/graph`);
    await expect.poll(() => page.locator('.rg-node').count(), { timeout: 20_000 }).toBe(total);
    await page.getByRole('button', { name: 'Fit' }).click();
    expect(await graphZoom(page)).toBeCloseTo(0.5, 3);
    expect(await page.locator('.rg-edge').count()).toBe(pairs.size);
    expect(await page.locator('.rg-edge-label').count()).toBe(0);
    expect(await smallestText(page, '.rg-node-name')).toBeGreaterThanOrEqual(11);
    // centred on the most connected collection (users), with plenty of boxes around it on screen
    const area = (await page.locator('.relation-graph').boundingBox())!;
    const shown = await page.locator('.rg-node-box').evaluateAll(
      (els, a) =>
        els.filter((el) => {
          const r = el.getBoundingClientRect();
          return r.right > a.x && r.left < a.x + a.width && r.bottom > a.y && r.top < a.y + a.height;
        }).length,
      area,
    );
    expect(shown).toBeGreaterThanOrEqual(5);
    const users = (await page.locator(`.rg-node[data-id="${usersId}"] .rg-node-box`).boundingBox())!;
    expect(Math.abs(users.x + users.width / 2 - (area.x + area.width / 2))).toBeLessThan(area.width / 2);
    await screenshot(page, 'relation-graph-100-fit');
  });

  it('has no label over another label or a box, and no edge through a box it does not connect', async () => {
    for (let i = 0; i < 5 && (await graphZoom(page)) < 11 / 12; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await graphZoom(page)).toBeGreaterThanOrEqual(11 / 12);
    await expect.poll(() => page.locator('.rg-edge-label').count()).toBe(pairs.size);
    expect(await smallestText(page, '.rg-edge-label text, .rg-field, .rg-node-type')).toBeGreaterThanOrEqual(11);
    const g = await graphGeometry(page);
    expect(g.problems).toEqual([]);
    expect(g).toMatchObject({ nodes: total, edges: pairs.size, labels: pairs.size });
    expect(g.samples).toBeGreaterThan(5_000);
    // some bundles list more fields than they show
    expect(await page.locator('.rg-edge-label-more').count()).toBeGreaterThan(0);
    await screenshot(page, 'relation-graph-100-detail');

    // the check itself sees a crossing and an overlap: one path redrawn through a box it does not
    // connect, one label moved onto another (then the page is loaded afresh)
    const planted = await page.evaluate(() => {
      const edge = document.querySelector('.rg-edge')!;
      const path = edge.querySelector('path')!;
      const other = [...document.querySelectorAll('.rg-node')].find((n) => n.getAttribute('data-id') !== edge.getAttribute('data-from') && n.getAttribute('data-id') !== edge.getAttribute('data-to'))!;
      const r = other.querySelector('.rg-node-box')!;
      const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(r.getAttribute(a)));
      path.setAttribute('d', `M${x - 10},${y + h / 2} L${x + w + 10},${y + h / 2}`);
      const [a, b] = [...document.querySelectorAll('.rg-edge-label rect')];
      a.setAttribute('y', b.getAttribute('y')!);
      a.setAttribute('x', b.getAttribute('x')!);
      return { edge: edge.getAttribute('data-id'), box: other.getAttribute('data-id'), labels: [a.parentElement!.getAttribute('data-edge'), b.parentElement!.getAttribute('data-edge')] };
    });
    const broken = await graphGeometry(page);
    expect(broken.problems).toContain(`edge ${planted.edge} crosses box ${planted.box}`);
    expect(broken.problems).toContain(`label ${planted.labels[0]} overlaps label ${planted.labels[1]}`);
    await page.reload();
    await expect.poll(() => page.locator('.rg-node').count(), { timeout: 20_000 }).toBe(total);
  });

  it('finds any collection with the search box', async () => {
    const search = page.getByRole('combobox', { name: 'Find a collection' });
    await search.fill('tickets_095');
    await search.press('Enter');
    const picked = page.locator('.rg-picked');
    await expect.poll(() => picked.getAttribute('data-id')).toBe('gen000000000095');
    const area = (await page.locator('.relation-graph').boundingBox())!;
    const box = (await picked.locator('.rg-node-box').boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - (area.x + area.width / 2))).toBeLessThan(3);
    expect(await page.locator('.rg-edge.rg-hl').count()).toBeGreaterThan(0);
    await injectAxe(page);
    expect(await axeSerious(page)).toEqual([]);
    await screenshot(page, 'relation-graph-100-search');
  });

  it('brings a box reached with Tab on screen, with a visible focus', async () => {
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.locator('.relation-graph').focus();
    const area = (await page.locator('.relation-graph').boundingBox())!;
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      const focused = page.locator('.rg-node-link:focus');
      await expect.poll(() => focused.count()).toBe(1);
      const box = (await focused.locator('.rg-node-box').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(area.x);
      expect(box.y).toBeGreaterThanOrEqual(area.y);
      expect(box.x + box.width).toBeLessThanOrEqual(area.x + area.width);
      expect(box.y + box.height).toBeLessThanOrEqual(area.y + area.height);
      expect(await focused.locator('.rg-node-box').evaluate((el) => getComputedStyle(el).strokeWidth)).toBe('4px');
    }
  });
});
