// The audit trail's cost (issue 36), on the BUILT server (bundled from the current sources into
// bench/.tmp/audit-server), temp data dirs, loopback only, bounded loops. Record updates, 10
// clients on 10 records (a new title and score every time, so each entry holds a two-field
// difference), 4 rounds of 3 s, interleaved:
// - with an admin token: the trail on (settings audit.maxDays 90, the default) against a server
//   with it off (maxDays 0). Budget: at least 0.85x the throughput.
// - as a guest (public update rule), on one server with the trail on: a collection with its
//   record history on against one with it off (a guest's change there leaves no entry). Budget:
//   at least 0.85x.
// Each figure comes with the server's CPU time per request (every thread, from /proc), steadier
// than throughput on a shared machine. The load comes from wrk when installed (bench/wrk-load.ts:
// the records in turn over the 10 connections), else from bench/audit-load.mjs. Run alone: `npx tsx bench/audit.ts`.
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { apiCall, apiRequest, benchAdmin } from './api-client';
import { freePort } from './free-port';
import { hasWrk, wrkLoad } from './wrk-load';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'bench', '.tmp', 'audit-server');
const LOAD = path.join(import.meta.dirname, 'audit-load.mjs');
const WRK = hasWrk();
const CLIENTS = 10;
const SECONDS = 3;
const ROUNDS = 4;

export const BUDGET_AUDIT_RATIO = 0.85;

export interface AuditCostResult {
  adminRatio: number;
  historyRatio: number;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number;
}

interface Server {
  url: string;
  token: string;
  /** Record ids per collection (one per client). */
  ids: Record<string, string[]>;
  cpuMs(): number;
  stop(): Promise<void>;
}

const TICK_MS = 1000 / 100; // USER_HZ

function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function buildServer(): string {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), OUT], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`the server build failed: ${res.stderr}`);
  return path.join(OUT, 'main.mjs');
}

const COLLECTION_FIELDS = [
  { name: 'title', type: 'text' },
  { name: 'score', type: 'number' },
  { name: 'body', type: 'text' },
  { name: 'tags', type: 'json', options: { maxSize: 2000000 } },
  { name: 'published', type: 'bool' },
];

