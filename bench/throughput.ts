// The throughput we had (issue 35): the server as it is (built as `npm start` runs it) beside the
// server before the read pool (main at 33cefa4, from a git worktree: the yardstick), each in its
// own process with its own fresh data, listing a public collection of 200 records with
// `perPage=20&sort=-score` (totals included) to 10 concurrent clients for 5 s; with the
// Accept-Encoding a browser sends and with none, BENCH_THROUGHPUT_ROUNDS times each (3), interleaved
// (this VM's speed drifts and other work shares it: only side-by-side ratios mean anything).
// Budget: the median of the rounds' ratios (ours / yardstick, each round side by side) at least
// 1.0x in both; the ratio of the summed throughputs is printed beside it (one round caught in a
// burst of other work on the machine moves the sum, not the median).
// The yardstick's tree: OUTPOST_YARDSTICK (a checkout of 33cefa4 with node_modules), else a worktree
// made once in the temp dir. Run alone: `npx tsx bench/throughput.ts`.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { median, POSTS_LIST, seedPosts, sideBySide, startBenchServer, type BenchServer } from './side-by-side';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const YARDSTICK_COMMIT = '33cefa4';
const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
/** What Chromium sends over plain http. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';
export const BUDGET_THROUGHPUT_RATIO = 1.0;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  encoding: string;
  /** the server's CPU time (its process tree) per request, ms */
  cpuMs: number;
}

export interface ThroughputResult {
  /** median over the rounds of ours / the yardstick's throughput, with a browser's Accept-Encoding */
  browserRatio: number;
  /** the same without Accept-Encoding */
  identityRatio: number;
}


/** CPU time (ms) of process `pid` and its descendants so far (Linux /proc; 0 elsewhere). */
function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
        stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        /* ended meanwhile */
      }
    }
  } catch {
    return 0;
  }
  let ticks = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    ticks += stats.get(p)?.ticks ?? 0;
    for (const [child, st] of stats) if (st.ppid === p) todo.push(child);
  }
  return ticks * 10;
}

/** The yardstick's source tree: made once with `git worktree add` (node_modules linked to ours). */
function yardstickTree(): string {
  const dir = process.env.OUTPOST_YARDSTICK ?? path.join(os.tmpdir(), `outpost-yardstick-${YARDSTICK_COMMIT}`);
  if (!fs.existsSync(path.join(dir, 'server', 'main.ts'))) {
    const made = spawnSync('git', ['worktree', 'add', '--detach', dir, YARDSTICK_COMMIT], { cwd: ROOT, stdio: 'inherit' });
    if (made.status !== 0) throw new Error(`could not make the yardstick's worktree in ${dir}`);
  }
  const linked = path.join(dir, 'node_modules');
  if (!fs.existsSync(linked)) {
    // (a link left by a checkout that is gone points nowhere: made again)
    fs.rmSync(linked, { force: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), linked);
  }
  return dir;
}

/** Starts a server process (`args` before serve's flags) and waits for its /api/health. */
function startServer(cwd: string, args: string[], dataDir: string): Promise<BenchServer> {
  return startBenchServer({ args, cwd, dataDir, label: `in ${cwd}` });
}

/** The public collection of 200 records both servers list; returns the list's URL. */
async function seed(url: string): Promise<string> {
  await seedPosts(url, { listRule: '', viewRule: '' });
  return url + POSTS_LIST;
}

export async function benchThroughput(log: (line: string) => void = (l) => console.log(l)): Promise<ThroughputResult> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-throughput-'));
  const servers: { stop(): Promise<void> }[] = [];
  try {
    // ours as `npm start` runs it, bundled from the current sources into a folder of its own (inside
    // the project: the bundle finds schemas/ and dist/ above itself)
    const built = path.join(ROOT, 'node_modules', '.cache', 'outpost-bench-throughput');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), built], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('server build failed');
    const yardstickDir = yardstickTree();
    const ours = await startServer(ROOT, [path.join(built, 'main.mjs')], path.join(tmp, 'ours'));
    servers.push(ours);
    // 33cefa4 ran its sources through tsx (it had no server bundle)
    const yardstick = await startServer(yardstickDir, ['--import', 'tsx', 'server/main.ts'], path.join(tmp, 'yardstick'));
    servers.push(yardstick);
    const targets = { ours: await seed(ours.url), yardstick: await seed(yardstick.url) };
    const encodings = { browser: BROWSER_ACCEPT_ENCODING, identity: '' } as const;
    const pids = { ours: ours.child.pid!, yardstick: yardstick.child.pid! };
    const load = async (name: keyof typeof targets, acceptEncoding: string, seconds = 5): Promise<Load> => {
      const cpu0 = treeCpuMs(pids[name]);
      const out = JSON.parse((await run(process.execPath, [path.join(import.meta.dirname, 'list-load.mjs'), targets[name], '10', String(seconds), acceptEncoding])).stdout);
      return { ...out, cpuMs: (treeCpuMs(pids[name]) - cpu0) / (out.rps * seconds) };
    };
    for (const name of ['ours', 'yardstick'] as const) for (const enc of Object.values(encodings)) await load(name, enc, 1);
    const rounds = await sideBySide(ROUNDS, ['browser', 'identity'] as const, (who, enc) => load(who === 'baseline' ? 'yardstick' : 'ours', encodings[enc]));
    const results: Record<string, Load[]> = {};
    for (const enc of ['browser', 'identity'] as const) {
      results[`yardstick:${enc}`] = rounds[enc].baseline;
      results[`ours:${enc}`] = rounds[enc].candidate;
    }
    const sum = (xs: Load[]) => xs.reduce((a, x) => a + x.rps, 0);
    const fmt = (xs: Load[]) =>
      `${xs.map((x) => x.rps).join(', ')} req/s (p50 ${xs.map((x) => x.p50.toFixed(1)).join(', ')} ms; server CPU per request median ${median(xs.map((x) => x.cpuMs)).toFixed(3)} ms; ${xs[0].bytes} bytes ${xs[0].encoding})`;
    const ratios = {} as Record<'browser' | 'identity', number>;
    for (const enc of ['browser', 'identity'] as const) {
      const perRound = results[`ours:${enc}`].map((x, i) => x.rps / results[`yardstick:${enc}`][i].rps);
      ratios[enc] = median(perRound);
      const summed = sum(results[`ours:${enc}`]) / sum(results[`yardstick:${enc}`]);
      log(
        `throughput: public list of 200 records, perPage 20 with totals, 10 clients, 5 s, ${ROUNDS} rounds, ${enc === 'browser' ? `Accept-Encoding "${BROWSER_ACCEPT_ENCODING}"` : 'no Accept-Encoding'}: ` +
          `ours ${fmt(results[`ours:${enc}`])}; ${YARDSTICK_COMMIT} ${fmt(results[`yardstick:${enc}`])}; ratio median ${ratios[enc].toFixed(2)}x (rounds ${perRound.map((r) => r.toFixed(2)).join(', ')}; summed ${summed.toFixed(2)}x) — budget at least ${BUDGET_THROUGHPUT_RATIO.toFixed(1)}x`,
      );
    }
    log(`throughput:   (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; the load generator runs on this machine too)`);
    return { browserRatio: ratios.browser, identityRatio: ratios.identity };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchThroughput().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
