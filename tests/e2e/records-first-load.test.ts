// The records screen's cold load in Chromium against the real server: the app asks for the
// collections and then the list's first page as it starts (src/pages/records/list/records-first-load),
// before the list has mounted, and the list takes that answer instead of asking again. Seen from the
// network: exactly one first-page request, with the address's sort and filter, sent before the
// list's count request (the list itself sends its count first, then its page). The collections list
// itself is asked for by the boot script in <head>, before the app's module script has run, and
// the app takes that answer (src/lib/boot/early-collections.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { dashboardSession } from '../helpers/dashboard-session';

const ADMIN = { email: 'first-load@example.com', password: 'first-load-pass-123' };

const session = dashboardSession({
  admin: ADMIN,
  viewport: { width: 1280, height: 900 },
  seed: async (api) => {
    // 'aaa_first' sorts first: without a collection in the address the page opens it
    const first = await api.collections.create({ name: 'aaa_first', type: 'base', schema: [{ name: 'label', type: 'text' }] });
    await api.collection('aaa_first').create({ label: 'only one' });
    const items = await api.collections.create({ name: 'items', type: 'base', schema: [{ name: 'number', type: 'number' }] });
    for (let i = 1; i <= 5; i++) await api.collection('items').create({ number: i });
    return { first: { id: first.id }, items: { id: items.id } };
  },
});

let url: string;
let page: Page;
let items: { id: string };
let first: { id: string };
beforeAll(() => {
  ({ url, page } = session);
  ({ items, first } = session.seeded);
});

/** Opens `hash` as a new document (the app starts there) and returns the records requests in the order sent. */
async function coldOpen(hash: string, collectionId: string): Promise<URL[]> {
  await page.goto('about:blank');
  const sent: URL[] = [];
  const onRequest = (r: Request) => {
    if (r.url().includes(`/api/collections/${collectionId}/records?`)) sent.push(new URL(r.url()));
  };
  page.on('request', onRequest);
  try {
    await page.goto(`${url}/_/${hash}`);
    await page.locator('tr.rl-row').first().waitFor();
    await page.waitForTimeout(500); // a second request would have been sent by now
  } finally {
    page.off('request', onRequest);
  }
  return sent;
}

const perPage = (u: URL) => u.searchParams.get('perPage');

