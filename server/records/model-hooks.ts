// 0.22's model hooks for records (onModel{Before,After}{Create,Update,Delete}, tagged with the
// collection's id and name) around the record writes of the API: a before-hook runs ahead of the
// write and may change the record or refuse it (an error fails the request as 0.22's failed save
// does); after-hooks run once the write committed (0.22 defers them to the commit too). Dao
// writes a hook handler makes fire none (they are `dao.withoutHooks()` writes here).
import type { AppContext } from '../context';
import { ApiError } from '../core/errors';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import { applyRecordWire, recordWire } from '../hooks/record-wire';
import type { RecordModel } from './model';

export type ModelAction = 'Create' | 'Update' | 'Delete';

/** True when a handler of this model hook runs for the record's collection. */
const wanted = (ctx: AppContext, name: string, record: RecordModel) => !!ctx.hooks?.has(name, [record.collection.id, record.collection.name]);

/**
 * onModelBefore<action>: the record as the handlers leave it. Returns false when a handler
 * returned false (0.22 then skips the write); a handler's error is thrown as `failMessage` with
 * the error's detail.
 */
export async function beforeModelWrite(ctx: AppContext, action: ModelAction, record: RecordModel, failMessage: string): Promise<boolean> {
  const name = `onModelBefore${action}`;
  if (!ctx.hooks || !wanted(ctx, name, record)) return true;
  const hooks = ctx.hooks;
  const result = await invokeSafely(() => hooks.trigger(name, [record.collection.id, record.collection.name], { record: recordWire(record, action === 'Create'), fields: { model: null } }), name);
  if (result.outcome === 'error') {
    const cause = apiErrorOf(result.error);
    throw new ApiError(400, failMessage, {}, cause.details ?? cause.message);
  }
  if (action !== 'Delete' && result.event?.record) applyRecordWire(record, result.event.record);
  return result.outcome !== 'stop';
}

/** onModelAfter<action> for records already written; an error fails the request (the write stays, as in 0.22). */
export async function afterModelWrites(ctx: AppContext, action: ModelAction, records: readonly RecordModel[], failMessage: string): Promise<void> {
  const name = `onModelAfter${action}`;
  if (!ctx.hooks) return;
  const hooks = ctx.hooks;
  for (const record of records) {
    if (!wanted(ctx, name, record)) continue;
    const result = await invokeSafely(() => hooks.trigger(name, [record.collection.id, record.collection.name], { record: recordWire(record), fields: { model: null } }), name);
    if (result.outcome === 'error') {
      const cause = apiErrorOf(result.error);
      throw new ApiError(400, failMessage, {}, cause.details ?? cause.message);
    }
  }
}
