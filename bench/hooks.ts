// pb_hooks budgets (issue 34), on the BUILT server (bundled from the current sources into
// bench/.tmp/hooks-server), temp project folders, loopback only, bounded loops:
// - cost of record hooks: guest creates on a base collection, 10 clients, 4 rounds of 3 s,
//   interleaved, on a server whose pb_hooks has no-op onRecordBeforeCreateRequest +
//   onRecordAfterCreateRequest handlers vs the same build without pb_hooks. Budget: at least 0.8x
//   the throughput. Such handlers run on the main thread (server/hooks/inline-runner.ts: Settings ›
//   Hooks must say so, or the run fails); the same pair over a variable of its file runs in an
//   executor, and its figure is reported beside (the price of the hand-off, not budgeted).
// - cost of a route: a routerAdd GET answering c.json vs a comparable built-in route, a small public
//   record view (a GET that, like the route, checks its caller and answers a small JSON object from
//   the server's state), on the same server, same load, interleaved with the above. Budget: at
//   least 0.8x. GET /api/health, which answers a constant and skips the request log, is timed too
//   and reported: it is the floor of any route, and the route's distance to it is what one call
//   into an executor (a worker thread: two messages and two thread wake-ups) costs. Each figure
//   comes with the server's CPU time per request (every thread, from /proc), steadier than
//   throughput on a shared machine.
// - no stall: /api/health probed every 10 ms on its own connection while 20 concurrent requests run
//   a hook that blocks, on a fresh server: a 2 s `sleep`, then a cost-12 bcrypt check
//   (`record.validatePassword`), 6 s while the executor pool grows from 1 to 20, then 6 s with the
//   20 started; the same probe with no hook running first says what the machine's own load costs.
//   Budget: p99 under 100 ms.
// The loads run in a child process: wrk when installed (bench/wrk-load.ts), else bench/hooks-load.mjs. Run alone: `npx tsx bench/hooks.ts
// [cost|stall]`; BENCH_HOOKS_MAIN=<main.mjs> times another build.
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { apiCall, apiRequest, benchAdmin } from './api-client';
import { freePort } from './free-port';
import { hasWrk, wrkLoad } from './wrk-load';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'bench', '.tmp', 'hooks-server');
const LOAD = path.join(import.meta.dirname, 'hooks-load.mjs');
const WRK = hasWrk();

const CLIENTS = 10;
const SECONDS = 3;
const ROUNDS = 4;
const STALL_CLIENTS = 20;
const STALL_SECONDS = 6;
const PROBE_EVERY_MS = 10;
const IDLE_SECONDS = 2;
const USER = { email: 'bench-user@example.com', password: 'bench-user-pass' };

export const BUDGET_HOOKS_RATIO = 0.8;
export const BUDGET_HOOKS_STALL_P99_MS = 100;

const HOOKS_FILE = `/// <reference path="../pb_data/types.d.ts" />
// no-op record hooks (every collection)
onRecordBeforeCreateRequest((e) => {});
onRecordAfterCreateRequest((e) => {});

// /api/health's own answer, from a hook
routerAdd("GET", "/bench/json", (c) => c.json(200, { message: "API is healthy.", code: 200, data: { canBackup: true } }));

// handlers that block their executor
routerAdd("GET", "/bench/sleep", (c) => {
  sleep(2000);
  return c.json(200, { slept: true });
});
routerAdd("GET", "/bench/bcrypt", (c) => {
  const user = $app.dao().findAuthRecordByEmail("users", ${JSON.stringify(USER.email)});
  return c.json(200, { ok: user.validatePassword(${JSON.stringify(USER.password)}) });
});
`;

/**
 * The same no-op pair over a variable of their file: such handlers run in an executor (only
 * handlers that touch nothing but their event run on the main thread: server/hooks/inline-runner.ts),
 * so this prices the hand-off itself. Reported, not budgeted.
 */
const EXECUTOR_HOOKS_FILE = `/// <reference path="../pb_data/types.d.ts" />
let creates = 0;
onRecordBeforeCreateRequest((e) => { creates++; });
onRecordAfterCreateRequest((e) => { creates--; });
`;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time (every thread) per answered request, µs. */
  cpuUs: number;
}

