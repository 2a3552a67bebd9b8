// Records list and expand benchmark. Builds a collection of 100,000 records
// (1,000,000 with BENCH_FULL=1) by direct SQL inserts in a temp data dir, then measures:
//  - the list API (filter + sort on an indexed column, perPage 40, skipTotal) p50, over HTTP and
//    through fastify.inject, against the same SQL run directly through better-sqlite3;
//  - the same list with totals (its COUNT is real work) over HTTP from a client process, as a user
//    gets it, against the same two statements run directly, and against a bare Fastify server
//    running them with the same compression (budget 1.5x the bare server's p50, the median of
//    interleaved rounds);
//  - expand of 40 records with a single and a multiple relation: queries executed.
// Run alone: `npx tsx bench/records.ts`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createApp } from '../server/app';
import { queryCounter } from '../server/records/store';
import { apiCall, benchAdmin } from './api-client';
import { startBareList } from './bare-list';

const run = promisify(execFile);

export interface RecordsBenchResult {
  records: number;
  buildMs: number;
  apiHttpP50Ms: number;
  apiInjectP50Ms: number;
  sqlP50Ms: number;
  ratioHttp: number;
  ratioInject: number;
  expandQueries: number;
  expandP50Ms: number;
  /** list with totals (select + COUNT) over HTTP (a client process, last byte as sent) vs the same two statements run directly */
  totalsRatio: number;
  /** the same list with totals over HTTP vs a bare Fastify server running the two statements with the same compression */
  totalsBareRatio: number;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Requests bench/latency-probe.mjs sends before the timed ones (its `warmup`). */
const PROBE_WARMUP = 30;
/** Timed requests of the probe per round: enough for the CPU-time figure (the kernel counts it in 10 ms ticks). */
const probeCount = 400;
/** Rounds of ours and the bare server, interleaved; the median round's ratio is the budget's. */
const PROBE_ROUNDS = 5;

interface ProbeResult {
  p50: number;
  p90: number;
  bytes: number;
  encoding: string;
}

/** CPU time of this process's main thread so far, in ms (Linux: /proc; elsewhere all threads). */
function mainThreadCpuMs(): number {
  try {
    const fields = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
}

/** Times `count` requests to `url` from a client process of its own (bench/latency-probe.mjs). */
async function probeLatency(url: string, count: number, authorization: string): Promise<ProbeResult> {
  const { stdout } = await run(process.execPath, [path.join(import.meta.dirname, 'latency-probe.mjs'), url, String(count), authorization]);
  return JSON.parse(stdout);
}

async function time(n: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

export async function benchRecords(opts: { records?: number; log?: (line: string) => void } = {}): Promise<RecordsBenchResult> {
  const total = opts.records ?? (process.env.BENCH_FULL === '1' ? 1_000_000 : 100_000);
  const log = opts.log ?? ((line: string) => console.log(line));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-records-'));
  const app = await createApp({ dataDir: path.join(dir, 'pb_data'), dashboardDir: null });
  try {
    const url = await app.listen('127.0.0.1', 0);
    const call = apiCall(url);
    const { token } = await benchAdmin(call, 'bench@example.com');
    const owners = await call('POST', '/api/collections', { name: 'owners', schema: [{ name: 'name', type: 'text' }], listRule: '', viewRule: '' }, token);
    const bench = await call(
      'POST',
      '/api/collections',
      {
        name: 'bench',
        listRule: '',
        viewRule: '',
        indexes: ['CREATE INDEX idx_bench_score ON bench (score)'],
        schema: [
          { name: 'title', type: 'text' },
          { name: 'score', type: 'number' },
          { name: 'owner', type: 'relation', options: { collectionId: owners.id, maxSelect: 1 } },
          { name: 'watchers', type: 'relation', options: { collectionId: owners.id, maxSelect: null } },
        ],
      },
      token,
    );
    if (!bench.id) throw new Error(`failed to create the bench collection: ${JSON.stringify(bench)}`);

    // ---- build -------------------------------------------------------------------------------
    const db = app.db;
    const t0 = Date.now();
    const ownerIds = Array.from({ length: 200 }, (_, i) => `owner${String(i).padStart(10, '0')}`);
    const now = '2024-01-01 00:00:00.000Z';
    db.transaction(() => {
      const o = db.prepare('INSERT INTO owners (id, created, updated, name) VALUES (?, ?, ?, ?)');
      for (const id of ownerIds) o.run(id, now, now, `name of ${id}`);
      const ins = db.prepare('INSERT INTO bench (id, created, updated, title, score, owner, watchers) VALUES (?, ?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < total; i++) {
        const w = JSON.stringify([ownerIds[(i * 7) % 200], ownerIds[(i * 13 + 1) % 200]]);
        ins.run(`r${String(i).padStart(14, '0')}`, now, now, `title ${i}`, (i * 7919) % total, ownerIds[i % 200], w);
      }
    })();
    db.exec('ANALYZE');
    const buildMs = Date.now() - t0;
    log(`records: built ${total.toLocaleString('en-US')} rows in ${buildMs} ms`);

    // ---- list --------------------------------------------------------------------------------
    const threshold = Math.floor(total / 2);
    const filter = encodeURIComponent(`score > ${threshold}`);
    const listPath = `/api/collections/bench/records?filter=${filter}&sort=-score&perPage=40&skipTotal=1`;
    const first = await call('GET', listPath, undefined, token);
    if (!Array.isArray(first.items) || first.items.length !== 40) throw new Error(`unexpected list answer: ${JSON.stringify(first).slice(0, 300)}`);
    const sql = db.prepare('SELECT "bench".* FROM "bench" WHERE (("bench"."score" > ?)) ORDER BY "bench"."score" DESC LIMIT ? OFFSET ?');
    const iterations = 300;
    await time(30, () => call('GET', listPath, undefined, token));
    const httpTimes = await time(iterations, () => call('GET', listPath, undefined, token));
    const injectTimes = await time(iterations, () => app.fastify.inject({ method: 'GET', url: listPath, headers: { authorization: token } }));
    await time(30, () => sql.all(threshold, 40, 0));
    const sqlTimes = await time(iterations, () => sql.all(threshold, 40, 0));
    const apiHttpP50Ms = p50(httpTimes);
    const apiInjectP50Ms = p50(injectTimes);
    const sqlP50Ms = p50(sqlTimes);
    log(`records: list (filter+sort on indexed score, perPage 40, skipTotal) p50 http ${apiHttpP50Ms.toFixed(3)} ms, inject ${apiInjectP50Ms.toFixed(3)} ms; direct SQL p50 ${sqlP50Ms.toFixed(3)} ms`);
    log(`records: ratio api/sql http ${(apiHttpP50Ms / sqlP50Ms).toFixed(2)}x, inject ${(apiInjectP50Ms / sqlP50Ms).toFixed(2)}x`);
    log('records:   (with skipTotal the SQL is ~0.1 ms, so the ratio measures the fixed per-request cost: routing, auth, JSON)');

    // The same list with totals (the API then also runs a COUNT): here the SQL is real work. The
    // budget line times it as a user gets it: a client in its own process (bench/latency-probe.mjs)
    // sends what a browser's fetch() sends and counts until the last byte of the compressed body
    // (its decoding and JSON parsing are the client's work). For reference, the same request through
    // fetch() in this process (the server's event loop), decoded and parsed, and through inject.
    const totalsPath = listPath.replace('&skipTotal=1', '');
    const countSql = db.prepare('SELECT COUNT(*) AS c FROM "bench" WHERE (("bench"."score" > ?))');
    const directTotals = () => {
      countSql.get(threshold);
      return sql.all(threshold, 40, 0);
    };
    await time(30, directTotals);
    const ms = mainThreadCpuMs();
    const totalsSqlTimes = await time(probeCount, directTotals);
    const sqlCpuMs = (mainThreadCpuMs() - ms) / probeCount;
    // ours and the bare server in interleaved rounds (the order alternating), each round's ratio
    // taken within the round: the machine's other load moves both alike; the median round counts
    const bare = await startBareList(path.join(dir, 'pb_data', 'data.db'), sql.source, countSql.source, [threshold], 40);
    const rounds: Array<{ ours: ProbeResult; bare: ProbeResult; oursCpuMs: number; bareCpuMs: number }> = [];
    try {
      for (let i = 0; i < PROBE_ROUNDS; i++) {
        const timed = async (target: string) => {
          const cpu0 = mainThreadCpuMs();
          const result = await probeLatency(target + totalsPath, probeCount, token);
          return { result, cpuMs: (mainThreadCpuMs() - cpu0) / (probeCount + PROBE_WARMUP) };
        };
        const first = await timed(i % 2 ? bare.url : url);
        const second = await timed(i % 2 ? url : bare.url);
        const [o, b] = i % 2 ? [second, first] : [first, second];
        rounds.push({ ours: o.result, bare: b.result, oursCpuMs: o.cpuMs, bareCpuMs: b.cpuMs });
      }
    } finally {
      await bare.close();
    }
    const medianRound = [...rounds].sort((a, b) => a.ours.p50 / a.bare.p50 - b.ours.p50 / b.bare.p50)[Math.floor(rounds.length / 2)];
    const probe = medianRound.ours;
    const floor = medianRound.bare;
    const requestCpuMs = p50(rounds.map((r) => r.oursCpuMs));
    const floorCpuMs = p50(rounds.map((r) => r.bareCpuMs));
    const cpuRatio = p50(rounds.map((r) => r.oursCpuMs / r.bareCpuMs));
    log(`records:   rounds (ours / bare p50): ${rounds.map((r) => (r.ours.p50 / r.bare.p50).toFixed(2)).join(' ')}; CPU per request ours / bare, median round ${cpuRatio.toFixed(2)}x`);
    const totalsFetchTimes = await time(100, () => call('GET', totalsPath, undefined, token));
    const totalsInjectTimes = await time(100, () => app.fastify.inject({ method: 'GET', url: totalsPath, headers: { authorization: token } }));
    totalsSqlTimes.push(...(await time(probeCount, directTotals)));
    const sqlTotalsP50 = p50(totalsSqlTimes);
    const totalsRatio = probe.p50 / sqlTotalsP50;
    log(
      `records: list with totals p50 over HTTP ${probe.p50.toFixed(3)} ms (p90 ${probe.p90.toFixed(3)}; ${probe.bytes} bytes ${probe.encoding} as sent); ` +
        `the same SQL (select + count) direct p50 ${sqlTotalsP50.toFixed(3)} ms; ratio ${totalsRatio.toFixed(2)}x`,
    );
    log(
      `records:   the fixed cost of HTTP here: Fastify with the same compression and nothing else, running the same two statements, ` +
        `p50 ${floor.p50.toFixed(3)} ms (${floor.bytes} bytes ${floor.encoding}); ratio ${(floor.p50 / sqlTotalsP50).toFixed(2)}x; ours / bare ${(probe.p50 / floor.p50).toFixed(2)}x (budget 1.5x); CPU per request ${floorCpuMs.toFixed(3)} ms (${(floorCpuMs / sqlCpuMs).toFixed(2)}x)`,
    );
    log(
      `records:   this process's main-thread CPU per request ${requestCpuMs.toFixed(3)} ms, per direct run of the SQL ${sqlCpuMs.toFixed(3)} ms: ` +
        `${(requestCpuMs / sqlCpuMs).toFixed(2)}x (CPU time hardly moves with other load on the machine; latency does)`,
    );
    log(
      `records:   for reference: fetch() in the server's process, decoded and parsed, p50 ${p50(totalsFetchTimes).toFixed(3)} ms (${(p50(totalsFetchTimes) / sqlTotalsP50).toFixed(2)}x); ` +
        `inject (no socket, no compression) ${p50(totalsInjectTimes).toFixed(3)} ms (${(p50(totalsInjectTimes) / sqlTotalsP50).toFixed(2)}x)`,
    );

    // ---- expand ------------------------------------------------------------------------------
    const expandPath = `${listPath}&expand=owner,watchers`;
    const counter = queryCounter(app.ctx);
    const before = counter.queries;
    const expanded = await call('GET', expandPath, undefined, token);
    const expandQueries = counter.queries - before;
    if (!expanded.items?.[0]?.expand?.owner) throw new Error('expand did not happen');
    const expandP50Ms = p50(await time(100, () => app.fastify.inject({ method: 'GET', url: expandPath, headers: { authorization: token } })));
    log(`records: expand owner,watchers of 40 records: ${expandQueries} relation queries (plus the list query), p50 ${expandP50Ms.toFixed(3)} ms (inject)`);

    return {
      records: total,
      buildMs,
      apiHttpP50Ms,
      apiInjectP50Ms,
      sqlP50Ms,
      ratioHttp: apiHttpP50Ms / sqlP50Ms,
      ratioInject: apiInjectP50Ms / sqlP50Ms,
      expandQueries,
      expandP50Ms,
      totalsRatio,
      totalsBareRatio: probe.p50 / floor.p50,
    };
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchRecords().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
