// Sorted pages over HTTP: the list reads a sorted page in two steps (the sort picks the page's
// rowids, then those rows are read whole: server/query/list.ts), or directly once it knows few
// rows match. Every page, at every offset, must
// hold exactly the rows of the one full ordering, in order — including a field called `rowid`
// (PocketBase allows that name; only `_rowid_` is reserved) and filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
const TOTAL = 61;
type Row = { id: string; rank: number; label: string; rowid: string };
const rows: Row[] = [];

beforeAll(async () => {
  srv = await startServer({ fixture: true });
  const created = await http(srv.url, 'POST', '/api/collections', {
    token: FIXTURE_ADMIN_TOKEN,
    body: {
      name: 'sorted',
      type: 'base',
      schema: [
        { name: 'rank', type: 'number' },
        { name: 'label', type: 'text' },
        { name: 'rowid', type: 'text' },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  for (let i = 0; i < TOTAL; i++) {
    // ranks repeat (ties broken by label), labels run against insertion order, `rowid` is a text
    const body = { rank: (i * 7) % 13, label: `l${String((i * 17) % TOTAL).padStart(3, '0')}`, rowid: `r${String(TOTAL - i).padStart(3, '0')}` };
    const res = await http(srv.url, 'POST', '/api/collections/sorted/records', { token: FIXTURE_ADMIN_TOKEN, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push({ id: res.body.id, ...body });
  }
});
afterAll(async () => {
  await srv?.close();
});

/** Every page of `perPage` for the query, concatenated. */
async function allPages(query: string, perPage: number): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await http(srv.url, 'GET', `/api/collections/sorted/records?${query}&perPage=${perPage}&page=${page}`, { token: FIXTURE_ADMIN_TOKEN });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body.items as Row[];
    out.push(...items);
    if (items.length < perPage) return out;
  }
  throw new Error('too many pages');
}

const byKeys =
  (...keys: Array<[keyof Row, 1 | -1]>) =>
  (a: Row, b: Row): number => {
    for (const [k, dir] of keys) {
      if (a[k] !== b[k]) return (a[k] < b[k] ? -1 : 1) * dir;
    }
    return 0;
  };

describe('sorted pages hold the one full ordering', () => {
  const cases: Array<[string, (rows: Row[]) => Row[]]> = [
    ['sort=-label', (r) => [...r].sort(byKeys(['label', -1]))],
    ['sort=rank,label', (r) => [...r].sort(byKeys(['rank', 1], ['label', 1]))],
    ['sort=-rank,-label', (r) => [...r].sort(byKeys(['rank', -1], ['label', -1]))],
    ['sort=rowid', (r) => [...r].sort(byKeys(['rowid', 1]))],
    [`sort=label&filter=${encodeURIComponent('rank > 5')}`, (r) => r.filter((x) => x.rank > 5).sort(byKeys(['label', 1]))],
    [`sort=-rank,label&filter=${encodeURIComponent("label ~ 'l0'")}`, (r) => r.filter((x) => x.label.includes('l0')).sort(byKeys(['rank', -1], ['label', 1]))],
  ];
  for (const [query, expected] of cases) {
    it(query, async () => {
      const want = expected(rows).map((r) => r.id);
      for (const perPage of [1, 7, 40, 500]) {
        // twice: a page's first list looks its rows up late, the next reads them directly (few match)
        for (const run of ['first', 'again']) {
          const got = (await allPages(query, perPage)).map((r) => r.id);
          expect(got, `perPage ${perPage}, ${run}`).toEqual(want);
        }
      }
    });
  }

  it('a page past the end is empty and the total still counts every match', async () => {
    const res = await http(srv.url, 'GET', '/api/collections/sorted/records?sort=-label&perPage=40&page=3', { token: FIXTURE_ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
    expect(res.body.totalItems).toBe(TOTAL);
  });

  it('@random still answers every row once', async () => {
    const res = await http(srv.url, 'GET', '/api/collections/sorted/records?sort=@random&perPage=500', { token: FIXTURE_ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(new Set((res.body.items as Row[]).map((r) => r.id)).size).toBe(TOTAL);
  });
});
