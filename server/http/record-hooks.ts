// The record request hooks (0.22's onRecordsListRequest, onRecordViewRequest and
// onRecord{Before,After}{Create,Update,Delete}Request) around the records API: each is triggered
// only when a handler runs for the collection (tags: its id and name), with the record(s), the
// collection and the request; what the handlers change in e.record goes back into the record
// (not validated again, as in 0.22), and a handler that returns false or writes a response
// decides the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import type { RecordModel } from '../records/model';
import { applyRecordWire, collectionRef, recordWire } from '../hooks/record-wire';
import { SaveStopped } from '../records/upsert';
import { runRequestHook, sendHookAnswer, type HookRun } from './request-hooks';

export { answerIfDecided, HookAnswer, sendHookAnswer, type HookRun } from './request-hooks';

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
  if (!hasRecordHook(ctx, name, collection)) return null;
  const record = target.record ? recordWire(target.record, target.isNew ?? false) : undefined;
  const run = await runRequestHook(ctx, req, name, [collection.id, collection.name], {
    fields: { collection: collectionRef(collection) as unknown as Record<string, unknown>, ...target.fields },
    record,
    records: target.records?.map((r) => recordWire(r)),
  });
  if (!run) return null;
  const after = run.event?.record;
  const recordId = after && String(after.data.id ?? '') !== String(target.record?.data.id ?? '') ? String(after.data.id ?? '') : undefined;
  if (target.record && after && recordId === undefined) applyRecordWire(target.record, after);
  target.records?.forEach((r, i) => {
    const changed = run.event?.records?.[i];
    if (changed) applyRecordWire(r, changed);
  });
  return { ...run, recordId };
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
