// The Dao hook code gets ($app.dao(), over the channel): the migrations runtime's Dao, whose record
// writes are then announced as the API's are (realtime subscribers hear of them; a deleted
// record's files go), once they are committed: at once outside a transaction, at the commit of a
// hook's runInTransaction, and never when it rolls back. Its model writes fire 0.22's model hooks
// (./dao-model-hooks.ts).
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { findCollection } from '../collections/store';
import { createDao } from '../migrations/js-dao';
import { JsRecord } from '../migrations/js-models';
import { emitRecordChange, runAfterCommit } from '../records/events';
import { recordFromRow, type RecordModel } from '../records/model';
import { removeRecordFiles } from '../records/delete';
import { findRowById } from '../records/store';
import { afterCommit, drive, guardedWrite, hasModelHooks, modelWriteOf, type Ask, type NestedRequest } from './dao-model-hooks';

type Pending = { action: 'create' | 'update' | 'delete'; record: RecordModel } | { action: 'work'; run: () => void };

export interface HookDao {
  /**
   * Calls a Dao method; records it writes are announced now or at the commit. A model write's
   * hooks run through `ask` (then the value may come as a promise; without `ask` they do not run).
   */
  call(method: string, args: unknown[], inTransaction: boolean, ask?: Ask): unknown;
  /** The transaction ended: announce (commit) or forget (rollback) what it wrote; after a commit its queued after hooks run through `ask`. */
  settle(committed: boolean, ask?: Ask): unknown;
  /** Runs `work` now, or at the commit of the transaction under way (never after a rollback). */
  later(work: () => void, inTransaction: boolean): void;
}

export function hookDao(ctx: AppContext, db: DB): HookDao {
  const deleted: RecordModel[] = [];
  const work: Array<() => void> = [];
  const dao = createDao(ctx, db, deleted, work) as Record<string, unknown>;
  let pending: Pending[] = [];
  /** The after hooks of the writes of the transaction under way. */
  let afterHooks: NestedRequest[] = [];

  const announce = (list: Pending[]) => {
    const gone: RecordModel[] = [];
    for (const p of list) {
      if (p.action === 'work') runAfterCommit([p.run]);
      else emitRecordChange(ctx, p);
      if (p.action === 'delete') gone.push(p.record);
    }
    if (gone.length) void removeRecordFiles(ctx, gone);
  };

  /** The saved record as stored (its collection and row), or null. */
  const stored = (r: JsRecord): RecordModel | null => {
    const collection = findCollection(ctx, r.collection()?.id || r.collection()?.name || '');
    const row = collection ? findRowById(ctx, collection, r.id) : null;
    return collection && row ? recordFromRow(collection, row) : null;
  };

  return {
    call(method, args, inTransaction, ask) {
      const hooks = ctx.hooks;
      const w = hooks ? modelWriteOf(method, args[0]) : null;
      if (!hooks || !w || !ask || !hasModelHooks(hooks, w)) return write(method, args, inTransaction);
      return drive(guardedWrite(hooks, w, () => write(method, args, inTransaction), inTransaction ? (r) => afterHooks.push(r) : null), ask);
    },
    settle(committed, ask) {
      const list = pending;
      const after = afterHooks;
      pending = [];
      afterHooks = [];
      if (!committed) return undefined;
      announce(list);
      return after.length && ask ? drive(afterCommit(after), ask) : undefined;
    },
    later(run, inTransaction) {
      if (inTransaction) pending.push({ action: 'work', run });
      else runAfterCommit([run]);
    },
  };

  /** The Dao call itself, its record writes announced now or at the commit. */
  function write(method: string, args: unknown[], inTransaction: boolean): unknown {
    const fn = dao[method] as (...a: unknown[]) => unknown;
    const target = args[0];
    const isRecordSave = (method === 'saveRecord' || method === 'save') && target instanceof JsRecord;
    const wasNew = isRecordSave && (target as JsRecord).isNew();
    const before = deleted.length;
    const value = fn(...args);
    const writes: Pending[] = [
      ...work.splice(0).map((run) => ({ action: 'work' as const, run })),
      ...deleted.splice(before).map((record) => ({ action: 'delete' as const, record })),
    ];
    if (isRecordSave) {
      const record = stored(target as JsRecord);
      if (record) writes.push({ action: wasNew ? 'create' : 'update', record });
    }
    if (inTransaction) pending.push(...writes);
    else announce(writes);
    return value;
  }
}
