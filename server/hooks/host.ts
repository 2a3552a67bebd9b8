// pb_hooks on the main thread: finds the hook files, starts the executors (./pool.ts), answers their
// calls into the server (the Dao, raw SQL, transactions, $app.store(), the settings), schedules
// their cron jobs, and lets the HTTP layer ask whether a hook has handlers and trigger it.
// Without hook files nothing starts and nothing is paid.
import fs from 'node:fs';
import path from 'node:path';
import { Cron } from 'croner';
import { isLeader } from '../cluster/role';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { hookDao, type HookDao } from './dao-writes';
import { arrayOf, createDbBuilder, DynamicModel } from '../migrations/js-db';
import { fetchCollectionsWith, fromWire, toWire } from './models-wire';
import { collectionByRef } from './record-wire';
import { inlineRunner } from './inline-runner';
import { FIRED } from './hook-names';
import type { HookEventWire, InvocationResult, Manifest, RequestWire } from './protocol';
import type { RpcCall, RpcServer } from './rpc';
import { startPool, type ExecutorPool } from './pool';
import { hookStatus, noteLoad, trackLoad, type HooksStatus } from './status';
import { getLogWriter } from '../services/request-log';
import { sendHookMail } from './mails-rpc';
import { namespaceCall } from './namespaces-rpc';
import { selectRecords } from '../migrations/js-dao-records';
import type { BuiltQuery } from '../migrations/js-select';
import type { NestedRequest } from './dao-model-hooks';
import { prependTypesReference } from './types-file';

/** 0.22 loads `*.pb.js` and `*.pb.ts` at the top of the hooks folder, not in sub-folders. */
const HOOK_FILE = /^.*\.pb\.(js|ts)$/;
/** A request hook, a route or a cron run may take this long before its executor is replaced. */
const DEFAULT_BUDGET_MS = 60_000;
/** A custom command runs as long as it needs (setTimeout's longest delay, about 24 days). */
const COMMAND_BUDGET_MS = 2 ** 31 - 1;
/** How long a transaction opened by a hook may hold the write lock. */
const TX_BUDGET_MS = 10_000;

export interface HookOptions {
  hooksDir: string;
  /** At most this many executors (`--hooksPool`, 0.22's default 25; started as needed). */
  pool: number;
  dev?: boolean;
}

export interface HookHost {
  manifest: Manifest;
  /** Whether `name` has a handler that runs for `tags` (checked before any work is done). */
  has(name: string, tags?: string[]): boolean;
  /** Runs `name`'s handlers for `tags` in an executor. */
  trigger(name: string, tags: string[], event: HookEventWire): Promise<InvocationResult>;
  /**
   * `name`'s result when its handlers for `tags` run on the main thread (./inline-runner.ts: the
   * record request hooks), at once; null when they are an executor's (trigger them then). Spares
   * such a call the promises, and the request's snapshot (`request`, taken only if a handler reads
   * e.httpContext).
   */
  triggerInline(name: string, tags: string[], event: HookEventWire, request?: () => RequestWire): InvocationResult | null;
  route(id: string, request: RequestWire): Promise<InvocationResult>;
  /** routerUse's JS middlewares ahead of a built-in route (result.proceed: they called next). */
  use(request: RequestWire): Promise<InvocationResult>;
  /** A custom command's run(cmd, args) (`outpost <name> args`, server/cli/hook-command.ts): no time budget, as in 0.22. */
  command(id: string, args: string[]): Promise<InvocationResult>;
  /** What Settings › Hooks shows (./status.ts). */
  status(): HooksStatus;
  close(): Promise<void>;
}

function hookFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && HOOK_FILE.test(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort().map((n) => path.join(dir, n));
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

function budget(): number {
  const env = Number(process.env.OUTPOST_HOOKS_TIMEOUT_MS);
  return env > 0 ? env : DEFAULT_BUDGET_MS;
}

/** The calls an executor makes into the server. */
function rpcHandler(bound: () => { ctx: AppContext; db: DB }, store: Map<string, unknown>) {
  let depth = 0;
  // the Dao of the instance the calls are bound to (a reload binds another); its record writes are
  // announced when committed (./dao-writes.ts)
  let writes: { ctx: AppContext; dao: HookDao } | null = null;
  const daoOf = (ctx: AppContext, db: DB): HookDao => (writes?.ctx === ctx ? writes.dao : (writes = { ctx, dao: hookDao(ctx, db) }).dao);
  return (call: RpcCall, server: RpcServer): unknown => {
    const { ctx, db } = bound();
    const [first, ...rest] = call.args;
    switch (call.method) {
      case 'dao': {
        const args = fromWire(rest[0]) as unknown[];
        // a model write's hooks run in this executor, where its call waits (./dao-model-hooks.ts)
        const value = daoOf(ctx, db).call(String(first), args, depth > 0, (request) => server.nested(call.id, request));
        const answer = (v: unknown) => ({ value: toWire(v), args: toWire(args) });
        return isThenable(value) ? Promise.resolve(value).then(answer) : answer(value);
      }
      case 'db': {
        const [sql, params, target, template] = rest as [string, Record<string, unknown>, unknown, unknown];
        const query = (createDbBuilder(ctx, db).newQuery(sql) as { bind(p: unknown): Record<string, (t?: unknown) => unknown> }).bind(params);
        if (first === 'execute') {
          const r = query.execute() as { rowsAffected(): number; lastInsertId(): number };
          return { rowsAffected: r.rowsAffected(), lastInsertId: r.lastInsertId() };
        }
        if (first === 'one') return query.one(target && typeof target === 'object' ? { ...(target as object) } : {});
        const list = template && typeof template === 'object' ? arrayOf(new DynamicModel(template)) : [];
        return query.all(list);
      }
      case 'tx.begin': {
        db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT hook_tx_${depth}`);
        const mine = ++depth;
        // the worker's calls are served here, synchronously, until its transaction ends
        server.afterReply(() => {
          try {
            server.serveUntil(() => depth < mine, TX_BUDGET_MS);
          } catch (err) {
            while (depth >= mine) {
              depth--;
              db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO hook_tx_${depth}`);
            }
            if (depth === 0) daoOf(ctx, db).settle(false);
            console.error('[pb_hooks] a transaction was rolled back:', err instanceof Error ? err.message : err);
          }
        });
        return null;
      }
      case 'tx.end': {
        if (depth === 0) throw new Error('no transaction is open');
        depth--;
        if (first === true) db.exec(depth === 0 ? 'COMMIT' : `RELEASE hook_tx_${depth}`);
        else db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO hook_tx_${depth}`);
        // (writes inside a savepoint rolled back are still announced with the outer commit)
        // (then the after hooks the transaction queued, 0.22's RunInTransaction runs them after its commit)
        if (depth === 0) return daoOf(ctx, db).settle(first === true, (request) => server.nested(call.id, request)) ?? null;
        return null;
      }
      case 'store': {
        const [key, value, limit] = rest as [string, unknown, number];
        switch (first) {
          case 'get':
            return store.get(String(key)) ?? null;
          case 'set':
            store.set(String(key), value);
            return null;
          case 'has':
            return store.has(String(key));
          case 'remove':
            store.delete(String(key));
            return null;
          case 'removeAll':
          case 'reset':
            store.clear();
            return null;
          case 'getAll':
            return Object.fromEntries(store);
          case 'length':
            return store.size;
          case 'setIfLessThanLimit':
            if (store.size >= Number(limit)) return false;
            store.set(String(key), value);
            return true;
        }
        throw new Error(`$app.store().${String(first)}() is not supported`);
      }
      case 'log': {
        // $app.logger(): a line in logs.db (the Logs page), as 0.22's slog handler writes it
        const [message, data] = rest as [string, Record<string, unknown>];
        getLogWriter(ctx)?.add({ level: Number(first) || 0, message: String(message), data: data && typeof data === 'object' ? data : {} });
        return null;
      }
      case 'settings':
        return JSON.parse(JSON.stringify(ctx.settings.get())) as unknown;
      case 'mails':
        // $mails.*: sent as the API sends them; answered once the mail has gone
        return sendHookMail(ctx, server, first, rest);
    }
    // $tokens, $filesystem, forms, recordQuery, enrichRecord, ... (./namespaces-rpc.ts)
    const env = {
      ctx,
      server,
      dao: daoOf(ctx, db),
      inTransaction: depth > 0,
      ask: (request: NestedRequest) => server.nested(call.id, request),
      selectRecords: (c: unknown, q: BuiltQuery) => selectRecords(ctx, db, c, q),
    };
    const answered = namespaceCall(call.method, first, rest, env);
    if (answered) return answered.value;
    throw new Error(`unknown call ${call.method}`);
  };
}

/** The hook files of `dir`; an empty one first gets the types reference line (0.22's prependToEmptyFile). */
export function prepareHookFiles(dir: string, dataDir: string): string[] {
  const files = hookFiles(dir);
  prependTypesReference(files, dir, dataDir);
  return files;
}

/**
 * A generation of hooks: executors loaded from the files as they were, not serving yet. A reload
 * (--hooksWatch, ./watch.ts) loads the next one while this one serves, then hands it to the new
 * app instance.
 */
export interface HookGeneration {
  /** Its host; until `start`, its calls are served with the data it was loaded with. */
  host: HookHost;
  /** Serves its calls with this instance's data and starts its cron jobs; returns its host. */
  start(ctx: AppContext, db: DB): HookHost;
}

/** Loads the hooks of `opts.hooksDir` (prepared as above); null when there are none. A file that fails to load throws. */
export async function loadHooks(ctx: AppContext, db: DB, opts: HookOptions): Promise<HookGeneration | null> {
  const files = prepareHookFiles(opts.hooksDir, ctx.dataDir);
  if (!files.length) {
    noteLoad(opts.hooksDir, null);
    return null;
  }
  let bound = { ctx, db };
  const store = new Map<string, unknown>();
  const pool: ExecutorPool = await trackLoad(opts.hooksDir, startPool({
    files,
    hooksDir: path.resolve(opts.hooksDir),
    cwd: process.cwd(),
    dataDir: ctx.dataDir,
    dev: Boolean(opts.dev),
    size: Math.max(1, opts.pool),
    rpc: rpcHandler(() => bound, store),
    rpcTimeoutMs: budget(),
  }));
  const { manifest } = pool;
  // handlers that qualify run on the main thread (./inline-runner.ts); their events' collections
  // are this instance's
  const inline = inlineRunner(manifest, pool.sources);
  fetchCollectionsWith((id, version) => collectionByRef(bound.ctx, id, version));
  const status = hookStatus(manifest, path.resolve(opts.hooksDir), (id) => inline.ids.has(id));
  const hooks = manifest.registrations.filter((r) => r.kind === 'hook');
  for (const name of new Set(hooks.map((h) => h.name))) {
    if (!FIRED.has(name)) console.warn(`[pb_hooks] ${name} is registered, but Outpost does not fire it yet: its handlers will not run`);
  }
  const crons: Cron[] = [];
  for (const job of manifest.registrations) {
    if (job.kind !== 'cron') continue;
    const expr = job.expr.trim() === '@midnight' ? '0 0 * * *' : job.expr;
    crons.push(
      // paused until the generation starts serving (a reload loads it while the previous one serves)
      new Cron(expr, { timezone: 'UTC', protect: false, paused: true }, () => {
        // in a cluster every member schedules it and the leader runs it (once)
        if (!isLeader()) return;
        void status.cron(job.id, pool.invoke({ kind: 'cron', id: job.id }, budget())).then(
          (r) => r.outcome === 'error' && console.error(`[pb_hooks] cron job ${job.job} failed: ${r.error?.message}`),
          (err: unknown) => console.error(`[pb_hooks] cron job ${job.job} failed: ${err instanceof Error ? err.message : String(err)}`),
        );
      }),
    );
    status.schedule(job.id, crons[crons.length - 1]);
  }
  const byName = new Map<string, Array<{ tags: string[] }>>();
  for (const h of hooks) byName.set(h.name, [...(byName.get(h.name) ?? []), { tags: h.tags }]);

  // (read once: process.env is a slow lookup for every call)
  const callBudget = budget();
  const host: HookHost = {
    manifest,
    has: (name, tags = []) => (byName.get(name) ?? []).some((h) => h.tags.length === 0 || h.tags.some((t) => tags.includes(t))),
    trigger: (name, tags, event) => status.hook(name, tags, pool.invoke({ kind: 'hook', name, tags, event }, callBudget)),
    triggerInline(name, tags, event, request) {
      let done: InvocationResult | null = null;
      try {
        done = inline.run(name, tags, event, request);
      } catch (err) {
        // (a fault of the inline runner itself: the executor runs the call as it always could)
        console.error(`[pb_hooks] ${name} could not run on the main thread:`, err);
      }
      if (done) status.hookRan(name, tags, done);
      return done;
    },
    route: (id, request) => status.route(id, pool.invoke({ kind: 'route', id, request }, callBudget)),
    use: (request) => status.use(pool.invoke({ kind: 'use', request }, callBudget)),
    command: (id, args) => pool.invoke({ kind: 'command', id, args }, COMMAND_BUDGET_MS),
    status: () => status.snapshot(),
    async close() {
      for (const c of crons) c.stop();
      await pool.close();
    },
  };
  return {
    host,
    start(nextCtx, nextDb) {
      bound = { ctx: nextCtx, db: nextDb };
      for (const c of crons) if (!c.isStopped()) c.resume();
      return host;
    },
  };
}

/** Starts the hooks of `opts.hooksDir`; null when there are none. A file that fails to load throws. */
export async function startHooks(ctx: AppContext, db: DB, opts: HookOptions): Promise<HookHost | null> {
  const generation = await loadHooks(ctx, db, opts);
  return generation ? generation.start(ctx, db) : null;
}
