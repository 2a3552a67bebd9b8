// A hook executor: a worker thread that loads every pb_hooks file and runs its handlers when the
// main thread asks (./pool.ts). Handlers may block (sleep, bcrypt, a slow call): only this thread
// waits. Data is the main thread's, reached through the synchronous channel (./rpc.ts).
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { Collection } from '../migrations/js-models';
import { setRuntimeName } from '../migrations/js-unsupported';
import { collectionJsonOf, fetchCollectionsWith, fromWire, isCollectionRef, isTaggedModel, recordFromWire, recordToWire, toWire } from './models-wire';
import type { ErrorWire, FromExecutor, HookEventWire, Invocation, InvocationResult, RequestSnapshot, RequestWire, ToExecutor } from './protocol';
import { rpcClient } from './rpc';
import { ApiError, ValidationError } from './worker/errors';
import { installGlobals } from './worker/globals';
import { evaluateFile, placeOf } from './worker/load';
import { HookRegistry, type Handler } from './worker/registry';
import { routeContext } from './worker/route-context';

const { port, signal, rpcTimeoutMs } = workerData as { port: MessagePort; signal: SharedArrayBuffer; rpcTimeoutMs: number };
const call = rpcClient(port, new Int32Array(signal), rpcTimeoutMs, (request) => runNested(request));
const registry = new HookRegistry();
fetchCollectionsWith((id, version) => call('collection', [id, version]) as Record<string, unknown> | null);
let files: string[] = [];
setRuntimeName("Outpost's pb_hooks");

const send = (msg: FromExecutor) => parentPort!.postMessage(msg);

const requestOf = (wire: RequestWire): RequestSnapshot => JSON.parse(wire) as RequestSnapshot;

/** ApiError data as 0.22 keeps it: field errors as {code, message}, anything else as an invalid value. */
function dataOf(data: unknown, depth = 0): unknown {
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data) || depth > 8) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value instanceof ValidationError) out[key] = value.toJSON();
    else if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { code?: unknown }).code === 'string' && typeof (value as { message?: unknown }).message === 'string') {
      out[key] = { code: (value as { code: string }).code, message: (value as { message: string }).message };
    } else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = dataOf(value, depth + 1);
    else out[key] = { code: 'validation_invalid_value', message: 'Invalid value.' };
  }
  return out;
}

function errorWire(err: unknown): ErrorWire {
  const e = err as { message?: unknown; stack?: unknown; api?: ErrorWire['api'] } | null;
  const wire: ErrorWire = { message: e && typeof e === 'object' && 'message' in e ? String(e.message) : String(err), stack: typeof e?.stack === 'string' ? e.stack : undefined };
  if (err instanceof ApiError) wire.api = { status: err.code, message: err.message, data: dataOf(err.data) };
  else if (e?.api) wire.api = e.api; // an API error the main thread answered a Dao call with
  return wire;
}

const isThenable = (v: unknown): v is Promise<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

/** Runs a handler: `false` stops the chain (0.22's StopPropagation), a returned Error fails it. */
async function runHandler(fn: Handler, arg: unknown): Promise<'continue' | 'stop'> {
  let r = fn(arg);
  if (isThenable(r)) r = await r;
  if (r === false) return 'stop';
  if (r instanceof Error) throw r;
  return 'continue';
}

/**
 * `e[key]` built on first read (or set by a handler): most handlers read one or two of an event's
 * fields, and building 0.22's objects for every call was most of a hook call's cost.
 */
function lazy(e: Record<string, unknown>, key: string, build: () => unknown): () => boolean {
  let touched = false;
  let value: unknown;
  Object.defineProperty(e, key, {
    configurable: true,
    enumerable: true,
    get() {
      if (!touched) {
        value = build();
        touched = true;
      }
      return value;
    },
    set(v: unknown) {
      value = v;
      touched = true;
    },
  });
  return () => touched;
}

