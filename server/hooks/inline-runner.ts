// Record request hooks whose handlers all qualify (./inline-analysis.ts) run here, on the main
// thread, instead of in an executor: the same event built from the same wire (./worker/event.ts),
// the same result. Such handlers reach nothing but their event, so a run that tries blocking work
// anyway (a record's password set, which hashes: ../core/blocking-guard.ts), reaches for e.app or
// returns a promise is dropped whole (a refusal it catches counts too), and an executor runs the
// call from the start. A hook whose runs here take longer than SLOW_MS, SLOW_RUNS times in a row,
// goes to the executors from then on (one slow run may be a garbage collection or a cold start).
import path from 'node:path';
import { format } from 'node:util';
import vm from 'node:vm';
import { mayBlock, refusingBlocking } from '../core/blocking-guard';
import { EVERYTHING, INLINE_CONSOLE_METHODS, inlineVerdict, shadowedGlobals, strictness, touchedGlobals } from './inline-analysis';
import type { HookEventWire, InvocationResult, Manifest, Registration, RequestWire } from './protocol';
import { callable } from './worker/compat';
import { ERROR_CLASSES } from './worker/errors';
import { errorWire, eventOf, eventResult, isThenable } from './worker/event';
import type { Handler } from './worker/registry';

/** The hooks whose handlers may run here: the record request hooks, whose events hold no Dao, mail client or realtime client. */
const INLINE_HOOKS = new Set([
  'onRecordsListRequest', 'onRecordViewRequest',
  'onRecordBeforeCreateRequest', 'onRecordAfterCreateRequest',
  'onRecordBeforeUpdateRequest', 'onRecordAfterUpdateRequest',
  'onRecordBeforeDeleteRequest', 'onRecordAfterDeleteRequest',
]);

/** A hook whose runs here take longer than this, SLOW_RUNS times in a row, runs in an executor from then on. */
const SLOW_MS = 5;
const SLOW_RUNS = 3;

type Ctor = new (...args: unknown[]) => object;
/** What the wrapper of a compiled handler binds (the rest of INLINE_GLOBALS are the main thread's own pure ones). */
const BOUND = [...Object.keys(ERROR_CLASSES), 'console'];
/** The error classes as hook code gets them: callable without `new`, as goja's are. */
const CLASSES = Object.values(ERROR_CLASSES).map((C) => callable(C as unknown as Ctor));

/** A run's console lines, written once the run stands (a dropped run's lines are the executor's to write). */
type Lines = Array<[keyof Console, unknown[]]>;

function bufferedConsole(lines: Lines): Console {
  const out: Record<string, (...args: unknown[]) => void> = {};
  // formatted when called, as an executor prints it (an object the handler changes afterwards
  // prints as it was; an executor's output is no TTY: no colours either)
  for (const method of INLINE_CONSOLE_METHODS) out[method] = (...args) => void lines.push([method, [format(...args)]]);
  return out as unknown as Console;
}

/** `event` with copies of its plain object values (the collection is copied where it is read). */
function ownFields(event: HookEventWire): HookEventWire {
  const fields = event.fields;
  let copy: Record<string, unknown> | null = null;
  for (const k in fields) {
    const v = fields[k];
    if (k === 'collection' || typeof v !== 'object' || v === null) continue;
    copy ??= { ...fields };
    copy[k] = structuredClone(v);
  }
  return copy ? { ...event, fields: copy } : event;
}

type HookRegistration = Extract<Registration, { kind: 'hook' }> & { file: string };

export interface InlineRunner {
  /** The ids of the handlers that run here when all of their hook's handlers for a collection do (Settings › Hooks says so). */
  readonly ids: ReadonlySet<string>;
  /** `name`'s handlers for `tags` run here; null when they are to run in an executor. */
  run(name: string, tags: string[], event: HookEventWire, request?: () => RequestWire): InvocationResult | null;
}

/**
 * Compiles the handlers that qualify, each with its file's name and line for its stack traces.
 * `sources`: each hook file's text, as the executors run it.
 */