/** A fresh data dir served by the built server: an admin, collections `posts` and `tracked` (public update rule) with CLIENTS records each. */
async function startServer(main: string, trailOn: boolean): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-audit-'));
  const url = `http://127.0.0.1:${await freePort()}`;
  const child = spawn(process.execPath, [main, 'serve', '--dir=pb_data', '--automigrate=false', `--http=${url.slice(7)}`], { cwd: dir, stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const t0 = Date.now();
  while (!(await fetch(`${url}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() - t0 > 60_000) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  const { token } = await benchAdmin(apiCall(url), 'bench@example.com');
  const call = apiRequest(url);
  const must = async (what: string, p: Promise<{ status: number; body: any }>) => {
    const res = await p;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await must('settings', call('PATCH', '/api/settings', { audit: { maxDays: trailOn ? 90 : 0 } }, token));
  const ids: Record<string, string[]> = {};
  for (const name of ['posts', 'tracked']) {
    await must(name, call('POST', '/api/collections', { name, type: 'base', listRule: '', viewRule: '', updateRule: '', schema: COLLECTION_FIELDS }, token));
    ids[name] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const rec = await must('record', call('POST', `/api/collections/${name}/records`, { title: `start ${i}`, score: 0, body: 'x'.repeat(200), tags: ['a', 'b'], published: true }, token));
      ids[name].push(rec.id as string);
    }
  }
  await must('history', call('PATCH', '/api/outpost/audit/options/tracked', { history: true }, token));
  return {
    url,
    token,
    ids,
    cpuMs: () => cpuMsOf(child.pid!),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** wrk's request(): the records in turn, each PATCH with a new title and score (a two-field difference every time). */
const updates = (collection: string, ids: string[], token: string) => `
local ids = { ${ids.map((id) => JSON.stringify(id)).join(', ')} }
local headers = { ["Content-Type"] = "application/json"${token ? `, ["Authorization"] = ${JSON.stringify(token)}` : ''} }
local n = 0
request = function()
  n = n + 1
  return wrk.format("PATCH", "/api/collections/${collection}/records/" .. ids[(n % #ids) + 1], headers, string.format('{"title":"title %d","score":%d}', n, n))
end
`;

async function load(server: Server, collection: string, asAdmin: boolean, seconds = SECONDS): Promise<Load> {
  const cpu0 = server.cpuMs();
  let out: Omit<Load, 'cpuUs'>;
  if (WRK) {
    out = await wrkLoad(server.url, CLIENTS, seconds, { request: updates(collection, server.ids[collection], asAdmin ? server.token : '') });
  } else {
    const args = [LOAD, server.url, collection, server.ids[collection].join(','), String(seconds)];
    if (asAdmin) args.push(server.token);
    out = JSON.parse((await run(process.execPath, args)).stdout) as Omit<Load, 'cpuUs'>;
  }
  return { ...out, cpuUs: ((server.cpuMs() - cpu0) * 1000) / Math.max(1, out.rps * seconds) };
}

const sum = (xs: Load[]) => xs.reduce((a, x) => a + x.rps, 0);
const cpuOf = (xs: Load[]) => xs.reduce((a, x) => a + x.cpuUs * x.rps, 0) / Math.max(1, sum(xs));
const fmt = (xs: Load[]) => `${xs.map((x) => `${x.rps}`).join(', ')} req/s (p50 ${xs.map((x) => x.p50.toFixed(1)).join(', ')} ms; server CPU ${cpuOf(xs).toFixed(0)} µs/request)`;

type Target = 'adminOff' | 'adminOn' | 'guestPlain' | 'guestHistory';

export async function benchAuditCost(log: (line: string) => void = (l) => console.log(l)): Promise<AuditCostResult> {
  const main = buildServer();
  const off = await startServer(main, false);
  const on = await startServer(main, true);
  try {
    const targets: Record<Target, () => Promise<Load>> = {
      adminOff: () => load(off, 'posts', true),
      adminOn: () => load(on, 'posts', true),
      guestPlain: () => load(on, 'posts', false),
      guestHistory: () => load(on, 'tracked', false),
    };
    for (const t of Object.values(targets)) await t(); // warm-up, not counted
    const results: Record<Target, Load[]> = { adminOff: [], adminOn: [], guestPlain: [], guestHistory: [] };
    for (let round = 0; round < ROUNDS; round++) for (const t of Object.keys(targets) as Target[]) results[t].push(await targets[t]());
    for (const [what, xs] of Object.entries(results)) {
      const errors = xs.reduce((a, x) => a + x.errors, 0);
      if (errors) throw new Error(`${what}: ${errors} requests were not answered 200`);
    }
    // the trail really wrote: entries on the 'on' server, none on the 'off' one
    const count = async (s: Server, q: string) => ((await apiRequest(s.url)('GET', `/api/outpost/audit?perPage=1&${q}`, undefined, s.token)).body as { totalItems: number }).totalItems;
    const written = { adminOn: await count(on, 'collection=posts&actor=bench%40example.com&action=update'), history: await count(on, 'collection=tracked&action=update'), off: await count(off, '') };
    const adminRatio = sum(results.adminOn) / sum(results.adminOff);
    const historyRatio = sum(results.guestHistory) / sum(results.guestPlain);
    log(
      `audit cost, record update with an admin token (${CLIENTS} clients, load by ${WRK ? 'wrk' : 'Node'}, ${ROUNDS} x ${SECONDS} s interleaved): trail on ${fmt(results.adminOn)}; trail off ${fmt(results.adminOff)}; ` +
        `ratio ${adminRatio.toFixed(2)}x — budget at least ${BUDGET_AUDIT_RATIO}x (${written.adminOn} entries written; ${written.off} on the server with it off)`,
    );
    log(
      `audit cost, guest record update: collection with its history on ${fmt(results.guestHistory)}; history off ${fmt(results.guestPlain)}; ` +
        `ratio ${historyRatio.toFixed(2)}x — budget at least ${BUDGET_AUDIT_RATIO}x (${written.history} entries written; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    );
    return { adminRatio, historyRatio };
  } finally {
    await Promise.all([off.stop(), on.stop()]);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchAuditCost();
}
