// Stall benchmark: while a guest's list of an endless view runs until its query budget
// stops it, /api/health is probed every 20 ms. Reports the health p50/max (budget: 50 ms p50) and
// when the stopped list answered. Fairness: while 8 guests hammer a runaway public view (the
// default 30 s budget), a normal list of a public collection is timed (budget: p99 under 100 ms).
// Run alone: `npx tsx bench/stall.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';
import { apiCall, apiRequest, benchAdmin } from './api-client';
import { budgetFor } from '../server/db/read-admission';

export interface StallBenchResult {
  healthP50Ms: number;
  healthMaxMs: number;
  probes: number;
  stoppedAfterMs: number;
  status: number;
}

const BUDGET_MS = 2000;

export async function benchStall(log: (line: string) => void = (l) => console.log(l)): Promise<StallBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-stall-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: null, queryTimeoutMs: BUDGET_MS });
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiRequest(url);
    const { token } = await benchAdmin(apiCall(url), 'bench@example.com');
    const query = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c';
    await call('POST', '/api/collections', { name: 'endless', type: 'view', listRule: '', options: { query } }, token);
    await call('GET', '/api/collections?perPage=1', undefined, token); // start the pool's first child

    const t0 = performance.now();
    let done = false;
    const slow = call('GET', '/api/collections/endless/records').finally(() => (done = true));
    const probes: number[] = [];
    while (!done) {
      const t = performance.now();
      await call('GET', '/api/health');
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const { status } = await slow;
    const stoppedAfterMs = performance.now() - t0;
    probes.sort((a, b) => a - b);
    const result = {
      healthP50Ms: probes[Math.floor(probes.length / 2)],
      healthMaxMs: probes[probes.length - 1],
      probes: probes.length,
      stoppedAfterMs,
      status,
    };
    log(
      `stall: /api/health during an endless view list: p50 ${result.healthP50Ms.toFixed(1)} ms, max ${result.healthMaxMs.toFixed(1)} ms ` +
        `(${result.probes} probes; budget 50 ms p50); the list was stopped with ${status} after ${stoppedAfterMs.toFixed(0)} ms (query budget ${BUDGET_MS} ms, a guest's ${budgetFor({ key: 'ip:bench', tier: 'guest' }, BUDGET_MS)} ms)`,
    );
    return result;
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface FairnessBenchResult {
  listP50Ms: number;
  listP99Ms: number;
  lists: number;
}

const FAIRNESS_SECONDS = 10;

export async function benchFairness(log: (line: string) => void = (l) => console.log(l)): Promise<FairnessBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-fair-'));
  // PocketBase's default query budget (30 s; guests get a third of it)
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: null });
  const gone = new AbortController();
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiRequest(url);
    const { token } = await benchAdmin(apiCall(url), 'bench@example.com');
    // a public view whose query runs until its budget: an expensive cross join
    const query = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS id FROM c';
    await call('POST', '/api/collections', { name: 'endless', type: 'view', listRule: '', options: { query } }, token);
    await call('POST', '/api/collections', { name: 'posts', type: 'base', listRule: '', schema: [{ name: 'title', type: 'text' }, { name: 'score', type: 'number' }] }, token);
    for (let i = 0; i < 200; i++) await call('POST', '/api/collections/posts/records', { title: `post ${i}`, score: i }, token);
    const list = '/api/collections/posts/records?perPage=20&sort=-score';
    await call('GET', list);

    let hammering = true;
    const guests = Array.from({ length: 8 }, async () => {
      while (hammering) await call('GET', '/api/collections/endless/records', undefined, undefined, gone.signal).catch(() => undefined);
    });
    const times: number[] = [];
    const until = performance.now() + FAIRNESS_SECONDS * 1000;
    while (performance.now() < until) {
      const t = performance.now();
      const res = await call('GET', list);
      if (res.status !== 200) throw new Error(`the normal list answered ${res.status}`);
      times.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
    hammering = false;
    gone.abort();
    await Promise.all(guests);
    // the server sees the guests' sockets close and drops their reads before it stops
    await new Promise((r) => setTimeout(r, 300));
    times.sort((a, b) => a - b);
    const result = { listP50Ms: times[Math.floor(times.length / 2)], listP99Ms: times[Math.floor(times.length * 0.99)], lists: times.length };
    log(
      `fairness: a normal list (public, 200 records) while 8 guests hammer a runaway public view: p50 ${result.listP50Ms.toFixed(1)} ms, ` +
        `p99 ${result.listP99Ms.toFixed(1)} ms over ${result.lists} lists in ${FAIRNESS_SECONDS} s — budget p99 100 ms`,
    );
    return result;
  } finally {
    gone.abort();
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void benchStall().then(() => benchFairness());
}
