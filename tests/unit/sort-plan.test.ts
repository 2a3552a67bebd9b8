import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sortsFromIndex } from '../../server/db/sort-plan';
import { directReads, type ReadQuery } from '../../server/db/database';
import { LATE_LOOKUP_FROM, planListQuery, runListPlan, runListQuery } from '../../server/query/list';

const db = new Database(':memory:');
db.exec('CREATE TABLE items (id TEXT PRIMARY KEY, n INTEGER, m INTEGER); CREATE INDEX idx_n ON items (n)');
const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?)');
for (let i = 1; i <= 200; i++) insert.run(`id${i}`, i, 200 - i);
afterAll(() => db.close());

const page = (order: string) => `SELECT "items".* FROM "items" WHERE ("items"."n" > ?) ORDER BY ${order} LIMIT ? OFFSET ?`;

describe('sortsFromIndex', () => {
  it('says yes when an index gives the order, no when SQLite must sort', () => {
    expect(sortsFromIndex(db, {}, page('"items"."n" DESC'), [10, 20, 0])).toBe(true);
    expect(sortsFromIndex(db, {}, page('"items"."m" DESC'), [10, 20, 0])).toBe(false);
  });

  it('answers no for SQL that does not compile, and keeps answers per schema object', () => {
    expect(sortsFromIndex(db, {}, 'SELECT nope FROM nowhere', [])).toBe(false);
    const schema = {};
    const sql = page('"items"."m"');
    expect(sortsFromIndex(db, schema, sql, [1, 5, 0])).toBe(false);
    db.exec('CREATE INDEX idx_m ON items (m)');
    // same schema object: the kept answer; a new one (the collections changed): asked anew
    expect(sortsFromIndex(db, schema, sql, [1, 5, 0])).toBe(false);
    expect(sortsFromIndex(db, {}, sql, [1, 5, 0])).toBe(true);
    db.exec('DROP INDEX idx_m');
  });

  it('lets the list read the page directly when the index gives the order, with the same rows', async () => {
    const sent: ReadQuery[][] = [];
    const direct = directReads(db);
    const reads = { ...direct, batch: (queries: ReadQuery[]) => (sent.push(queries), direct.batch(queries)) };
    const options = { table: 'items', columns: { id: 'id', n: 'n', m: 'm' }, query: { filter: 'n > 10', sort: '-n', perPage: '5' } };
    const late = await runListQuery(reads, options);
    const plain = await runListQuery(reads, { ...options, sortsFromIndex: (sql, params) => sortsFromIndex(db, {}, sql, params) });
    expect(sent[0][0].sql).toContain('_rowid_ IN (');
    expect(sent[1][0].sql).not.toContain('_rowid_');
    expect(plain).toEqual(late);
    expect(plain.items.map((r) => r.n)).toEqual([200, 199, 198, 197, 196]);
  });

  it('reads a kept plan\'s page directly once its last total says few rows match, late again when many do', async () => {
    const sent: ReadQuery[][] = [];
    const direct = directReads(db);
    let total: number | null = null;
    const reads = {
      ...direct,
      batch: async (queries: ReadQuery[]) => {
        sent.push(queries);
        const results = await direct.batch(queries);
        // the count as a big collection would answer it (the page's rows are the same)
        return total === null ? results : [...results.slice(0, -1), total];
      },
    };
    const plan = planListQuery({ table: 'items', columns: { id: 'id', n: 'n', m: 'm' }, query: { filter: 'n > 10', sort: '-m', perPage: '5' } });
    const first = await runListPlan(reads, plan);
    const second = await runListPlan(reads, plan);
    expect(sent[0][0].sql).toContain('_rowid_ IN (');
    expect(sent[1][0].sql).not.toContain('_rowid_');
    expect(second).toEqual(first);
    expect(first.items.map((r) => r.m)).toEqual([189, 188, 187, 186, 185]);
    total = LATE_LOOKUP_FROM;
    await runListPlan(reads, plan);
    await runListPlan(reads, plan);
    expect(sent[3][0].sql).toContain('_rowid_ IN (');
    // a list without its total learns nothing: it keeps the choice its plan has
    const skipping = planListQuery({ table: 'items', columns: { id: 'id', n: 'n', m: 'm' }, query: { sort: '-m', skipTotal: '1' } });
    await runListPlan(reads, skipping);
    await runListPlan(reads, skipping);
    expect(sent[5][0].sql).toContain('_rowid_ IN (');
  });
});
