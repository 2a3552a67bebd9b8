// The read pool's price on a plain list: a public collection of 200 records listed with
// `perPage=20&sort=-score` by 10 concurrent clients for 5 s, on the server as it is and on the same
// server reading on its main connection as it did before the pool (the yardstick, same data, same
// process), twice each, interleaved. Budget: throughput at least 0.9x the yardstick's. The load
// runs in a child process (bench/list-load.mjs). Run alone: `npx tsx bench/pool-price.ts`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createApp } from '../server/app';
import { directReads } from '../server/db/database';
import { apiCall, benchAdmin } from './api-client';

const run = promisify(execFile);

export interface PoolPriceResult {
  ratio: number;
  poolRps: number[];
  directRps: number[];
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
}

export async function benchPoolPrice(log: (line: string) => void = (l) => console.log(l)): Promise<PoolPriceResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-pool-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: null });
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiCall(url);
    const { token } = await benchAdmin(call, 'bench@example.com');
    await call('POST', '/api/collections', { name: 'posts', type: 'base', listRule: '', viewRule: '', schema: [{ name: 'title', type: 'text' }, { name: 'score', type: 'number' }] }, token);
    for (let i = 0; i < 200; i++) await call('POST', '/api/collections/posts/records', { title: `post ${i}`, score: i }, token);
    const target = `${url}/api/collections/posts/records?perPage=20&sort=-score`;
    const ctx = app.ctx as { reads: typeof app.ctx.reads };
    const pool = ctx.reads;
    const direct = directReads(app.db);
    const load = async (): Promise<Load> => JSON.parse((await run(process.execPath, [path.join(import.meta.dirname, 'list-load.mjs'), target, '10', '5'])).stdout);
    // warm both paths (the pool learns the list's shape)
    for (const reads of [pool, direct]) {
      ctx.reads = reads;
      for (let i = 0; i < 20; i++) await fetch(target).then((r) => r.arrayBuffer());
    }
    const results: { pool: Load[]; direct: Load[] } = { pool: [], direct: [] };
    for (let round = 0; round < 2; round++) {
      for (const name of ['direct', 'pool'] as const) {
        ctx.reads = name === 'pool' ? pool : direct;
        results[name].push(await load());
      }
    }
    ctx.reads = pool;
    const sum = (xs: Load[]) => xs.reduce((a, x) => a + x.rps, 0);
    const ratio = sum(results.pool) / sum(results.direct);
    const fmt = (xs: Load[]) => xs.map((x) => `${x.rps} req/s (p50 ${x.p50.toFixed(1)} ms)`).join(', ');
    log(`pool price: a plain public list, 10 clients, 5 s, twice: with the read pool ${fmt(results.pool)}; reading on the main connection as before the pool ${fmt(results.direct)}; ratio ${ratio.toFixed(2)}x — budget at least 0.9x`);
    return { ratio, poolRps: results.pool.map((x) => x.rps), directRps: results.direct.map((x) => x.rps) };
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void benchPoolPrice();
}