export interface HooksCostResult {
  /** The no-op pair (on the main thread) against no hooks (the budget). */
  createRatio: number;
  /** The same pair over a file variable (in an executor) against no hooks (reported). */
  executorRatio: number;
  /** The route against the record view (the budget). */
  routeRatio: number;
  /** The route against /api/health (reported). */
  healthRatio: number;
}

export interface HooksStallResult {
  sleepP99Ms: number;
  bcryptP99Ms: number;
}

let built: string | null = null;

/**
 * The built server: the current sources bundled as `npm run build` does, into
 * bench/.tmp/hooks-server, once per run (BENCH_HOOKS_MAIN names another build's main.mjs, to
 * compare two).
 */
function buildServer(): string {
  if (process.env.BENCH_HOOKS_MAIN) return path.resolve(process.env.BENCH_HOOKS_MAIN);
  if (built) return built;
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), OUT], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`the server build failed: ${res.stderr}`);
  return (built = path.join(OUT, 'main.mjs'));
}


interface Project {
  dir: string;
  url: string;
  token: string;
  /** CPU time the server process (main thread and executors) has used so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** `serve` of the built server in `dir`, once /api/health answers; its output kept for errors. */
async function serve(main: string, dir: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const child = spawn(process.execPath, [main, 'serve', '--dir=pb_data', '--automigrate=false', `--http=${url.slice(7)}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const t0 = Date.now();
  for (;;) {
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() - t0 > 60_000) throw new Error(`the server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const TICK_MS = 1000 / 100; // USER_HZ

/** utime + stime of a process (every thread), from /proc. */
function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** A project folder (pb_data, and pb_hooks/bench.pb.js holding `hooks` unless null) served by the built server, with an admin and a public `posts` collection. */
async function startProject(main: string, name: string, hooks: string | null): Promise<Project> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `outpost-bench-hooks-${name}-`));
  if (hooks) {
    fs.mkdirSync(path.join(dir, 'pb_hooks'));
    fs.writeFileSync(path.join(dir, 'pb_hooks', 'bench.pb.js'), hooks);
  }
  const server = await serve(main, dir);
  const { token } = await benchAdmin(apiCall(server.url), 'bench@example.com');
  const call = apiRequest(server.url);
  const posts = await call('POST', '/api/collections', { name: 'posts', type: 'base', listRule: '', viewRule: '', createRule: '', schema: [{ name: 'title', type: 'text' }, { name: 'score', type: 'number' }] }, token);
  if (posts.status !== 200) throw new Error(`creating posts: ${posts.status} ${JSON.stringify(posts.body)}`);
  return {
    dir,
    url: server.url,
    token,
    cpuMs: () => cpuMsOf(server.pid),
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The load on `url` for SECONDS, with the server's CPU time per answered request. */
async function load(project: Project, url: string, method = 'GET', body = '', seconds = SECONDS): Promise<Load> {
  const cpu0 = project.cpuMs();
  const out = WRK ? await wrkLoad(url, CLIENTS, seconds, { method, body }) : (JSON.parse((await run(process.execPath, [LOAD, url, String(CLIENTS), String(seconds), method, body])).stdout) as Omit<Load, 'cpuUs'>);
  return { ...out, cpuUs: ((project.cpuMs() - cpu0) * 1000) / Math.max(1, out.rps * seconds) };
}

const sum = (xs: Load[]) => xs.reduce((a, x) => a + x.rps, 0);
const cpuOf = (xs: Load[]) => xs.reduce((a, x) => a + x.cpuUs * x.rps, 0) / Math.max(1, sum(xs));
const fmt = (xs: Load[]) => `${xs.map((x) => `${x.rps}`).join(', ')} req/s (p50 ${xs.map((x) => x.p50.toFixed(1)).join(', ')} ms; server CPU ${cpuOf(xs).toFixed(0)} µs/request)`;

function checkErrors(what: string, xs: Load[]): void {
  const errors = xs.reduce((a, x) => a + x.errors, 0);
  if (errors) throw new Error(`${what}: ${errors} requests were not answered 200`);
}

type Target = 'plainCreate' | 'hookedCreate' | 'executorCreate' | 'health' | 'route' | 'view';

/** Where Settings › Hooks says `project`'s record create handlers run: true for the main thread. */
async function createHooksOnMainThread(project: Project): Promise<boolean[]> {
  const { body } = await apiRequest(project.url)('GET', '/api/outpost/hooks', undefined, project.token);
  return (body as { hooks: Array<{ name: string; mainThread: boolean }> }).hooks.filter((h) => h.name.includes('CreateRequest')).map((h) => h.mainThread);
}

/** Record create and route throughput with and without hooks, interleaved. */
export async function benchHooksCost(log: (line: string) => void = (l) => console.log(l), main = buildServer()): Promise<HooksCostResult> {
  const plain = await startProject(main, 'plain', null);
  const hooked = await startProject(main, 'hooked', HOOKS_FILE);
  const executor = await startProject(main, 'executor', EXECUTOR_HOOKS_FILE);
  try {
    // the no-op pair runs on the main thread, the pair over a file variable in an executor
    const where = [await createHooksOnMainThread(hooked), await createHooksOnMainThread(executor)];
    if (JSON.stringify(where) !== '[[true,true],[false,false]]') throw new Error(`the create handlers run elsewhere than expected (main thread: ${JSON.stringify(where)})`);
    const create = JSON.stringify({ title: 'hello', score: 1 });
    const post = (await apiRequest(hooked.url)('POST', '/api/collections/posts/records', { title: 'view me', score: 2 })).body as { id: string };
    const targets: Record<Target, { project: Project; url: string; method?: string; body?: string }> = {
      plainCreate: { project: plain, url: `${plain.url}/api/collections/posts/records`, method: 'POST', body: create },
      hookedCreate: { project: hooked, url: `${hooked.url}/api/collections/posts/records`, method: 'POST', body: create },
      executorCreate: { project: executor, url: `${executor.url}/api/collections/posts/records`, method: 'POST', body: create },
      health: { project: hooked, url: `${hooked.url}/api/health` },
      route: { project: hooked, url: `${hooked.url}/bench/json` },
      view: { project: hooked, url: `${hooked.url}/api/collections/posts/records/${post.id}` },
    };
    // the hook answers what /api/health answers
    const [a, b] = await Promise.all([fetch(targets.health.url).then((r) => r.json()), fetch(targets.route.url).then((r) => r.json())]);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`the route answers ${JSON.stringify(b)}, /api/health ${JSON.stringify(a)}`);
    const measure = (t: Target, seconds = SECONDS) => load(targets[t].project, targets[t].url, targets[t].method, targets[t].body, seconds);
    // warm every path (the executors the load needs are started here, not while timed)
    for (const t of Object.keys(targets) as Target[]) await measure(t, 1);

    const results: Record<Target, Load[]> = { plainCreate: [], hookedCreate: [], executorCreate: [], health: [], route: [], view: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of Object.keys(targets) as Target[]) results[t].push(await measure(t));
    }
    for (const [what, xs] of Object.entries(results)) checkErrors(what, xs);
    const createRatio = sum(results.hookedCreate) / sum(results.plainCreate);
    const executorRatio = sum(results.executorCreate) / sum(results.plainCreate);
    const routeRatio = sum(results.route) / sum(results.view);
    const healthRatio = sum(results.route) / sum(results.health);
    log(
      `hooks cost, record create (guest, ${CLIENTS} clients, load by ${WRK ? 'wrk' : 'Node'}, ${ROUNDS} x ${SECONDS} s interleaved): with no-op onRecordBeforeCreateRequest + onRecordAfterCreateRequest (on the main thread) ${fmt(results.hookedCreate)}; ` +
        `without pb_hooks ${fmt(results.plainCreate)}; ratio ${createRatio.toFixed(2)}x — budget at least ${BUDGET_HOOKS_RATIO}x ` +
        `(the same pair over a file variable, in an executor: ${fmt(results.executorCreate)}; ratio ${executorRatio.toFixed(2)}x, not budgeted)`,
    );
    log(
      `hooks cost, route: routerAdd GET answering c.json ${fmt(results.route)}; a small public record view ${fmt(results.view)}; ratio ${routeRatio.toFixed(2)}x — budget at least ${BUDGET_HOOKS_RATIO}x ` +
        `(GET /api/health, the floor: ${fmt(results.health)}; the route at ${healthRatio.toFixed(2)}x of it; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    );
    return { createRatio, executorRatio, routeRatio, healthRatio };
  } finally {
    await Promise.all([plain.stop(), hooked.stop(), executor.stop()]);
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** GET on a keep-alive connection of its own: the time to the last byte. */
function timedGet(agent: http.Agent, url: URL): Promise<{ ms: number; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

interface StallRun {
  p50: number;
  p99: number;
  max: number;
  probes: number;
  answered: number;
  slowestHookMs: number;
}

/** /api/health probed while STALL_CLIENTS clients keep `hookPath` busy for STALL_SECONDS (each client waits for its answer, then asks again). */
async function stallWhile(url: string, hookPath: string | null, expected: string, seconds = STALL_SECONDS): Promise<StallRun> {
  let busy = true;
  let answered = 0;
  let slowestHookMs = 0;
  const clients = Array.from({ length: hookPath ? STALL_CLIENTS : 0 }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (busy) {
        const res = await timedGet(agent, new URL(url + hookPath!));
        if (res.status !== 200 || res.body !== expected) throw new Error(`${hookPath} answered ${res.status} ${res.body}`);
        answered++;
        slowestHookMs = Math.max(slowestHookMs, res.ms);
      }
    } finally {
      agent.destroy();
    }
  });
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const health = new URL(`${url}/api/health`);
  await timedGet(probeAgent, health); // the probe's connection is open before the load starts
  const probes: number[] = [];
  const until = performance.now() + seconds * 1000;
  try {
    while (performance.now() < until) {
      const res = await timedGet(probeAgent, health);
      if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
      probes.push(res.ms);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  } finally {
    busy = false;
    await Promise.all(clients);
    probeAgent.destroy();
  }
  return { p50: quantile(probes, 0.5), p99: quantile(probes, 0.99), max: Math.max(...probes), probes: probes.length, answered, slowestHookMs };
}

/**
 * Health latency while 20 requests block in hooks (sleep, then bcrypt), each on a fresh server:
 * first while the executor pool grows from 1 to 20, then with the 20 executors started.
 */
export async function benchHooksStall(log: (line: string) => void = (l) => console.log(l), main = buildServer()): Promise<HooksStallResult> {
  const runs = {} as Record<'sleep' | 'bcrypt', { idle: StallRun; growing: StallRun; started: StallRun }>;
  for (const kind of ['sleep', 'bcrypt'] as const) {
    const project = await startProject(main, `stall-${kind}`, HOOKS_FILE);
    try {
      if (kind === 'bcrypt') {
        const user = await apiRequest(project.url)('POST', '/api/collections/users/records', { ...USER, passwordConfirm: USER.password });
        if (user.status !== 200) throw new Error(`creating the user: ${user.status} ${JSON.stringify(user.body)}`);
      }
      const expected = kind === 'sleep' ? '{"slept":true}' : '{"ok":true}';
      // the same probe with no hook running: what this machine's load alone costs
      const idle = await stallWhile(project.url, null, '', IDLE_SECONDS);
      const growing = await stallWhile(project.url, `/bench/${kind}`, expected);
      const started = await stallWhile(project.url, `/bench/${kind}`, expected);
      runs[kind] = { idle, growing, started };
    } finally {
      await project.stop();
    }
  }
  const line = (r: StallRun) => `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms over ${r.probes} probes (${r.answered} hook requests answered, the slowest in ${r.slowestHookMs.toFixed(0)} ms)`;
  const what = { sleep: 'sleep(2000)', bcrypt: 'check a cost-12 bcrypt password (record.validatePassword)' };
  for (const kind of ['sleep', 'bcrypt'] as const) {
    log(
      `hooks stall: /api/health while ${STALL_CLIENTS} requests ${what[kind]} in a hook, ${STALL_SECONDS} s: while the pool grows from 1 executor ${line(runs[kind].growing)}; ` +
        `with ${STALL_CLIENTS} executors started ${line(runs[kind].started)} — budget p99 ${BUDGET_HOOKS_STALL_P99_MS} ms ` +
        `(no hook running: p50 ${runs[kind].idle.p50.toFixed(1)} ms, p99 ${runs[kind].idle.p99.toFixed(1)} ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    );
  }
  const worst = (r: { growing: StallRun; started: StallRun }) => Math.max(r.growing.p99, r.started.p99);
  return { sleepP99Ms: worst(runs.sleep), bcryptP99Ms: worst(runs.bcrypt) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const main = buildServer();
  const only = process.argv[2];
  void (only === "stall" ? benchHooksStall(undefined, main) : benchHooksCost(undefined, main).then(() => (only === "cost" ? undefined : benchHooksStall(undefined, main))));
}
