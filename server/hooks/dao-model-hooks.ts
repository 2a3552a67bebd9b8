// 0.22's model hooks around the writes a hook's own Dao makes ($app.dao().saveRecord(r), e.dao,
// a transaction's txDao): onModelBefore<action> wraps the write (a handler may change the model,
// skip the write by returning false, or fail it by throwing), onModelAfter<action> follows it,
// at once, or at the commit of the transaction under way (0.22's RunInTransaction queues them).
// The handlers run in the executor whose Dao call is open (rpc.ts `nested`), so a before hook's
// own Dao calls join the write's transaction, as 0.22's e.dao does. A write is a generator of the
// hook requests it needs; `drive` answers them synchronously inside a transaction's loop, else
// asynchronously, so one description serves both.
import { Admin, Collection, JsRecord } from '../migrations/js-models';
import { newId } from '../services/passwords';
import { recordToWire, toWire, updateFromWire } from './models-wire';
import type { HookEventWire, InvocationResult } from './protocol';

export interface NestedRequest {
  name: string;
  tags: string[];
  event: HookEventWire;
}

/** Runs a request in the calling executor: its result, or a promise of it. */
export type Ask = (request: NestedRequest) => unknown;

type Action = 'Create' | 'Update' | 'Delete';

/** What is asked of the hooks here: whether a hook has handlers for the tags. */
interface Hooks {
  has(name: string, tags?: string[]): boolean;
}

interface ModelWrite {
  action: Action;
  tags: string[];
  event(): HookEventWire;
  /** Takes back what the handlers changed in e.model. */
  apply(event: HookEventWire | undefined): void;
  /** Gives a new model without an id its id. */
  assignId(): void;
}

const SAVES = new Set(['save', 'saveRecord', 'saveCollection', 'saveAdmin']);
const DELETES = new Set(['delete', 'deleteRecord', 'deleteCollection', 'deleteAdmin']);

/** The model write a Dao method call makes (null: a call that writes no model, or fires no hook). */
export function modelWriteOf(method: string, target: unknown): ModelWrite | null {
  const del = DELETES.has(method);
  if (!del && !SAVES.has(method)) return null;
  if (target instanceof JsRecord) {
    const c = target.collection();
    if (!c) return null;
    return {
      action: del ? 'Delete' : target.isNew() ? 'Create' : 'Update',
      tags: [c.id, c.name],
      event: () => ({ record: recordToWire(target), fields: { model: null } }),
      apply: (event) => {
        if (event?.record) updateFromWire(target, { __model: 'record', record: event.record });
      },
      assignId: () => {
        if (!target.id) target.setId(newId());
      },
    };
  }
  if (target instanceof Collection || target instanceof Admin) {
    return {
      action: del ? 'Delete' : target.isNew() ? 'Create' : 'Update',
      tags: [target instanceof Collection ? '_collections' : '_admins'],
      event: () => ({ fields: { model: toWire(target) } }),
      apply: (event) => {
        const model = event?.fields?.model;
        if (model) updateFromWire(target, model);
      },
      assignId: () => {
        if (!target.id) target.id = newId();
      },
    };
  }
  return null;
}

/** A handler's error as the Dao call throws it (an API error keeps its status and data). */
function handlerError(result: InvocationResult): Error {
  const api = result.error?.api;
  const err = new Error(api?.message ?? result.error?.message ?? 'a model hook failed');
  if (api) Object.assign(err, { status: api.status, data: api.data });
  return err;
}

/** True when the write needs any hook (nothing is prepared otherwise). */
export const hasModelHooks = (hooks: Hooks, w: ModelWrite): boolean => hooks.has(`onModelBefore${w.action}`, w.tags) || hooks.has(`onModelAfter${w.action}`, w.tags);

/**
 * The write with its hooks: `write` runs inside the before hooks' chain; the after hooks run now,
 * or go to `queueAfter` inside a transaction.
 */
export function* guardedWrite(
  hooks: Hooks,
  w: ModelWrite,
  write: () => unknown,
  queueAfter: ((request: NestedRequest) => void) | null,
): Generator<NestedRequest, unknown, InvocationResult> {
  const before = `onModelBefore${w.action}`;
  if (hooks.has(before, w.tags)) {
    // 0.22 gives a new model its id before the hooks see it
    if (w.action === 'Create') w.assignId();
    const result = yield { name: before, tags: w.tags, event: w.event() };
    w.apply(result.event);
    if (result.outcome === 'error') throw handlerError(result);
    if (result.outcome === 'stop') return undefined;
  }
  const value = write();
  const after = `onModelAfter${w.action}`;
  if (hooks.has(after, w.tags)) {
    const request = { name: after, tags: w.tags, event: w.event() };
    if (queueAfter) queueAfter(request);
    else {
      const result = yield request;
      if (result.outcome === 'error') throw handlerError(result);
    }
  }
  return value;
}

/** The after hooks a transaction queued, run once it committed; their errors are joined (0.22). */
export function* afterCommit(requests: NestedRequest[]): Generator<NestedRequest, void, InvocationResult> {
  const errors: string[] = [];
  for (const request of requests) {
    const result = yield request;
    if (result.outcome === 'error') errors.push(handlerError(result).message);
  }
  if (errors.length) throw new Error(`after transaction errors: ${errors.join('; ')}`);
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

/** Runs `gen`, each request answered by `ask`: its value, or a promise of it once an answer is asynchronous. */
export function drive<T>(gen: Generator<NestedRequest, T, InvocationResult>, ask: Ask): T | Promise<T> {
  const step = (next: IteratorResult<NestedRequest, T>): T | Promise<T> => {
    while (!next.done) {
      const answer = ask(next.value);
      if (isThenable(answer)) {
        return Promise.resolve(answer).then(
          (a) => step(gen.next(a as InvocationResult)),
          (err: unknown) => step(gen.throw(err)),
        );
      }
      next = gen.next(answer as InvocationResult);
    }
    return next.value;
  };
  return step(gen.next());
}
