import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../server/core/errors';
import { runListQuery } from '../../server/query/list';
import { directReads } from '../../server/db/database';

const db = new Database(':memory:');
db.exec('CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT, n INTEGER, data JSON)');
const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?)');
for (let i = 1; i <= 45; i++) insert.run(`id${String(i).padStart(2, '0')}`, `item ${i}`, i, JSON.stringify({ even: i % 2 === 0 }));
afterAll(() => db.close());

const list = (query: Record<string, unknown>, extra: Partial<Parameters<typeof runListQuery>[1]> = {}) =>
  runListQuery(directReads(db), { table: 'items', columns: { id: 'id', name: 'name', n: 'n', data: 'data' }, jsonColumns: ['data'], query, ...extra });

describe('runListQuery', async () => {
  it('answers the envelope in PocketBase key order with defaults', async () => {
    const res = (await list({}));
    expect(Object.keys(res)).toEqual(['page', 'perPage', 'totalItems', 'totalPages', 'items']);
    expect(res).toMatchObject({ page: 1, perPage: 30, totalItems: 45, totalPages: 2 });
    expect(res.items).toHaveLength(30);
  });

  it('pages, clamps and falls back like 0.22', async () => {
    expect((await list({ page: '2', perPage: '20', sort: 'n' })).items.map((r: any) => r.n)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    expect((await list({ perPage: '1000' })).perPage).toBe(500);
    expect((await list({ perPage: '0', page: '-3' }))).toMatchObject({ perPage: 30, page: 1 });
    expect((await list({ page: '9' }))).toMatchObject({ page: 9, items: [] });
    expect((await list({ page: ['2', '1'], perPage: '40' })).items).toHaveLength(5);
  });

  it('skipTotal answers -1 and runs no count; an empty result has totalPages 0', async () => {
    expect((await list({ skipTotal: '1', perPage: '5' }))).toMatchObject({ totalItems: -1, totalPages: -1 });
    expect((await list({ skipTotal: 'true', perPage: '5' })).items).toHaveLength(5);
    expect((await list({ filter: "name = 'none'" }))).toMatchObject({ totalItems: 0, totalPages: 0, items: [] });
  });

  it('filters and sorts (fields, json paths, rowid, @random)', async () => {
    expect((await list({ filter: 'data.even = true && n > 40', sort: '-n' })).items.map((r: any) => r.n)).toEqual([44, 42]);
    expect((await list({ sort: '-rowid', perPage: '2' })).items.map((r: any) => r.id)).toEqual(['id45', 'id44']);
    expect((await list({ sort: '@random', perPage: '3' })).items).toHaveLength(3);
    expect((await list({ filter: "name ~ 'item 4'", sort: '+n' })).items.map((r: any) => r.n)).toEqual([4, 40, 41, 42, 43, 44, 45]);
  });

  it('applies baseWhere and map', async () => {
    const res = (await list({ filter: 'n <= 10' }, { baseWhere: { sql: 'n > ?', params: [8] }, map: (r) => r.id }));
    expect(res.items).toEqual(['id09', 'id10']);
    expect(res.totalItems).toBe(2);
  });

  it.each([
    [{ page: 'abc' }],
    [{ perPage: '1.5' }],
    [{ skipTotal: 'yes' }],
    [{ sort: 'nope' }],
    [{ sort: 'n,' }],
    [{ filter: 'nope = 1' }],
    [{ filter: "name = 'x' OR 1=1" }],
    [{ filter: "'; DROP TABLE items; --" }],
  ])('answers 400 for %j', async (query) => {
    let err: unknown;
    try {
      (await list(query));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).message).toBe('Something went wrong while processing your request.');
    expect(db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(45);
  });
});
