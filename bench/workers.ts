// Every core (issue 35): the built server with `serve --workers 2` beside the same server with one
// process, side by side in one run, each on its own fresh data: a public list (200 records,
// perPage 20 with totals) and a record create (into another collection, so the list stays 200
// records), CONCURRENCY clients on keep-alive connections (new connections are dealt round the
// workers) for 5 s, BENCH_WORKERS_ROUNDS times each (3), interleaved. The load generator runs on
// the same machine and takes its share of the cores: wrk when installed (bench/wrk-load.ts), else
// bench/hooks-load.mjs. Budget: the median of the rounds' ratios (2 workers / 1) at least 1.3x
// for both. Run alone: `npx tsx bench/workers.ts`.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { median, POSTS_LIST, seedPosts, sideBySide, startBenchServer, type BenchServer } from './side-by-side';
import { hasWrk, wrkLoad, type Load } from './wrk-load';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_WORKERS_ROUNDS ?? 3);
const CONCURRENCY = 16;
export const BUDGET_WORKERS_RATIO = 1.3;

export interface WorkersResult {
  /** median over the rounds of (2 workers / 1) throughput: the list, the create */
  listRatio: number;
  createRatio: number;
}

function startServer(main: string, dataDir: string, workers: number): Promise<BenchServer> {
  return startBenchServer({
    args: [main],
    cwd: ROOT,
    dataDir,
    flags: [`--workers=${workers}`],
    stderr: 'inherit',
    label: `--workers=${workers}`,
    // up once every worker listens (the primary's "Workers:" line), or the one process answers
    ready: workers > 1 ? (_url, out) => out.includes('Workers:') : undefined,
  });
}

const CREATE = '/api/collections/inbox/records';
const CREATE_BODY = JSON.stringify({ title: 'created by the bench', score: 7 });

const WRK = hasWrk();

async function load(url: string, kind: 'list' | 'create', seconds = 5): Promise<Load> {
  if (WRK) {
    const out = kind === 'list' ? await wrkLoad(url + POSTS_LIST, CONCURRENCY, seconds) : await wrkLoad(url + CREATE, CONCURRENCY, seconds, { method: 'POST', body: CREATE_BODY });
    if (out.errors) throw new Error(`${out.errors} ${kind} request(s) failed`);
    return out;
  }
  const args = kind === 'list' ? [url + POSTS_LIST, String(CONCURRENCY), String(seconds)] : [url + CREATE, String(CONCURRENCY), String(seconds), 'POST', CREATE_BODY];
  const out = JSON.parse((await run(process.execPath, [path.join(import.meta.dirname, 'hooks-load.mjs'), ...args])).stdout) as Load;
  if (out.errors) throw new Error(`${out.errors} ${kind} request(s) failed`);
  return out;
}

export async function benchWorkers(log: (line: string) => void = (l) => console.log(l)): Promise<WorkersResult> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-workers-'));
  const servers: BenchServer[] = [];
  try {
    const built = path.join(ROOT, 'node_modules', '.cache', 'outpost-bench-workers');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), built], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('server build failed');
    const main = path.join(built, 'main.mjs');
    const one = await startServer(main, path.join(tmp, 'one'), 1);
    servers.push(one);
    const two = await startServer(main, path.join(tmp, 'two'), 2);
    servers.push(two);
    const rules = { listRule: '', viewRule: '', createRule: '' };
    // the creates go to a collection of their own: the list stays 200 records round after round
    await seedPosts(one.url, rules, ['inbox']);
    await seedPosts(two.url, rules, ['inbox']);
    // warm-up: each worker's shapes measured, its JIT warm
    for (const s of servers) for (const kind of ['list', 'create'] as const) await load(s.url, kind, 1);
    log(`workers: ${CONCURRENCY} clients, 5 s per measure, ${ROUNDS} round(s), ${os.cpus().length} cores, load generator on this machine (${WRK ? 'wrk' : 'Node: install wrk for a lighter one'})`);
    const results = await sideBySide(ROUNDS, ['list', 'create'] as const, (who, kind) => load((who === 'baseline' ? one : two).url, kind), (round, kind, { baseline: a, candidate: b }) =>
      log(
        `  round ${round + 1} ${kind.padEnd(6)}: 1 process ${a.rps} req/s (p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms), ` +
          `--workers 2 ${b.rps} req/s (p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms): ${(b.rps / a.rps).toFixed(2)}x`,
      ),
    );
    const ratios = (kind: 'list' | 'create') => results[kind].candidate.map((b, i) => b.rps / results[kind].baseline[i].rps);
    const sum = (xs: Load[]) => xs.reduce((n, x) => n + x.rps, 0);
    const result = { listRatio: median(ratios('list')), createRatio: median(ratios('create')) };
    for (const kind of ['list', 'create'] as const) {
      log(
        `workers ${kind}: --workers 2 / 1 process, median of rounds ${(kind === 'list' ? result.listRatio : result.createRatio).toFixed(2)}x ` +
          `(summed ${(sum(results[kind].candidate) / sum(results[kind].baseline)).toFixed(2)}x; budget ${BUDGET_WORKERS_RATIO}x)`,
      );
    }
    return result;
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchWorkers();
  if (Math.min(r.listRatio, r.createRatio) < BUDGET_WORKERS_RATIO) process.exitCode = 1;
}
