// What Settings › Hooks shows (GET /api/outpost/hooks, ../http/hooks-info.ts): for a generation of
// hooks, its files, each registered hook with its tags (and whether Outpost fires it yet), the
// routes, the cron jobs with their next run and last result, and the errors its handlers ran into
// lately; and, per hooks folder, the last load that failed (a --hooksWatch reload keeps the
// previous generation then). The host (./host.ts) reports into it; nothing here runs a hook.
import path from 'node:path';
import { FIRED } from './hook-names';
import type { InvocationResult, Manifest, MiddlewareRef } from './protocol';

/** Errors a generation keeps (the newest). */
const MAX_ERRORS = 20;
/** A stack is kept up to this many characters. */
const MAX_STACK = 4000;
/** A Dao look-up that found nothing: the API's 404, as a handler meant (not listed as an error). */
const NO_ROWS = 'sql: no rows in result set';

export interface HookRunError {
  /** ISO date. */
  at: string;
  kind: 'load' | 'hook' | 'route' | 'cron';
  /** The hook (with the collection it ran for), the route (method and path) or the cron job. */
  source: string;
  /** `file.pb.js:line` when the stack names a hook file. */
  place: string;
  message: string;
  stack: string;
}

export interface HooksStatus {
  /** When this generation was loaded (ISO date). */
  loadedAt: string;
  files: Array<{ file: string; hooks: number; routes: number; crons: number }>;
  /** mainThread: the handler runs on the main thread (../hooks/inline-runner.ts), not in an executor. */
  hooks: Array<{ name: string; tags: string[]; file: string; fired: boolean; mainThread: boolean }>;
  routes: Array<{ method: string; path: string; middlewares: string[]; file: string }>;
  /** routerUse: middlewares around every route. */
  routerUse: Array<{ middlewares: string[]; file: string }>;
  crons: Array<{ job: string; expr: string; file: string; nextRun: string | null; lastRun: CronRun | null }>;
  /** The newest first. */
  errors: HookRunError[];
}

interface CronRun {
  at: string;
  ok: boolean;
  ms: number;
  error?: string;
}

/** A cron job's schedule (croner's Cron). */
interface Schedule {
  nextRun(): Date | null;
}

/** A stack frame of Outpost's own code (the executor, Node's internals): left out of the stacks shown. */
const OWN_FRAME = /^\s+at .*(hooks-executor\.|[\\/]server[\\/]hooks[\\/]|node:internal|\[worker eval\])/;

/** The stack as the hook file's author wants it: its frames and their modules', not the executor's. */
const stackOf = (stack: string | undefined, message: string) =>
  (stack || message)
    .split('\n')
    .filter((line) => !OWN_FRAME.test(line))
    .join('\n')
    .slice(0, MAX_STACK);

/** `main.pb.js:12`: the first frame of `stack` in one of the hook files. */
function placeIn(stack: string, files: readonly string[]): string {
  for (const file of files) {
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const at = new RegExp(`${escaped}:(\\d+)`).exec(stack);
    if (at) return `${path.basename(file)}:${at[1]}`;
  }
  return '';
}

/** `$apis.requireRecordAuth("users")` (the string arguments; others, such as $app, do not cross), or `JS middleware`. */
function middlewareName(mw: MiddlewareRef): string {
  if ('js' in mw) return 'JS middleware';
  return `$apis.${mw.builtin}(${mw.args.filter((a) => typeof a === 'string').map((a) => JSON.stringify(a)).join(', ')})`;
}

// The last failed load of each hooks folder (by its resolved path); a load that works clears it.
const loadErrors = new Map<string, HookRunError>();

/** Records how the load of `hooksDir` went: `error` when it failed, null when it worked. */
export function noteLoad(hooksDir: string, error: unknown): void {
  const key = path.resolve(hooksDir);
  if (error === null) {
    loadErrors.delete(key);
    return;
  }
  const e = error as { message?: unknown; stack?: unknown } | null;
  const message = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(error);
  loadErrors.set(key, { at: new Date().toISOString(), kind: 'load', source: path.basename(key), place: '', message, stack: stackOf(typeof e?.stack === 'string' ? e.stack : undefined, message) });
}

/** Awaits a load of `hooksDir`, recording how it went. */
export async function trackLoad<T>(hooksDir: string, load: Promise<T>): Promise<T> {
  try {
    const value = await load;
    noteLoad(hooksDir, null);
    return value;
  } catch (err) {
    noteLoad(hooksDir, err);
    throw err;
  }
}

/** The last load of `hooksDir` that failed, unless a later one worked. */
export function lastLoadError(hooksDir: string): HookRunError | null {
  return loadErrors.get(path.resolve(hooksDir)) ?? null;
}

export interface HookStatusTracker {
  /** A cron job's schedule, for its next run. */
  schedule(jobId: string, schedule: Schedule): void;
  /** Awaits a hook's invocation, keeping its error. */
  hook(name: string, tags: readonly string[], run: Promise<InvocationResult>): Promise<InvocationResult>;
  /** A hook's run that ended at once (on the main thread), its error kept. */
  hookRan(name: string, tags: readonly string[], result: InvocationResult): void;
  /** Awaits a route's invocation, keeping its error. */
  route(id: string, run: Promise<InvocationResult>): Promise<InvocationResult>;
  /** Awaits routerUse's middlewares ahead of a built-in route, keeping their error. */
  use(run: Promise<InvocationResult>): Promise<InvocationResult>;
  /** Awaits a cron job's run, keeping its result as the job's last one. */
  cron(jobId: string, run: Promise<InvocationResult>): Promise<InvocationResult>;
  snapshot(): HooksStatus;
}