interface BuiltEvent {
  e: Record<string, unknown>;
  /** The route context, once a handler read e.httpContext. */
  ctx(): ReturnType<typeof routeContext> | null;
  /** Whether a handler read or replaced e.record / e.records (only then they go back). */
  recordTouched(): boolean;
  recordsTouched(): boolean;
  /** The tagged model fields a handler read or replaced. */
  modelsTouched(): string[];
  /** An API error event's e.error as the handlers left it. */
  apiError: ApiError | null;
}

function eventOf(wire: HookEventWire): BuiltEvent {
  const fields = wire.fields ?? {};
  const e: Record<string, unknown> = { ...fields };
  lazy(e, 'app', () => (globalThis as { $app?: unknown }).$app);
  // a record event's collection comes as its plain JSON (never sent back); a collection event's
  // comes tagged, as its other models
  if (fields.collection && !isTaggedModel(fields.collection)) {
    lazy(e, 'collection', () => {
      const c = new Collection(isCollectionRef(fields.collection) ? collectionJsonOf(fields.collection) : fields.collection);
      c.markAsNotNew();
      return c;
    });
  }
  // (a record the event may lack, e.g. a sign-in's before hook, comes as fields.record = null)
  const recordTouched = wire.record ? lazy(e, 'record', () => recordFromWire(wire.record!)) : () => 'record' in fields && e.record !== fields.record;
  if (fields.client) e.client = clientObject(fields.client as { id: string; subscriptions: string[] });
  // a model other than a record (an admin, a collection as e.model, ...) or a list of them
  // (e.collections) comes tagged (models-wire.ts): built on first read, and sent back only when a
  // handler read it
  const modelKeys: Array<[string, () => boolean]> = [];
  for (const [key, value] of Object.entries(fields)) {
    const tagged = isTaggedModel(value) || (Array.isArray(value) && value.length > 0 && value.every(isTaggedModel));
    if (tagged) modelKeys.push([key, lazy(e, key, () => fromWire(value))]);
  }
  // an admin sign-in's event for an unknown email has e.admin null: a handler may put one there
  if (fields.admin === null) modelKeys.push(['admin', lazy(e, 'admin', () => null)]);
  // model hooks name it e.model (and give the Dao the write runs with); a model with no class
  // here (an external auth) comes as the plain fields.model
  if ('model' in fields) {
    if (wire.record) {
      Object.defineProperty(e, 'model', { configurable: true, enumerable: true, get: () => e.record, set: (v: unknown) => void (e.record = v) });
    }
    lazy(e, 'dao', () => (globalThis as { $app?: { dao(): unknown } }).$app?.dao());
  }
  // a model the event may lack (a guest's file token) is one a handler may set: sent back too
  if (fields.model === null && !wire.record) modelKeys.push(['model', lazy(e, 'model', () => null)]);
  // an API error event's e.error: 0.22 answers with that very object, so a handler may change
  // its code, message and data (the object it holds, not another one put in its place)
  const apiError = isErrorFields(fields.error) ? new ApiError(fields.error.code, fields.error.message, fields.error.data) : null;
  if (apiError) e.error = apiError;
  // the OAuth2 provider client: its settings, read through 0.22's getters (displayName(), ...)
  const client = fields.providerClient;
  if (client && typeof client === 'object') e.providerClient = Object.fromEntries(Object.entries(client).map(([k, v]) => [k, () => v]));
  const recordsTouched = wire.records ? lazy(e, 'records', () => wire.records!.map(recordFromWire)) : () => false;
  let ctx: ReturnType<typeof routeContext> | null = null;
  if (wire.request) lazy(e, 'httpContext', () => (ctx = routeContext(requestOf(wire.request!))));
  const modelsTouched = () => modelKeys.filter(([, touched]) => touched()).map(([key]) => key);
  return { e, ctx: () => ctx, recordTouched, recordsTouched, modelsTouched, apiError };
}

