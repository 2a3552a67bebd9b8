// The read pool's parent side (the API and what it guarantees: database.ts): read-only connections
// in child processes (read-worker.ts) under a budget, admission control in front of them
// (read-admission.ts), and the main-process connection for reads known to be fast.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  openReadOnlyDatabase,
  QueryTimeoutError,
  ReadAbortedError,
  ReadQueryError,
  runBatch,
  shapeOf,
  type DB,
  type PendingRow,
  type ReadOptions,
  type ReadPool,
  type ReadPoolOptions,
  type ReadQuery,
  type Statement,
  type WorkerReply,
  type WorkerRequest,
} from './database';
import { budgetFor, CHEAP_MS, mainSafe, mayStart, shareOf, ShapeCosts } from './read-admission';
import { DEFAULT_CHUNK_ROWS, rowStream, type RowChunk, type RowStream, type StreamControl, type StreamOptions, type StreamReply, type StreamRequest } from './read-stream';
import { currentReadClient, type ReadClient } from './read-client';
import { bundleIsFresh, bundlePath, writeBundle } from '../core/dev-bundle';

interface Job {
  queries: ReadQuery[];
  pending?: PendingRow;
  /** stream(): one statement whose rows come back in chunks, each handed to `chunk`. */
  stream?: { sql: string; chunkRows: number; chunk: (chunk: RowChunk) => void };
  budgetMs: number;
  /** Who asked (admission control), and whether its shape ran cheaply last time. */
  client: ReadClient | undefined;
  shape: string;
  cheap: boolean;
  resolve: (results: unknown[]) => void;
  reject: (err: Error) => void;
}

/** A job a child runs. A stream's budget pauses while the child waits for its reader (`left`: what remains). */
type Running = Job & { id: number; timer: NodeJS.Timeout; cheapTimer?: NodeJS.Timeout; left: number; armedAt: number; paused?: boolean };

interface Child {
  proc: ChildProcess;
  job: Running | null;
  ready: boolean;
}

const here = fileURLToPath(import.meta.url);
const WORKER_FILE = path.join(path.dirname(here), `read-worker${path.extname(here)}`);

let workerEntry: { file: string; execArgv: string[] } | null = null;

/**
 * The child's entry: the prebuilt read-worker.js next to this module, or (when running from the
 * TypeScript sources) the worker bundled once by esbuild into node_modules/.cache, so a child
 * starts in plain Node (~0.2 s) rather than under tsx's loader (~1 s).
 */
function resolveWorkerEntry(): { file: string; execArgv: string[] } {
  if (workerEntry) return workerEntry;
  if (!WORKER_FILE.endsWith('.ts')) return (workerEntry = { file: WORKER_FILE, execArgv: [] });
  const require = createRequire(import.meta.url);
  try {
    const out = bundlePath(path.resolve(path.dirname(here), '../..'), 'read-worker');
    // the child's code: read-worker.ts and what it runs from database.ts
    const sources = [WORKER_FILE, path.join(path.dirname(here), 'database.ts')].map((f) => fs.statSync(f).mtimeMs);
    if (!bundleIsFresh(out, sources)) {
      const started = Date.now();
      const esbuild = require('esbuild') as typeof import('esbuild');
      const built = esbuild.buildSync({
        entryPoints: [WORKER_FILE],
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        write: false,
        logLevel: 'silent',
      });
      writeBundle(out, built.outputFiles[0].contents, started);
    }
    return (workerEntry = { file: out, execArgv: [] });
  } catch {
    const loader = require.resolve('tsx').replace(/[^/\\]+$/, 'loader.mjs');
    return (workerEntry = { file: WORKER_FILE, execArgv: ['--import', pathToFileURL(loader).href] });
  }
}

