// Every core (issue 35): the built server with `serve --workers 2` beside the same server with one
// process, side by side in one run, each on its own fresh data: a public list (200 records,
// perPage 20 with totals) and a record create, CONCURRENCY clients on keep-alive connections (new
// connections are dealt round the workers) for 5 s, BENCH_WORKERS_ROUNDS times each (3),
// interleaved. The load generator runs on the same machine and takes its share of the cores: wrk
// when installed (bench/wrk-load.ts), else bench/hooks-load.mjs. Budget: the median of the rounds' ratios (2 workers / 1) at least 1.3x for
// both. Run alone: `npx tsx bench/workers.ts`.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { apiCall, benchAdmin } from './api-client';
import { freePort } from './free-port';
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

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(main: string, dataDir: string, workers: number): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [main, 'serve', `--http=127.0.0.1:${port}`, `--dir=${dataDir}`, `--workers=${workers}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  // up once every worker listens (the primary's "Workers:" line), or the one process answers
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server (--workers=${workers}) exited with ${child.exitCode}: ${out}`);
    const ready = workers > 1 ? out.includes('Workers:') : await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() - t0 > 60_000) throw new Error(`the server (--workers=${workers}) did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    url,
    child,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The public collection both servers list and create in. */
async function seed(url: string): Promise<void> {
  const call = apiCall(url);
  const { token } = await benchAdmin(call, 'bench@example.com');
  const created = await call('POST', '/api/collections', {
    name: 'posts',
    type: 'base',
    listRule: '',
    viewRule: '',
    createRule: '',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'score', type: 'number' },
    ],
  }, token);
  if (!created.id) throw new Error(`could not create the collection: ${JSON.stringify(created)}`);
  for (let i = 0; i < 200; i++) await call('POST', '/api/collections/posts/records', { title: `post ${i}`, score: i }, token);
}


const LIST = '/api/collections/posts/records?perPage=20&sort=-score';
const CREATE = '/api/collections/posts/records';
const CREATE_BODY = JSON.stringify({ title: 'created by the bench', score: 7 });

const WRK = hasWrk();

async function load(url: string, kind: 'list' | 'create', seconds = 5): Promise<Load> {
  if (WRK) {
    const out = kind === 'list' ? await wrkLoad(url + LIST, CONCURRENCY, seconds) : await wrkLoad(url + CREATE, CONCURRENCY, seconds, { method: 'POST', body: CREATE_BODY });
    if (out.errors) throw new Error(`${out.errors} ${kind} request(s) failed`);
    return out;
  }
  const args = kind === 'list' ? [url + LIST, String(CONCURRENCY), String(seconds)] : [url + CREATE, String(CONCURRENCY), String(seconds), 'POST', CREATE_BODY];
  const out = JSON.parse((await run(process.execPath, [path.join(import.meta.dirname, 'hooks-load.mjs'), ...args])).stdout) as Load;
  if (out.errors) throw new Error(`${out.errors} ${kind} request(s) failed`);
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function benchWorkers(log: (line: string) => void = (l) => console.log(l)): Promise<WorkersResult> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-workers-'));
  const servers: Server[] = [];
  try {
    const built = path.join(ROOT, 'node_modules', '.cache', 'outpost-bench-workers');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), built], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('server build failed');
    const main = path.join(built, 'main.mjs');
    const one = await startServer(main, path.join(tmp, 'one'), 1);
    servers.push(one);
    const two = await startServer(main, path.join(tmp, 'two'), 2);
    servers.push(two);
    await seed(one.url);
    await seed(two.url);
    // warm-up: each worker's shapes measured, its JIT warm
    for (const s of servers) for (const kind of ['list', 'create'] as const) await load(s.url, kind, 1);
    const ratios: Record<'list' | 'create', number[]> = { list: [], create: [] };
    const sums: Record<string, number> = {};
    log(`workers: ${CONCURRENCY} clients, 5 s per measure, ${ROUNDS} round(s), ${os.cpus().length} cores, load generator on this machine (${WRK ? 'wrk' : 'Node: install wrk for a lighter one'})`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['list', 'create'] as const) {
        const order = round % 2 ? [two, one] : [one, two];
        const got = new Map<Server, Load>();
        for (const s of order) got.set(s, await load(s.url, kind));
        const a = got.get(one)!;
        const b = got.get(two)!;
        ratios[kind].push(b.rps / a.rps);
        sums[`one:${kind}`] = (sums[`one:${kind}`] ?? 0) + a.rps;
        sums[`two:${kind}`] = (sums[`two:${kind}`] ?? 0) + b.rps;
        log(
          `  round ${round + 1} ${kind.padEnd(6)}: 1 process ${a.rps} req/s (p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms), ` +
            `--workers 2 ${b.rps} req/s (p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms): ${(b.rps / a.rps).toFixed(2)}x`,
        );
      }
    }
    const result = { listRatio: median(ratios.list), createRatio: median(ratios.create) };
    for (const kind of ['list', 'create'] as const) {
      log(
        `workers ${kind}: --workers 2 / 1 process, median of rounds ${(kind === 'list' ? result.listRatio : result.createRatio).toFixed(2)}x ` +
          `(summed ${(sums[`two:${kind}`] / sums[`one:${kind}`]).toFixed(2)}x; budget ${BUDGET_WORKERS_RATIO}x)`,
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
