// What the side-by-side benches share (bench/throughput.ts: ours beside the yardstick;
// bench/workers.ts: --workers 2 beside one process): a server process started and waited for, the
// public collection of 200 posts they load, and the rounds, each measuring both servers one after
// the other, the baseline first in even rounds (this VM's speed drifts: only ratios taken side by
// side mean anything).
import { spawn, type ChildProcess } from 'node:child_process';
import { apiCall, benchAdmin } from './api-client';
import { freePort } from './free-port';

export interface BenchServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** `node` arguments before serve's (the entry point, and the loader for the sources). */
  args: string[];
  cwd: string;
  dataDir: string;
  /** More flags of serve. */
  flags?: string[];
  /** What the server writes to stderr: shown (`inherit`) or not. */
  stderr?: 'inherit' | 'ignore';
  /** Up when this says so (what it printed so far); by default once /api/health answers. */
  ready?(url: string, output: string): boolean | Promise<boolean>;
  /** Names the server in errors. */
  label: string;
}

const healthy = (url: string) => fetch(`${url}/api/health`).then((r) => r.ok, () => false);

/** Starts `node args… serve --http=<free port> --dir=dataDir flags…` and waits (60 s at most) until it is up. */
export async function startBenchServer(opts: StartOptions): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...opts.args, 'serve', `--http=127.0.0.1:${port}`, `--dir=${opts.dataDir}`, ...(opts.flags ?? [])], {
    cwd: opts.cwd,
    stdio: ['ignore', 'pipe', opts.stderr ?? 'ignore'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const ready = opts.ready ?? healthy;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server (${opts.label}) exited with ${child.exitCode}: ${out}`);
    if (await ready(url, out)) break;
    if (Date.now() - t0 > 60_000) throw new Error(`the server (${opts.label}) did not start`);
    await new Promise((r) => setTimeout(r, 20));
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

/** The URL the list benches load: a page of 20 with totals, sorted. */
export const POSTS_LIST = '/api/collections/posts/records?perPage=20&sort=-score';

/** The public collection `posts` (title, score) with 200 records, made through an admin of its own; `rules` are its API rules. */
/** `posts` with 200 records; `others` are more collections of the same shape and rules, empty. */
export async function seedPosts(url: string, rules: Record<string, string>, others: string[] = []): Promise<void> {
  const call = apiCall(url);
  const { token } = await benchAdmin(call, 'bench@example.com');
  const schema = [
    { name: 'title', type: 'text' },
    { name: 'score', type: 'number' },
  ];
  const created = await call('POST', '/api/collections', { name: 'posts', type: 'base', ...rules, schema }, token);
  if (!created.id) throw new Error(`could not create the collection: ${JSON.stringify(created)}`);
  for (const name of others) {
    const other = await call('POST', '/api/collections', { name, type: 'base', ...rules, schema }, token);
    if (!other.id) throw new Error(`could not create the collection: ${JSON.stringify(other)}`);
  }
  for (let i = 0; i < 200; i++) await call('POST', '/api/collections/posts/records', { title: `post ${i}`, score: i }, token);
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * `rounds` rounds of each kind of load, each measuring `baseline` and `candidate` one after the
 * other (the baseline first in even rounds); `each` hears every round's pair as it comes. Resolves
 * to every kind's measures, round by round.
 */
export async function sideBySide<K extends string, M>(
  rounds: number,
  kinds: readonly K[],
  measure: (who: 'baseline' | 'candidate', kind: K) => Promise<M>,
  each?: (round: number, kind: K, pair: { baseline: M; candidate: M }) => void,
): Promise<Record<K, { baseline: M[]; candidate: M[] }>> {
  const results = {} as Record<K, { baseline: M[]; candidate: M[] }>;
  for (const kind of kinds) results[kind] = { baseline: [], candidate: [] };
  for (let round = 0; round < rounds; round++) {
    for (const kind of kinds) {
      const pair = {} as { baseline: M; candidate: M };
      for (const who of round % 2 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const)) pair[who] = await measure(who, kind);
      results[kind].baseline.push(pair.baseline);
      results[kind].candidate.push(pair.candidate);
      each?.(round, kind, pair);
    }
  }
  return results;
}