/** A JSON copy of `v` (answered as 0.22 serialises e.error.data: as it is); {} when it cannot be copied. */
function jsonCopy(v: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(v ?? {})) as unknown;
  } catch {
    return {};
  }
}

const isErrorFields = (v: unknown): v is { code: number; message: string; data: unknown } =>
  !!v && typeof v === 'object' && typeof (v as { code?: unknown }).code === 'number' && typeof (v as { message?: unknown }).message === 'string';

/** A realtime client as 0.22's handlers use it (subscriptions.Client's methods they read). */
function clientObject(c: { id: string; subscriptions: string[] }): object {
  const store = new Map<string, unknown>();
  return {
    id: () => c.id,
    subscriptions: () => [...c.subscriptions],
    hasSubscription: (name: unknown) => c.subscriptions.includes(String(name)),
    get: (key: unknown) => store.get(String(key)) ?? null,
    set: (key: unknown, value: unknown) => void store.set(String(key), value),
  };
}

/** The event's plain fields a handler may change (a mail's message and meta, a list's result, an auth's token, ...). */
function mutableFields(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['message', 'meta', 'result', 'subscriptions', 'token', 'oAuth2User', 'externalAuths', 'redactedSettings', 'newSettings']) {
    if (!(key in e)) continue;
    try {
      out[key] = JSON.parse(JSON.stringify(e[key] ?? null)) as unknown;
    } catch {
      // a value that cannot be copied stays as it was
    }
  }
  return out;
}

/** The middlewares around `last` (0.22's (next) => (c) => ...); $apis' ones are checked by the main thread. */
function chain(middlewares: ReadonlyArray<unknown>, last: Handler): Handler {
  let handler = last;
  for (const mw of [...middlewares].reverse()) if (typeof mw === 'function') handler = (mw as Handler)(handler) as Handler;
  return handler;
}

/** A hook run's result: the event's fields the handlers may have changed, and what they wrote. */
function eventResult(built: BuiltEvent, outcome: InvocationResult['outcome']): InvocationResult {
  const { e } = built;
  // what no handler read cannot have changed: it is not sent back
  const event: HookEventWire = { fields: mutableFields(e) };
  for (const key of built.modelsTouched()) event.fields![key] = toWire(e[key]);
  // the file download's and the realtime connect's plain values
  for (const key of ['servedPath', 'servedName', 'idleTimeout']) if (key in e && ['string', 'number'].includes(typeof e[key])) event.fields![key] = e[key];
  const { apiError } = built;
  if (apiError) event.fields!.error = { code: apiError.code, message: apiError.message, data: jsonCopy(apiError.data) };
  if (built.recordTouched() && e.record && typeof e.record === 'object') event.record = recordToWire(e.record as Parameters<typeof recordToWire>[0]);
  if (built.recordsTouched() && Array.isArray(e.records)) event.records = (e.records as Parameters<typeof recordToWire>[0][]).map(recordToWire);
  return { outcome, event, response: built.ctx()?.written() ?? null };
}

/**
 * Handlers the main thread asks for while one of this executor's calls is open (the model hooks
 * of a write its Dao makes): run here and now, synchronously, as 0.22 runs them inside the save.
 * A handler that returns a promise goes on in the background (its result cannot be waited for
 * inside the call); its error is printed.
 */
function runNested(request: unknown): InvocationResult {
  const { name, tags, event } = request as { name: string; tags: string[]; event: HookEventWire };
  const built = eventOf(event);
  let outcome: InvocationResult['outcome'] = 'continue';
  try {
    for (const fn of registry.handlersFor(name, tags)) {
      const r = fn(built.e);
      if (isThenable(r)) {
        r.then(undefined, (err: unknown) => console.error(`[pb_hooks] ${name} (async, inside a Dao call):`, err));
        continue;
      }
      if (r instanceof Error) throw r;
      if (r === false) {
        outcome = 'stop';
        break;
      }
    }
  } catch (err) {
    return { outcome: 'error', error: errorWire(err) };
  }
  return eventResult(built, outcome);
}