/** A pool of read-only connections to `file`, each in its own child process. */
export function createReadPool(file: string, options: ReadPoolOptions = {}): ReadPool {
  const budgetMs = options.budgetMs ?? 30_000;
  const minSize = Math.max(1, options.minSize ?? 2);
  const maxSize = Math.max(minSize, options.maxSize ?? 4);
  const children: Child[] = [];
  const queue: Job[] = [];
  const costs = new ShapeCosts();
  const useMain = options.mainReads ?? true;
  // the main process's own read-only connection and its statements (bounded), opened on first use
  let main: { db: DB; statements: Map<string, Statement> } | null = null;

  /**
   * A read known to be fast, run here without the process hop. Its time is recorded like a
   * child's; one that overran sends its shape back to the pool. Null: run it in the pool after
   * all (a lock held by a checkpoint, an error to report the pool's way).
   */
  function runInMain(queries: ReadQuery[], shape: string): unknown[] | null {
    try {
      if (!main) {
        const db = openReadOnlyDatabase(file);
        // never wait on a lock in the main process
        db.pragma('busy_timeout = 0');
        main = { db, statements: new Map() };
      }
      const { db, statements } = main;
      const prepare = (sql: string) => {
        let stmt = statements.get(sql);
        if (!stmt) {
          stmt = db.prepare(sql);
          statements.set(sql, stmt);
          if (statements.size > 500) statements.delete(statements.keys().next().value as string);
        }
        return stmt;
      };
      const t0 = performance.now();
      const results = runBatch(db, queries, undefined, prepare);
      // the clock here also counts waiting for a busy CPU: an overrun says the shape is not fast
      // (ShapeCosts tolerates one), not that it is costly; its run in a child says that. (The
      // process's CPU time would not count the waits, but process.cpuUsage() cost 60 us a call
      // here, a tenth of the whole request.)
      costs.record(shape, Math.min(performance.now() - t0, CHEAP_MS - 1));
      return results;
    } catch {
      return null;
    }
  }
  let seq = 0;
  let closed = false;

  function spawn(): Child {
    const entry = resolveWorkerEntry();
    const proc = fork(entry.file, [], {
      execArgv: entry.execArgv,
      // rows are plain JSON values (PocketBase stores no blobs); JSON crosses the pipe fastest
      serialization: 'json',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, OUTPOST_READ_DB: file },
      // a process group of its own: a signal to the server's group (Ctrl-C, kill -- -pgid) reaches
      // the server, which ends the reads under way before it closes its children
      detached: true,
    });
    const child: Child = { proc, job: null, ready: false };
    proc.on('message', (msg: WorkerReply | StreamReply | 'ready') => {
      if (msg === 'ready') {
        child.ready = true;
        pump();
        return;
      }
      const job = child.job;
      if (!job || msg.id !== job.id) return;
      clearTimeout(job.timer);
      clearTimeout(job.cheapTimer);
      if (msg.ok && 'chunk' in msg && !msg.chunk.done) {
        // the child waits for the reader to ask for more: that time is not the statement's
        job.left -= performance.now() - job.armedAt;
        job.paused = true;
        job.stream?.chunk(msg.chunk);
        return;
      }
      child.job = null;
      // A shape costs the CPU time its statements took in the child, not the wall time: on a busy
      // machine a 1 ms list can wait 50 ms for a CPU (or for the pipe back), and one such run made
      // it costly, so it queued behind its caller's runaway reads (a guest's normal list waited
      // 75 s behind 8 runaway views from the same IP in \`npm run bench -- stall\`). A runaway read
      // burns CPU all along; a run in the main process is still timed by the clock (runInMain).
      costs.record(job.shape, msg.cpuMs);
      if (!msg.ok) job.reject(new ReadQueryError(msg.message, msg.code));
      else if ('chunk' in msg) {
        job.stream?.chunk(msg.chunk);
        job.resolve([]);
      } else job.resolve(msg.results);
      pump();
    });
    proc.on('exit', () => {
      const i = children.indexOf(child);
      if (i >= 0) children.splice(i, 1);
      const job = child.job;
      child.job = null;
      if (job) {
        clearTimeout(job.timer);
        clearTimeout(job.cheapTimer);
        job.reject(new Error('the read process exited unexpectedly'));
      }
      if (closed) return;
      // a child that dies before it is ready would die again: fail the waiting calls, do not loop
      if (!child.ready) for (const waiting of queue.splice(0)) waiting.reject(new Error('the read process could not start'));
      pump();
    });
    proc.on('error', () => {
      /* 'exit' follows and settles the job */
    });
    // idle children must not keep the process (or a test runner) alive
    proc.unref();
    proc.channel?.unref();
    children.push(child);
    return child;
  }

  function retire(child: Child): void {
    const i = children.indexOf(child);
    if (i >= 0) children.splice(i, 1);
    child.proc.kill('SIGKILL');
  }

  /** Starts (or, for a stream, resumes) the budget of the job `child` runs. */
  function arm(child: Child, running: Running): void {
    running.armedAt = performance.now();
    running.paused = false;
    running.timer = setTimeout(() => {
      // the statement is still running: stop it for real (pump() starts a replacement)
      costs.record(running.shape, Number.POSITIVE_INFINITY);
      stop(child);
      running.reject(new QueryTimeoutError(running.budgetMs));
    }, Math.max(0, running.left));
  }

  function dispatch(child: Child, job: Job): void {
    const id = ++seq;
    const running: Running = { ...job, id, timer: undefined as unknown as NodeJS.Timeout, left: job.budgetMs, armedAt: 0 };
    arm(child, running);
    if (job.cheap) {
      // a cheap read that overruns counts as costly from then on (its client's share, the
      // reserved child), and so does its shape
      running.cheapTimer = setTimeout(() => {
        running.cheap = false;
        costs.record(job.shape, CHEAP_MS);
        pump();
      }, CHEAP_MS);
    }
    child.job = running;
    if (job.stream) child.proc.send({ id, stream: { sql: job.stream.sql, chunkRows: job.stream.chunkRows } } satisfies StreamRequest);
    else child.proc.send({ id, queries: job.queries, pending: job.pending } satisfies WorkerRequest);
  }

  /** The child running `job` (a stream), if it still does. */
  const childOf = (job: Job) => children.find((c) => c.job && c.job.resolve === job.resolve);

  /** A stream's reader wants the next chunk: the child goes on, under what is left of the budget. */
  function resume(job: Job): void {
    const child = childOf(job);
    if (!child?.job?.paused) return;
    arm(child, child.job);
    child.proc.send({ id: child.job.id, control: 'next' } satisfies StreamControl);
  }

  /** A stream's reader stopped early: a waiting child ends the statement and takes other reads; a busy one is stopped. */
  function endStream(job: Job): void {
    const child = childOf(job);
    if (!child?.job) return;
    if (child.job.paused) {
      child.proc.send({ id: child.job.id, control: 'stop' } satisfies StreamControl);
      child.job = null;
      pump();
    } else stop(child);
    job.resolve([]);
  }

  function stream(sql: string, opts: StreamOptions = {}): Promise<RowStream> {
    if (closed) return Promise.reject(new Error('the read pool is closed'));
    const client = currentReadClient();
    if (client?.signal?.aborted) return Promise.reject(new ReadAbortedError());
    while (children.length < minSize) spawn();
    return new Promise((resolve, reject) => {
      let rows: ReturnType<typeof rowStream> | null = null;
      const onAbort = () => {
        const queued = queue.indexOf(job);
        if (queued >= 0) queue.splice(queued, 1);
        const child = childOf(job);
        if (child) stop(child);
        job.reject(new ReadAbortedError());
      };
      const settle = () => client?.signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        queries: [],
        stream: {
          sql,
          chunkRows: opts.chunkRows ?? DEFAULT_CHUNK_ROWS,
          chunk: (chunk) => {
            if (rows) return rows.push(chunk);
            rows = rowStream(chunk, () => resume(job), () => endStream(job));
            resolve(rows.stream);
          },
        },
        budgetMs: opts.budgetMs ?? budgetFor(client, budgetMs),
        client,
        // console statements are never cheap: they run under the costly reads' rules
        shape: `stream\n${sql}`,
        cheap: false,
        resolve: () => settle(),
        reject: (err) => {
          settle();
          if (rows) rows.fail(err);
          else reject(err);
        },
      };
      client?.signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(job);
      pump();
    });
  }

  /** Kills the child running a read (its statement really stops) and lets the queue move on. */
  function stop(child: Child): void {
    if (child.job) {
      clearTimeout(child.job.timer);
      clearTimeout(child.job.cheapTimer);
    }
    child.job = null;
    retire(child);
    pump();
  }

  function pump(): void {
    const running = children.flatMap((c) => (c.job ? [c.job] : []));
    for (let i = 0; i < queue.length; ) {
      const job = queue[i];
      if (!mayStart(job, running, maxSize)) {
        i++;
        continue;
      }
      const idle = children.find((c) => c.ready && !c.job && c.proc.connected);
      if (!idle) break;
      queue.splice(i, 1);
      dispatch(idle, job);
      running.push(idle.job!);
    }
    // one child more while every child is busy or starting and work may come (a cheap read must
    // not wait for a process to start behind runaway ones)
    const spare = children.some((c) => !c.ready || (!c.job && c.proc.connected));
    if (!spare && children.length < maxSize && (queue.length > 0 || running.length > 0)) spawn();
    // idle children must not keep the process alive; starting ones must while work is queued
    for (const c of children) {
      if (c.job || (queue.length > 0 && !c.ready)) c.proc.channel?.ref();
      else c.proc.channel?.unref();
    }
  }

  /**
   * In a cluster a costly read (its shape's last run took CHEAP_MS or more, or it is new) first
   * takes one of its client's slots across the members: one round trip, against a read that
   * costs 50 ms or more; cheap reads and admins' never ask.
   */
  function batch(queries: ReadQuery[], opts: ReadOptions = {}): Promise<unknown[]> {
    const leases = options.leases;
    const client = leases ? currentReadClient() : undefined;
    if (!leases || !client || !Number.isFinite(shareOf(client.tier))) return localBatch(queries, opts);
    const shape = opts.shape ?? shapeOf(queries);
    if (costs.isCheap(shape) || costs.isFast(shape)) return localBatch(queries, opts, shape);
    const budget = opts.budgetMs ?? budgetFor(client, budgetMs);
    return leases.admit(client.key, shareOf(client.tier), budget + 5000).then((release) => localBatch(queries, opts, shape).finally(release));
  }

  function localBatch(queries: ReadQuery[], opts: ReadOptions = {}, known?: string): Promise<unknown[]> {
    if (closed) return Promise.reject(new Error('the read pool is closed'));
    const client = currentReadClient();
    if (client?.signal?.aborted) return Promise.reject(new ReadAbortedError());
    const budget = opts.budgetMs ?? budgetFor(client, budgetMs);
    const shape = known ?? opts.shape ?? shapeOf(queries);
    if (useMain && !opts.pending && costs.isFast(shape) && queries.every((query) => mainSafe(query.params))) {
      const fast = runInMain(queries, shape);
      if (fast) return Promise.resolve(fast);
    }
    // keep minSize children once reads start, so a slow batch never leaves the next one waiting
    // for a process to start (a killed child is replaced here too)
    while (children.length < minSize) spawn();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const queued = queue.indexOf(job);
        if (queued >= 0) queue.splice(queued, 1);
        const child = children.find((c) => c.job && c.job.resolve === job.resolve);
        if (child) stop(child);
        reject(new ReadAbortedError());
      };
      const settle = () => client?.signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        queries,
        pending: opts.pending,
        budgetMs: budget,
        client,
        shape,
        cheap: costs.isCheap(shape),
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
      };
      client?.signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(job);
      pump();
    });
  }

  return {
    budgetMs,
    batch,
    stream,
    busyPids: () => children.filter((c) => c.job && c.proc.pid).map((c) => c.proc.pid!),
    async all<T>(sql: string, params: unknown[] = [], opts?: ReadOptions) {
      const [rows] = await batch([{ sql, params, mode: 'all' }], opts);
      return rows as T[];
    },
    async get<T>(sql: string, params: unknown[] = [], opts?: ReadOptions) {
      const [row] = await batch([{ sql, params, mode: 'get' }], opts);
      return (row ?? undefined) as T | undefined;
    },
    async close() {
      closed = true;
      main?.db.close();
      main = null;
      for (const job of queue.splice(0)) job.reject(new Error('the read pool is closed'));
      const exits = children.map((c) => new Promise<void>((done) => (c.proc.exitCode !== null ? done() : c.proc.once('exit', () => done()))));
      for (const c of children) {
        // children are unref'd while idle: without this the process could end before their exit
        // (and this promise) when nothing else is left to run, skipping whatever awaits close()
        c.proc.ref();
        c.proc.kill('SIGKILL');
      }
      await Promise.all(exits);
    },
  };
}
