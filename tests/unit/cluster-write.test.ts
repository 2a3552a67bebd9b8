// A member of a cluster that finds data.db's write lock taken by another process retries between
// turns of its event loop instead of sleeping inside SQLite (server/cluster/write-turn.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, tryUnitOfWork, unitOfWork, type DB } from '../../server/db/database';
import { clusterWrite } from '../../server/cluster/write-turn';
import type { ClusterChannel } from '../../server/cluster/channel';

let dir: string;
let mine: DB;
let other: DB;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-cluster-write-'));
  mine = openDatabase(path.join(dir, 'data.db'));
  other = openDatabase(path.join(dir, 'data.db'));
  mine.exec('CREATE TABLE t (n INTEGER)');
});

afterEach(() => {
  mine.close();
  other.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const twoMembers = { members: () => 2 } as unknown as ClusterChannel;
const busyTimeout = (db: DB) => (db.pragma('busy_timeout') as Array<{ timeout: number }>)[0].timeout;

describe('tryUnitOfWork', () => {
  it('gives up at once while another connection writes, without running fn, and keeps the usual wait', () => {
    const tryTx = tryUnitOfWork(mine);
    other.exec('BEGIN IMMEDIATE');
    let ran = false;
    const t0 = performance.now();
    expect(tryTx(() => (ran = true))).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(500);
    expect(ran).toBe(false);
    expect(busyTimeout(mine)).toBe(10000);
    other.exec('COMMIT');
    expect(tryTx(() => mine.prepare('INSERT INTO t VALUES (1)').run().changes)).toEqual({ value: 1 });
    expect(busyTimeout(mine)).toBe(10000);
  });

  it("passes fn's own errors on and rolls its writes back", () => {
    const tryTx = tryUnitOfWork(mine);
    expect(() =>
      tryTx(() => {
        mine.prepare('INSERT INTO t VALUES (1)').run();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(mine.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });
});

describe('clusterWrite', () => {
  it('waits for the other writer with the event loop free, then writes', async () => {
    const db = { transaction: unitOfWork(mine), tryTransaction: tryUnitOfWork(mine) };
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 1);
    setTimeout(() => other.exec('COMMIT'), 30);
    const n = await clusterWrite(twoMembers, db, () => mine.prepare('INSERT INTO t VALUES (2)').run().changes);
    clearInterval(ticking);
    expect(n).toBe(1);
    // timers ran while the write waited: nothing slept inside SQLite
    expect(ticks).toBeGreaterThan(5);
    expect(mine.prepare('SELECT n FROM t').all()).toEqual([{ n: 2 }]);
  });

  it('writes at once with one member', async () => {
    const db = { transaction: unitOfWork(mine), tryTransaction: tryUnitOfWork(mine) };
    expect(await clusterWrite(undefined, db, () => 7)).toBe(7);
  });
});
