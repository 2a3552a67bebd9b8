// The hook executors (worker threads running ./executor.ts): started lazily, one invocation at a
// time each, growing up to the pool size while all are busy (then calls queue), two starting at a
// time, their threads at a lower priority than the main thread's (so a hook that computes, such
// as a bcrypt check, never slows the answers the main thread gives), and each call bounded: an
// executor that runs past the budget (an endless loop) is terminated and replaced.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { FromExecutor, Invocation, InvocationResult, Manifest, ToExecutor } from './protocol';
import { serveRpc, SIGNAL_BYTES, type RpcHandler } from './rpc';
import { bundleIsFresh, bundlePath, writeBundle } from '../core/dev-bundle';
import { currentAuditActor, runAsAuditActor, type AuditActor } from '../audit/actor';

class HookTimeoutError extends Error {}
class HookLoadError extends Error {}

const here = fileURLToPath(import.meta.url);
const BUILT_ENTRY = path.join(path.dirname(here), 'hooks-executor.cjs');
let entry: { file: string; execArgv: string[] } | null = null;

/**
 * The executor's code: hooks-executor.cjs next to the built server, or (from the TypeScript
 * sources) executor.ts bundled once by esbuild into node_modules/.cache.
 */
function executorEntry(): { file: string; execArgv: string[] } {
  if (entry) return entry;
  if (!here.endsWith('.ts')) return (entry = { file: BUILT_ENTRY, execArgv: [] });
  const source = path.join(path.dirname(here), 'executor.ts');
  const out = bundlePath(path.resolve(path.dirname(here), '../..'), 'hooks-executor');
  const require = createRequire(import.meta.url);
  try {
    const esbuild = require('esbuild') as typeof import('esbuild');
    const started = Date.now();
    const built = esbuild.buildSync({ entryPoints: [source], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, logLevel: 'silent', metafile: true });
    const inputs = Object.keys(built.metafile.inputs).map((f) => fs.statSync(path.resolve(f)).mtimeMs);
    if (!bundleIsFresh(out, inputs)) writeBundle(out, built.outputFiles[0].contents, started);
    return (entry = { file: out, execArgv: [] });
  } catch {
    const loader = require.resolve('tsx').replace(/[^/\\]+$/, 'loader.mjs');
    return (entry = { file: source, execArgv: ['--import', pathToFileURL(loader).href] });
  }
}

/** Executors started at the same time: a burst grows the pool without holding up the main thread. */
const MAX_STARTING = 2;
/**
 * A call that finds every executor busy starts another only once each has been on its call this
 * long (it is blocked: a sleep, a slow request); before that it waits for the first to be free.
 * Quick handlers then share one or two warm executors instead of growing the pool to the number of
 * concurrent requests (each executor an isolate of its own: its own heap, JIT and collections).
 */
const GROW_AFTER_MS = 20;
/** The executors' threads run at this nice value: when the CPU is short, the main thread (every request) goes first. */
const EXECUTOR_NICE = 10;
const LOWER_PRIORITY = `try { const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop()); if (tid > 0) os.setPriority(tid, ${EXECUTOR_NICE}); } catch {}`;

/**
 * What an executor's thread runs: a line that lowers its own priority (Linux keeps a nice value
 * per thread; elsewhere it does nothing), then the executor: the bundle by require (a Worker
 * started on the .cjs file itself takes several times longer), an ES module by a static import.
 */
function executorScript(file: string): { script: string | URL; evaluated: boolean } {
  if (file.endsWith('.cjs')) return { script: `const fs = require("node:fs"), os = require("node:os");\n${LOWER_PRIORITY}\nrequire(${JSON.stringify(file)});`, evaluated: true };
  const source = `import fs from "node:fs";\nimport os from "node:os";\nimport ${JSON.stringify(pathToFileURL(file).href)};\n${LOWER_PRIORITY}`;
  return { script: new URL(`data:text/javascript,${encodeURIComponent(source)}`), evaluated: false };
}

export interface PoolOptions {
  files: string[];
  hooksDir: string;
  cwd: string;
  dataDir: string;
  dev: boolean;
  /** At most this many executors (`--hooksPool`). */
  size: number;
  /** What the executors' calls into the server do. */
  rpc: RpcHandler;
  /** How long one RPC may wait for the main thread. */
  rpcTimeoutMs: number;
}

interface Executor {
  worker: Worker;
  busy: boolean;
  /** When it took its current call (performance.now()). */
  since: number;
  pending: Map<number, (r: InvocationResult) => void>;
  /**
   * Who the current invocation runs for (the request's admin, record or guest; none for a cron job
   * or a hook no request fired): the executor's calls back (its Dao's writes) run as that actor, so
   * the audit trail names them as it names the request's own writes.
   */
  actor: AuditActor | undefined;
}

export interface ExecutorPool {
  manifest: Manifest;
  /** Each hook file's text, as this generation's executors run it. */
  sources: ReadonlyMap<string, string>;
  invoke(inv: Invocation, budgetMs: number): Promise<InvocationResult>;
  close(): Promise<void>;
}

