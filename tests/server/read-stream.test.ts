// ReadPool.stream (server/db/read-stream.ts), the SQL console's way into the read pool, on a real
// pool of child processes: SQLite's own read-only flag refuses what the console's parser would
// have to know about (a TEMP table a read-only connection may write, ATTACH), rows come in chunks
// the reader asks for, the budget counts SQLite's time and not the reader's, a runaway is killed,
// and a reader that stops early frees the child without killing it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directReads, openDatabase, QueryTimeoutError, ReadQueryError, type ReadPool } from '../../server/db/database';
import { createReadPool } from '../../server/db/read-pool';
import { NOT_READ_ONLY, NO_ROWS } from '../../server/db/read-stream';
import { tempDir } from '../helpers/server';

const dir = tempDir('outpost-read-stream-');
const file = path.join(dir, 'data.db');
let pool: ReadPool;

beforeAll(() => {
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)');
  const insert = db.prepare('INSERT INTO t (label) VALUES (?)');
  db.transaction(() => {
    for (let i = 1; i <= 1200; i++) insert.run(`row ${i}`);
  })();
  db.close();
  pool = createReadPool(file, { budgetMs: 600, maxSize: 3 });
});

afterAll(async () => {
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function refusal(sql: string): Promise<ReadQueryError> {
  const err = await pool.stream(sql).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ReadQueryError);
  return err as ReadQueryError;
}

describe('SQLite decides what is read-only', () => {
  it('refuses statements SQLite says write, TEMP objects included (a read-only connection may create them)', async () => {
    for (const sql of ['DELETE FROM t', "INSERT INTO t (label) VALUES ('x')", 'CREATE TEMP TABLE z (a)', 'CREATE TEMP VIEW v AS SELECT 1', 'PRAGMA user_version = 3', 'PRAGMA journal_mode']) {
      expect((await refusal(sql)).code, sql).toBe(NOT_READ_ONLY);
    }
    const [count] = await pool.batch([{ sql: 'SELECT count(*) FROM t', mode: 'pluck' }]);
    expect(count).toBe(1200);
  });

  it('refuses statements that return no rows (ATTACH and BEGIN pass SQLite\'s read-only flag)', async () => {
    expect((await refusal(`ATTACH '${path.join(dir, 'other.db')}' AS other`)).code).toBe(NO_ROWS);
    expect((await refusal('BEGIN')).code).toBe(NO_ROWS);
    expect(fs.existsSync(path.join(dir, 'other.db'))).toBe(false);
  });

  it("passes SQLite's errors through", async () => {
    const err = await refusal('SELECT * FROM missing');
    expect(err.message).toBe('no such table: missing');
  });
});

describe('rows in chunks', () => {
  it('hands the rows over in chunks, in order, then null', async () => {
    const rows = await pool.stream('SELECT id, label FROM t ORDER BY id', { chunkRows: 500 });
    expect(rows.columns).toEqual(['id', 'label']);
    const sizes: number[] = [];
    const all: unknown[][] = [];
    for (let chunk = await rows.next(); chunk; chunk = await rows.next()) {
      sizes.push(chunk.length);
      all.push(...chunk);
    }
    expect(sizes).toEqual([500, 500, 200]);
    expect(all[0]).toEqual([1, 'row 1']);
    expect(all[1199]).toEqual([1200, 'row 1200']);
    expect(await rows.next()).toBeNull();
    expect(pool.busyPids()).toEqual([]);
  });

  it("does not charge the reader's time to the budget (600 ms here)", async () => {
    const rows = await pool.stream('SELECT id FROM t', { chunkRows: 100 });
    let n = 0;
    for (let chunk = await rows.next(); chunk; chunk = await rows.next()) {
      n += chunk.length;
      await sleep(100);
    }
    expect(n).toBe(1200);
  });

  it('a reader that stops early frees its child, which lives on for other reads', async () => {
    const rows = await pool.stream('SELECT id FROM t', { chunkRows: 100 });
    await rows.next();
    await sleep(50);
    const [pid] = pool.busyPids();
    expect(pid).toBeGreaterThan(0);
    rows.close();
    expect(pool.busyPids()).toEqual([]);
    expect(alive(pid)).toBe(true);
    expect(await rows.next()).toBeNull();
    const [count] = await pool.batch([{ sql: 'SELECT count(*) FROM t', mode: 'pluck' }]);
    expect(count).toBe(1200);
  });

  it('stops a runaway at the budget, whether before its first rows or between chunks, and kills its process', async () => {
    const counter = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';
    const t0 = performance.now();
    const early = await pool.stream(`${counter} SELECT count(*) FROM c`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(early).toBeInstanceOf(QueryTimeoutError);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(590);

    const rows = await pool.stream(`${counter} SELECT x FROM c WHERE x <= 150 OR x < 0`, { chunkRows: 100 });
    expect(await rows.next()).toHaveLength(100);
    const [pid] = pool.busyPids();
    await expect(rows.next()).rejects.toBeInstanceOf(QueryTimeoutError);
    await sleep(50);
    expect(alive(pid)).toBe(false);
    expect(pool.busyPids()).toEqual([]);
  });
});

it('directReads streams too (unit tests over an in-memory database)', async () => {
  const db = openDatabase(':memory:');
  db.exec("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3), (x'00ff')");
  const reads = directReads(db);
  const rows = await reads.stream('SELECT a FROM t', { chunkRows: 2 });
  expect(await rows.next()).toEqual([[1], [2]]);
  expect(await rows.next()).toEqual([[3], ["x'00ff'"]]);
  expect(await rows.next()).toBeNull();
  await expect(reads.stream('DELETE FROM t')).rejects.toMatchObject({ code: NOT_READ_ONLY });
  db.close();
});