export function inlineRunner(manifest: Manifest, sources: ReadonlyMap<string, string>, warn: (line: string) => void = (l) => console.warn(l)): InlineRunner {
  const compiled = new Map<string, { fn: (console: Console) => Handler }>();
  // per file: the globals it declares again, whether it is strict, and where the next handler's text is looked for
  const files = new Map<string, { shadows: Set<string>; strict: ReturnType<typeof strictness>; cursor: number }>();
  // the globals some hook file changes for the executors (all of them share a realm); read once
  let touched: Set<string> | null = null;
  const touchedByAny = () => {
    if (touched) return touched;
    const all = new Set<string>();
    try {
      for (const text of sources.values()) for (const g of touchedGlobals(text)) all.add(g);
    } catch {
      all.add(EVERYTHING); // (a file the check cannot walk: as if it changed anything)
    }
    return (touched = all);
  };
  for (const reg of manifest.registrations) {
    if (reg.kind !== 'hook' || !INLINE_HOOKS.has(reg.name)) continue;
    const r = reg as HookRegistration;
    const text = sources.get(r.file);
    // a .pb.ts file runs compiled, with its source map: its handlers stay in the executors
    if (text === undefined || !r.file.endsWith('.js')) continue;
    // (a fault here keeps the handler in the executors, where it always could run)
    try {
      const verdict = inlineVerdict(r.source);
      if (!verdict.inline || touchedByAny().has(EVERYTHING)) continue;
      let file = files.get(r.file);
      if (!file) files.set(r.file, (file = { shadows: shadowedGlobals(text), strict: strictness(text), cursor: 0 }));
      if ([...verdict.globals].some((g) => file.shadows.has(g) || touchedByAny().has(g))) continue;
      // (a strict file's handlers are strict in the executors: here too; a file strict in parts keeps them there)
      if (file.strict === 'mixed') continue;
      const directive = file.strict === 'strict' ? '"use strict"; ' : '';
      // where the handler's text is in its file (handlers of the same text: in their order)
      const at = text.indexOf(r.source, file.cursor);
      if (at >= 0) file.cursor = at + r.source.length;
      const line = at >= 0 ? text.slice(0, at).split('\n').length - 1 : 0;
      const factory = new vm.Script(`(function (${BOUND.join(', ')}) {${directive}\nreturn (${r.source});\n})`, { filename: r.file, lineOffset: line - 1 }).runInThisContext() as (...bound: unknown[]) => Handler;
      compiled.set(r.id, { fn: (c) => factory(...CLASSES, c) });
    } catch (err) {
      warn(`[pb_hooks] ${r.name} in ${path.basename(r.file)} stays in the executors: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // per hook and tags: the handlers to run here, in their order, or null (one of them cannot)
  const plans = new Map<string, { ids: string[]; makers: Array<(console: Console) => Handler> } | null>();
  // (a console bound per run: the handler is built once per console object, i.e. once per plan)
  const planFor = (name: string, tags: string[]) => {
    const key = `${name}\u0000${tags.join('\u0000')}`;
    let plan = plans.get(key);
    if (plan === undefined) {
      const regs = manifest.registrations.filter((r): r is HookRegistration => r.kind === 'hook' && r.name === name && (r.tags.length === 0 || r.tags.some((t) => tags.includes(t))));
      plan = regs.length && regs.every((r) => compiled.has(r.id)) ? { ids: regs.map((r) => r.id), makers: regs.map((r) => compiled.get(r.id)!.fn) } : null;
      plans.set(key, plan);
    }
    return { key, plan };
  };

  // each plan's handlers are built once, over one buffered console whose lines each run takes
  const built = new Map<string, { handlers: Handler[]; lines: Lines; slow: number }>();

  const ids = new Set(compiled.keys());
  return {
    ids,
    run(name, tags, event, request) {
      if (!INLINE_HOOKS.has(name)) return null;
      const { key, plan } = planFor(name, tags);
      if (!plan) return null;
      let ready = built.get(key);
      if (!ready) {
        const lines: Lines = [];
        const c = bufferedConsole(lines);
        ready = { handlers: plan.makers.map((make) => make(c)), lines, slow: 0 };
        built.set(key, ready);
      }
      const { handlers, lines } = ready;
      lines.length = 0;
      const started = performance.now();
      const run = refusingBlocking((): InvocationResult => {
        // (the wire's plain values are the caller's own objects, e.g. a list's result: a run
        // dropped for an executor must leave them as they came, or the executor's rerun starts
        // from what the dropped one did to them)
        const ev = eventOf(ownFields(event), request);
        // $app is the executors' (a run that reaches for it goes there)
        for (const k of ['app', 'dao']) if (k in ev.e) Object.defineProperty(ev.e, k, { configurable: true, enumerable: true, get: () => mayBlock(`e.${k}`) });
        let outcome: InvocationResult['outcome'] = 'continue';
        try {
          for (const fn of handlers) {
            const r = fn(ev.e);
            if (isThenable(r)) mayBlock('a promise');
            if (r instanceof Error) throw r;
            if (r === false) {
              outcome = 'stop';
              break;
            }
          }
        } catch (err) {
          // the main thread's stack is a quarter of an executor's: a deep request value (a JSON
          // field nested 10k deep, copied by e.record) overflows it here only
          if (err instanceof RangeError && /call stack/i.test(err.message)) mayBlock('a deep stack');
          return { outcome: 'error', error: errorWire(err), response: ev.ctx()?.written() ?? null };
        }
        return eventResult(ev, outcome);
      });
      const ms = performance.now() - started;
      ready.slow = ms > SLOW_MS ? ready.slow + 1 : 0;
      if (ready.slow >= SLOW_RUNS) {
        plans.set(key, null);
        for (const id of plan.ids) ids.delete(id);
        warn(`[pb_hooks] ${name}${tags.length ? ` (${tags[tags.length - 1]})` : ''} took over ${SLOW_MS} ms on the main thread ${SLOW_RUNS} times in a row (${ms.toFixed(1)} ms the last): it runs in an executor from now on`);
      }
      if (run.refused) return null;
      // (each line formatted already: '%s' keeps a "%" in it as it is)
      for (const [method, args] of lines.splice(0)) (console[method] as (...a: unknown[]) => void)('%s', ...args);
      return run.value;
    },
  };
}
