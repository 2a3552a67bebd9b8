// A hook event as handlers get it (`e`), built from its wire form, and what goes back once they
// have run: shared by the executors (../executor.ts) and the main thread's inline runner
// (../inline-runner.ts), so a handler sees the same event wherever it runs.
import { Collection } from '../../migrations/js-models';
import { collectionJsonOf, fromWire, isCollectionRef, isTaggedModel, recordFromWire, recordToWire, toWire } from '../models-wire';
import type { ErrorWire, HookEventWire, InvocationResult, RequestSnapshot, RequestWire } from '../protocol';
import { ApiError, ValidationError } from './errors';
import type { Handler } from './registry';
import { routeContext } from './route-context';

export const requestOf = (wire: RequestWire): RequestSnapshot => JSON.parse(wire) as RequestSnapshot;

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

export function errorWire(err: unknown): ErrorWire {
  const e = err as { message?: unknown; stack?: unknown; api?: ErrorWire['api'] } | null;
  const wire: ErrorWire = { message: e && typeof e === 'object' && 'message' in e ? String(e.message) : String(err), stack: typeof e?.stack === 'string' ? e.stack : undefined };
  if (err instanceof ApiError) wire.api = { status: err.code, message: err.message, data: dataOf(err.data) };
  else if (e?.api) wire.api = e.api; // an API error the main thread answered a Dao call with
  return wire;
}

export const isThenable = (v: unknown): v is Promise<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

/** Runs a handler: `false` stops the chain (0.22's StopPropagation), a returned Error fails it. */
export async function runHandler(fn: Handler, arg: unknown): Promise<'continue' | 'stop'> {
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

export interface BuiltEvent {
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

/** `request`: the request's snapshot when the wire lacks it, taken only if a handler reads e.httpContext (on the main thread). */
export function eventOf(wire: HookEventWire, request?: () => RequestWire): BuiltEvent {
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
  const snapshot = wire.request ?? request;
  if (snapshot !== undefined) lazy(e, 'httpContext', () => (ctx = routeContext(requestOf(typeof snapshot === 'string' ? snapshot : snapshot()))));
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

/** A hook run's result: the event's fields the handlers may have changed, and what they wrote. */
export function eventResult(built: BuiltEvent, outcome: InvocationResult['outcome']): InvocationResult {
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
