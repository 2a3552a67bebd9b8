// The record request hooks (0.22's onRecordsListRequest, onRecordViewRequest and
// onRecord{Before,After}{Create,Update,Delete}Request) around the records API: each is triggered
// only when a handler runs for the collection (tags: its id and name), with the record(s), the
// collection and the request; what the handlers change in e.record goes back into the record
// (not validated again, as in 0.22), and a handler that returns false or writes a response
// decides the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { collectionJson } from '../collections/normalize';
import type { RecordModel } from '../records/model';
import type { ResponseSnapshot } from '../hooks/protocol';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import { applyRecordWire, recordWire } from '../hooks/record-wire';
import { SaveStopped } from '../records/upsert';
import { requestSnapshot, sendWritten } from './hook-routes';

/**
 * Thrown where the hooks decided the answer deep inside a route (a handler returned false or wrote
 * a response): the error handler (core.ts) sends it.
 */
export class HookAnswer extends Error {
  constructor(readonly run: HookRun) {
    super('answered by a hook');
  }
}

/** Throws HookAnswer when `run` stopped the chain or wrote a response. */
export function answerIfDecided(run: HookRun | null): void {
  if (run && (run.stopped || run.response)) throw new HookAnswer(run);
}

export interface HookRun {
  /** A handler returned false: no later handler ran and no default action is to run. */
  stopped: boolean;
  /** What a handler wrote (c.json, ...), to send instead of the default answer. */
  response: ResponseSnapshot | null;
  /** Set when the handlers put another record in e.record (its id), e.g. a custom sign-in look-up. */
  recordId?: string;
  /** The event's plain fields the handlers may change (e.token, e.meta, e.oAuth2User, ...), as they left them. */
  fields?: Record<string, unknown>;
}

/** Whether `name` has handlers for this collection (nothing is prepared otherwise). */
const hasRecordHook = (ctx: AppContext, name: string, collection: Collection): boolean =>
  !!ctx.hooks?.has(name, [collection.id, collection.name]);

/** Triggers `name`; null when no handler runs. A handler's error is thrown as 0.22 answers it. */
export async function runRecordHook(
  ctx: AppContext,
  req: FastifyRequest,
  name: string,
  collection: Collection,
  target: { record?: RecordModel; records?: RecordModel[]; isNew?: boolean; fields?: Record<string, unknown> },
): Promise<HookRun | null> {
  const hooks = ctx.hooks;
  if (!hooks || !hasRecordHook(ctx, name, collection)) return null;
  const record = target.record ? recordWire(target.record, target.isNew ?? false) : undefined;
  const event = {
    request: requestSnapshot(ctx, req),
    fields: { collection: collectionJson(collection) as unknown as Record<string, unknown>, ...target.fields },
    record,
    records: target.records?.map((r) => recordWire(r)),
  };
  const result = await invokeSafely(() => hooks.trigger(name, [collection.id, collection.name], event), name);
  if (result.outcome === 'error') throw apiErrorOf(result.error);
  const after = result.event?.record;
  const recordId = after && String(after.data.id ?? '') !== String(target.record?.data.id ?? '') ? String(after.data.id ?? '') : undefined;
  if (target.record && after && recordId === undefined) applyRecordWire(target.record, after);
  target.records?.forEach((r, i) => {
    const changed = result.event?.records?.[i];
    if (changed) applyRecordWire(r, changed);
  });
  return { stopped: result.outcome === 'stop', response: result.response ?? null, recordId, fields: result.event?.fields };
}

/** 0.22's request hooks around a save: before (after validation), the save, after, then the answer. */
export async function saveWithHooks(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  collection: Collection,
  action: 'Create' | 'Update',
  save: (beforeSave: ((record: RecordModel) => Promise<boolean>) | undefined) => Promise<RecordModel>,
): Promise<RecordModel | FastifyReply> {
  let before: HookRun | null = null;
  const beforeName = `onRecordBefore${action}Request`;
  const beforeSave = hasRecordHook(ctx, beforeName, collection)
    ? async (record: RecordModel) => {
        before = await runRecordHook(ctx, req, beforeName, collection, { record, isNew: action === 'Create' });
        return !before?.stopped;
      }
    : undefined;
  let saved: RecordModel;
  try {
    saved = await save(beforeSave);
  } catch (err) {
    if (err instanceof SaveStopped && before) return sendHookAnswer(reply, before);
    throw err;
  }
  const after = await runRecordHook(ctx, req, `onRecordAfter${action}Request`, collection, { record: saved });
  const written = (before as HookRun | null)?.response ?? after?.response;
  if (after?.stopped || written) return sendHookAnswer(reply, { stopped: true, response: written ?? null });
  return saved;
}

export const isRecord = (v: RecordModel | FastifyReply): v is RecordModel => 'collection' in v && 'data' in v;

/** What the hooks decided: the response a handler wrote, or 200 with no body (0.22 after `return false`). */
export function sendHookAnswer(reply: FastifyReply, run: HookRun): FastifyReply {
  return sendWritten(reply, { outcome: 'continue', response: run.response });
}