async function invoke(inv: Invocation): Promise<InvocationResult> {
  if (inv.kind === 'hook') {
    const built = eventOf(inv.event);
    const { e } = built;
    let outcome: InvocationResult['outcome'] = 'continue';
    try {
      for (const fn of registry.handlersFor(inv.name, inv.tags)) {
        if ((await runHandler(fn, e)) === 'stop') {
          outcome = 'stop';
          break;
        }
      }
    } catch (err) {
      return { outcome: 'error', error: errorWire(err), response: built.ctx()?.written() ?? null };
    }
    return eventResult(built, outcome);
  }
  if (inv.kind === 'use') {
    // routerUse's middlewares ahead of a built-in route: the route itself runs on the main thread
    // once they call next() (what they put in c does not reach it)
    const c = routeContext(requestOf(inv.request));
    let proceed = false;
    const next: Handler = () => {
      proceed = true;
      return undefined;
    };
    try {
      let r = chain(registry.uses, next)(c);
      if (isThenable(r)) r = await r;
      if (r instanceof Error) throw r;
    } catch (err) {
      return { outcome: 'error', error: errorWire(err), response: c.written() };
    }
    return { outcome: 'continue', response: c.written(), proceed: proceed && !c.written() };
  }
  if (inv.kind === 'route') {
    const route = registry.routes.get(inv.id);
    if (!route) return { outcome: 'error', error: { message: `no route ${inv.id}` } };
    const c = routeContext(requestOf(inv.request));
    // routerUse's middlewares first, then the route's own (0.22's (next) => (c) => ...)
    const handler = chain([...registry.uses, ...route.middlewares], route.handler);
    try {
      let r = handler(c);
      if (isThenable(r)) r = await r;
      if (r instanceof Error) throw r;
    } catch (err) {
      return { outcome: 'error', error: errorWire(err), response: c.written() };
    }
    return { outcome: 'continue', response: c.written() };
  }
  if (inv.kind === 'command') {
    const command = registry.commands.get(inv.id);
    if (!command) return { outcome: 'error', error: { message: `no command ${inv.id}` } };
    try {
      let r = command.run?.(command.cmd, [...inv.args]);
      if (isThenable(r)) r = await r;
      if (r instanceof Error) throw r;
    } catch (err) {
      return { outcome: 'error', error: errorWire(err) };
    }
    return { outcome: 'continue' };
  }
  const job = registry.crons.get(inv.id);
  if (!job) return { outcome: 'error', error: { message: `no cron job ${inv.id}` } };
  try {
    await runHandler(job, undefined);
  } catch (err) {
    return { outcome: 'error', error: errorWire(err) };
  }
  return { outcome: 'continue' };
}

parentPort!.on('message', (msg: ToExecutor) => {
  if (msg.type === 'load') {
    files = msg.files;
    installGlobals(globalThis as unknown as Record<string, unknown>, { call, registry, hooksDir: msg.hooksDir, dataDir: msg.dataDir, dev: msg.dev });
    for (const file of files) {
      registry.file = file;
      try {
        evaluateFile(file, msg.cwd, msg.sources[files.indexOf(file)] ?? '');
      } catch (err) {
        const at = placeOf(err, [file]);
        const wire = errorWire(err);
        send({ type: 'loadFailed', error: { ...wire, message: `Failed to execute ${at || file}: ${wire.message}` } });
        return;
      }
    }
    registry.file = null;
    send({ type: 'loaded', manifest: { files, registrations: registry.registrations } });
    return;
  }
  void invoke(msg.invocation).then(
    (result) => send({ type: 'result', id: msg.id, result }),
    (err: unknown) => send({ type: 'result', id: msg.id, result: { outcome: 'error', error: errorWire(err) } }),
  );
});