export async function startPool(opts: PoolOptions): Promise<ExecutorPool> {
  const executors: Executor[] = [];
  const waiting: Array<() => void> = [];
  let starting = 0;
  let closed = false;
  let nextId = 1;

  // read once: every executor of this generation runs these texts, whatever the files hold later
  const sources = opts.files.map((f) => fs.readFileSync(f, 'utf8'));
  const spawn = (): Promise<{ ex: Executor; manifest: Manifest }> =>
    new Promise((resolve, reject) => {
      const { port1, port2 } = new MessageChannel();
      const signal = new SharedArrayBuffer(SIGNAL_BYTES);
      const { file, execArgv } = executorEntry();
      const { script, evaluated } = executorScript(file);
      const worker = new Worker(script, { eval: evaluated, workerData: { port: port2, signal, rpcTimeoutMs: opts.rpcTimeoutMs }, transferList: [port2], execArgv, stdout: false, stderr: false });
      const ex: Executor = { worker, busy: false, since: 0, pending: new Map(), actor: undefined };
      // the call's own async context is the port's message event: the invocation's actor is set again
      serveRpc(port1, new Int32Array(signal), (call, serve) => (ex.actor ? runAsAuditActor(ex.actor, () => opts.rpc(call, serve)) : opts.rpc(call, serve)));
      let loaded = false;
      worker.on('message', (msg: FromExecutor) => {
        if (msg.type === 'loaded') {
          loaded = true;
          resolve({ ex, manifest: msg.manifest });
        } else if (msg.type === 'loadFailed') {
          void worker.terminate();
          reject(new HookLoadError(msg.error.message));
        } else if (msg.type === 'result') {
          ex.pending.get(msg.id)?.(msg.result);
          ex.pending.delete(msg.id);
        }
      });
      worker.on('error', (err) => {
        if (!loaded) reject(new HookLoadError(`the hooks executor failed: ${err.message}`));
        for (const done of ex.pending.values()) done({ outcome: 'error', error: { message: `the hooks executor failed: ${err.message}`, stack: err.stack } });
        ex.pending.clear();
      });
      worker.on('exit', () => {
        port1.close();
        const at = executors.indexOf(ex);
        if (at >= 0) executors.splice(at, 1);
      });
      worker.postMessage({ type: 'load', files: opts.files, sources, hooksDir: opts.hooksDir, cwd: opts.cwd, dataDir: opts.dataDir, dev: opts.dev } satisfies ToExecutor);
    });

  const first = await spawn();
  executors.push(first.ex);
  const manifest = first.manifest;
  const signature = JSON.stringify(manifest.registrations);

  /** A free executor: an idle one, a new one once every one is blocked (GROW_AFTER_MS) while under the size, or the next one freed. */
  async function acquire(): Promise<Executor> {
    for (;;) {
      if (closed) throw new Error('the hooks are shut down');
      const now = performance.now();
      const idle = executors.find((e) => !e.busy);
      if (idle) {
        idle.busy = true;
        idle.since = now;
        return idle;
      }
      const canStart = executors.length + starting < opts.size && starting < MAX_STARTING;
      const youngest = executors.reduce((m, e) => Math.max(m, e.since), -Infinity);
      if (canStart && now - youngest >= GROW_AFTER_MS) {
        starting++;
        try {
          const { ex, manifest: again } = await spawn();
          if (JSON.stringify(again.registrations) !== signature) {
            void ex.worker.terminate();
            throw new HookLoadError('the hook files registered something else in a second executor (their registrations must not depend on chance or time)');
          }
          ex.busy = true;
          ex.since = performance.now();
          executors.push(ex);
          return ex;
        } finally {
          starting--;
          // a waiter may start the next one
          waiting.shift()?.();
        }
      }
      // the next free executor, or (when one may start) the moment every busy one counts as blocked
      await new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const wake = () => {
          clearTimeout(timer);
          const at = waiting.indexOf(wake);
          if (at >= 0) waiting.splice(at, 1);
          resolve();
        };
        waiting.push(wake);
        if (canStart) timer = setTimeout(wake, Math.max(1, youngest + GROW_AFTER_MS - now));
      });
    }
  }

  function release(ex: Executor): void {
    ex.busy = false;
    waiting.shift()?.();
  }

  return {
    manifest,
    sources: new Map(opts.files.map((f, i) => [f, sources[i]])),
    async invoke(inv, budgetMs) {
      // a cron job is nobody's, wherever its schedule was set going
      const actor = inv.kind === 'cron' ? undefined : currentAuditActor();
      const ex = await acquire();
      const id = nextId++;
      ex.actor = actor;
      try {
        return await new Promise<InvocationResult>((resolve, reject) => {
          const timer = setTimeout(() => {
            ex.pending.delete(id);
            // an executor stuck in a handler cannot be interrupted: it is replaced
            const at = executors.indexOf(ex);
            if (at >= 0) executors.splice(at, 1);
            void ex.worker.terminate();
            reject(new HookTimeoutError(`the handler ran longer than its budget of ${budgetMs} ms and was stopped`));
          }, budgetMs);
          ex.pending.set(id, (r) => {
            clearTimeout(timer);
            resolve(r);
          });
          ex.worker.postMessage({ type: 'invoke', id, invocation: inv } satisfies ToExecutor);
        });
      } finally {
        ex.actor = undefined;
        release(ex);
      }
    },
    async close() {
      closed = true;
      for (const w of waiting.splice(0)) w();
      await Promise.all(executors.map((e) => e.worker.terminate()));
    },
  };
}