describe('records first load', () => {
  it('asks for the first page once, as the app starts, with the address sort and filter', async () => {
    const sent = await coldOpen(`#/collections?collectionId=${items.id}&sort=-number&filter=${encodeURIComponent('number>1')}`, items.id);
    const pages = sent.filter((u) => perPage(u) === '40');
    expect(pages).toHaveLength(1);
    expect(pages[0].searchParams.get('sort')).toBe('-number');
    expect(pages[0].searchParams.get('filter')).toBe('number>1');
    // the early page went out before the list (which counts first) had mounted
    const count = sent.findIndex((u) => perPage(u) === '1');
    expect(count).toBeGreaterThan(sent.indexOf(pages[0]));
    await expect.poll(() => page.locator('tr.rl-row').count()).toBe(4);
    expect(await page.locator('tr.rl-row').first().textContent()).toContain('5');
  });

  it('without a collection in the address, asks early for the first collection', async () => {
    const sent = await coldOpen('#/collections', first.id);
    const pages = sent.filter((u) => perPage(u) === '40');
    expect(pages).toHaveLength(1);
    expect(pages[0].searchParams.get('sort')).toBe('-created');
    expect(sent.findIndex((u) => perPage(u) === '1')).toBeGreaterThan(sent.indexOf(pages[0]));
    await expect.poll(() => page.locator('tr.rl-row').count()).toBe(1);
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain(`collectionId=${first.id}`);
  });

  it('Refresh asks the server again: the early answer is used once', async () => {
    await page.goto(`${url}/_/#/collections?collectionId=${items.id}`);
    await page.locator('tr.rl-row').first().waitFor();
    const again = page.waitForRequest((r) => r.url().includes(`/api/collections/${items.id}/records?`) && new URL(r.url()).searchParams.get('perPage') === '40');
    await page.getByRole('button', { name: 'Refresh' }).click();
    expect(new URL((await again).url()).searchParams.get('sort')).toBe('-created');
  });

  it('the boot script asks for the collections before the app runs, and the app does not ask again', async () => {
    await page.goto('about:blank');
    const listed: Array<{ url: string; at: number }> = [];
    let appAt = Infinity;
    // the form engine is not part of the list (vite.config.ts: the shared groups' priority)
    const engine: string[] = [];
    const onRequest = (r: Request) => {
      if (/\/api\/collections\?/.test(r.url())) listed.push({ url: r.url(), at: Date.now() });
      // the app's first chunk request: its module script has run by then
      if (/\/assets\/RecordsList-[^/]+\.js$/.test(r.url())) appAt = Math.min(appAt, Date.now());
      if (/\/assets\/engine-/.test(r.url())) engine.push(r.url());
    };
    page.on('request', onRequest);
    try {
      await page.goto(`${url}/_/#/collections?collectionId=${items.id}`);
      await page.locator('tr.rl-row').first().waitFor();
      await page.waitForTimeout(500);
    } finally {
      page.off('request', onRequest);
    }
    expect(listed.map((l) => new URL(l.url).search)).toEqual(['?page=1&perPage=200&skipTotal=1&sort=%2Bname']);
    expect(listed[0].at).toBeLessThanOrEqual(appAt);
    expect(engine).toEqual([]);
    // the sidebar lists what that answer held
    await expect.poll(() => page.getByRole('link', { name: 'aaa_first' }).count()).toBeGreaterThan(0);
  });

  it('with an expired session the boot script asks nothing and the app shows sign-in', async () => {
    const context = await page.context().browser()!.newContext();
    try {
      const fresh = await context.newPage();
      // a token whose exp is in the past (the signature does not matter: it must not be sent)
      const claims = Buffer.from(JSON.stringify({ id: 'x', type: 'admin', exp: 1_000_000 })).toString('base64url');
      await fresh.addInitScript((t) => localStorage.setItem('pocketbase_auth', JSON.stringify({ token: t, model: { id: 'x' } })), `e30.${claims}.sig`);
      const listed: string[] = [];
      fresh.on('request', (r) => {
        if (r.url().includes('/api/collections')) listed.push(r.url());
      });
      await fresh.goto(`${url}/_/#/collections?collectionId=${items.id}`);
      await fresh.getByRole('button', { name: 'Login' }).waitFor();
      expect(listed).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("with the boot answer in before the app's script runs, the first page goes out as that script is evaluated, ahead of the list's code", async () => {
    await page.goto('about:blank');
    const order: string[] = [];
    let collectionsIn!: () => void;
    const answered = new Promise<void>((r) => (collectionsIn = r));
    const onRequest = (r: Request) => {
      if (r.url().includes(`/api/collections/${items.id}/records?`) && new URL(r.url()).searchParams.get('perPage') === '40') order.push('page');
      if (/\/assets\/RecordsList-[^/]+\.js$/.test(r.url())) order.push('list code');
    };
    const onFinished = (r: Request) => {
      if (/\/api\/collections\?/.test(r.url())) collectionsIn();
    };
    page.on('request', onRequest);
    page.on('requestfinished', onFinished);
    // the app's script is held until the boot script's collections answer is in (a slow line)
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await answered;
      await new Promise((r) => setTimeout(r, 50));
      await route.continue();
    });
    try {
      await page.goto(`${url}/_/#/collections?collectionId=${items.id}`);
      await page.locator('tr.rl-row').first().waitFor();
    } finally {
      await page.unroute(/\/assets\/index-[^/]+\.js$/);
      page.off('request', onRequest);
      page.off('requestfinished', onFinished);
    }
    expect(order.slice(0, 2)).toEqual(['page', 'list code']);
  });

  it('with the first page in before the list mounts, the list draws its rows at once, without the skeleton', async () => {
    await page.goto('about:blank');
    let pageIn!: () => void;
    const answered = new Promise<void>((r) => (pageIn = r));
    const onFinished = (r: Request) => {
      if (r.url().includes(`/api/collections/${items.id}/records?`) && new URL(r.url()).searchParams.get('perPage') === '40') pageIn();
    };
    page.on('requestfinished', onFinished);
    // the list's code is held until its first page is in (a slow line for scripts)
    const listCode = /\/assets\/RecordsList-[^/]+\.js$/;
    await page.route(listCode, async (route) => {
      await answered;
      await route.continue();
    });
    // whether the list's own table (not the area's stand-in while the list's code loads) ever
    // showed the skeleton before the first record row
    await page.addInitScript(() => {
      const w = window as unknown as { sawSkeleton?: boolean };
      const obs = new MutationObserver(() => {
        if (document.querySelector('tr.rl-row')) return obs.disconnect();
        if (document.querySelector('table.records-table tr.row-skeleton')) w.sawSkeleton = true;
      });
      obs.observe(document, { childList: true, subtree: true });
    });
    try {
      await page.goto(`${url}/_/#/collections?collectionId=${items.id}`);
      await page.locator('tr.rl-row').first().waitFor();
    } finally {
      await page.unroute(listCode);
      page.off('requestfinished', onFinished);
    }
    expect(await page.evaluate(() => (window as unknown as { sawSkeleton?: boolean }).sawSkeleton ?? false)).toBe(false);
    await expect.poll(() => page.locator('tr.rl-row').count()).toBe(5);
  });
});