/** The status of the generation whose executors registered `manifest` from `hooksDir`. */
export function hookStatus(manifest: Manifest, hooksDir: string, onMainThread: (id: string) => boolean = () => false): HookStatusTracker {
  const loadedAt = new Date().toISOString();
  const schedules = new Map<string, Schedule>();
  const lastRuns = new Map<string, CronRun>();
  const errors: HookRunError[] = [];
  const byId = new Map(manifest.registrations.map((r) => [r.id, r]));

  const keep = (kind: HookRunError['kind'], source: string, error: { message: string; stack?: string }) => {
    const stack = stackOf(error.stack, error.message);
    errors.unshift({ at: new Date().toISOString(), kind, source, place: placeIn(stack, manifest.files), message: error.message, stack });
    errors.length = Math.min(errors.length, MAX_ERRORS);
  };

  /** A failure worth showing: not an ApiError a handler threw on purpose (a 4xx), nor a look-up that found nothing. */
  const failure = (result: InvocationResult): { message: string; stack?: string } | null => {
    if (result.outcome !== 'error') return null;
    const error = result.error ?? { message: 'the handler failed' };
    if (error.api && error.api.status < 500) return null;
    if (!error.api && error.message === NO_ROWS) return null;
    return error;
  };

  // tags are the collection's id and name: the name says it
  const hookSource = (name: string, tags: readonly string[]) => (tags.length ? `${name} (${tags[tags.length - 1]})` : name);

  async function watch(kind: HookRunError['kind'], source: string, run: Promise<InvocationResult>, done?: (result: InvocationResult | null, err: unknown) => void): Promise<InvocationResult> {
    try {
      const result = await run;
      const failed = failure(result);
      if (failed) keep(kind, source, failed);
      done?.(result, null);
      return result;
    } catch (err) {
      const e = err as { message?: unknown; stack?: unknown };
      keep(kind, source, { message: err instanceof Error ? err.message : String(e?.message ?? err), stack: typeof e?.stack === 'string' ? e.stack : undefined });
      done?.(null, err);
      throw err;
    }
  }

  return {
    schedule(jobId, schedule) {
      schedules.set(jobId, schedule);
    },
    hookRan(name, tags, result) {
      const failed = failure(result);
      if (failed) keep('hook', hookSource(name, tags), failed);
    },
    hook(name, tags, run) {
      return watch('hook', hookSource(name, tags), run, (result, err) => {
        // a generation whose onAfterBootstrap fails is not put in place (a reload keeps the previous one)
        if (name !== 'onAfterBootstrap' || (result && result.outcome !== 'error')) return;
        const e = result?.error ?? { message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined };
        noteLoad(hooksDir, { message: `onAfterBootstrap failed: ${e.message}`, stack: e.stack });
      });
    },
    route(id, run) {
      const r = byId.get(id);
      return watch('route', r?.kind === 'route' ? `${r.method} ${r.path}` : id, run);
    },
    use(run) {
      return watch('route', 'routerUse (every route)', run);
    },
    cron(jobId, run) {
      const r = byId.get(jobId);
      const t0 = performance.now();
      const at = new Date().toISOString();
      return watch('cron', r?.kind === 'cron' ? r.job : jobId, run, (result, err) => {
        const ms = Math.round(performance.now() - t0);
        const error = result ? (result.outcome === 'error' ? (result.error?.message ?? 'the job failed') : undefined) : err instanceof Error ? err.message : String(err);
        lastRuns.set(jobId, { at, ok: error === undefined, ms, ...(error === undefined ? {} : { error }) });
      });
    },
    snapshot() {
      const regs = manifest.registrations;
      const base = (file: string) => path.relative(hooksDir, file) || path.basename(file);
      const count = (file: string, kind: string) => regs.filter((r) => r.file === file && r.kind === kind).length;
      return {
        loadedAt,
        files: manifest.files.map((file) => ({ file: base(file), hooks: count(file, 'hook'), routes: count(file, 'route'), crons: count(file, 'cron') })),
        hooks: regs.flatMap((r) => (r.kind === 'hook' ? [{ name: r.name, tags: r.tags, file: base(r.file), fired: FIRED.has(r.name), mainThread: onMainThread(r.id) }] : [])),
        routes: regs.flatMap((r) => (r.kind === 'route' ? [{ method: r.method, path: r.path, middlewares: r.middlewares.map(middlewareName), file: base(r.file) }] : [])),
        routerUse: regs.flatMap((r) => (r.kind === 'use' ? [{ middlewares: r.middlewares.map(middlewareName), file: base(r.file) }] : [])),
        crons: regs.flatMap((r) =>
          r.kind === 'cron'
            ? [{ job: r.job, expr: r.expr, file: base(r.file), nextRun: schedules.get(r.id)?.nextRun()?.toISOString() ?? null, lastRun: lastRuns.get(r.id) ?? null }]
            : [],
        ),
        errors: [...errors],
      };
    },
  };
}
