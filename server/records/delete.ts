// Record delete with 0.22's relation clean-up (daos/record.go DeleteRecord / cascadeRecordDelete):
// the record goes first, then every relation pointing at it loses the id; a field left empty
// with cascadeDelete deletes the referencing record (recursively), a required one refuses the
// whole delete, any other is saved shortened. All in one transaction; the deleted records' files
// and external auths go too.
import type { AppContext } from '../context';
import { findReferences } from '../collections/store';
import { isMultiple } from '../collections/normalize';
import { ApiError } from '../core/errors';
import { formatPbDate } from '../query/macros';
import { getStorage } from '../services/storage';
import { announceRecordDeleting, emitRecordChange, runAfterCommit } from './events';
import { afterModelWrites, beforeModelWrite } from './model-hooks';
import { recordFromRow, stringsOf, type RecordModel } from './model';
import { prepareValue } from '../../src/fields/record-values';
import { isRelationField } from '../../src/fields/relation/field';

const DELETE_FAILED = 'Failed to delete record. Make sure that the record is not part of a required relation reference.';

class RequiredReferenceError extends Error {}

interface DeleteState {
  deleted: RecordModel[];
  updated: Map<string, RecordModel>;
  /** Work the deleting listeners left for after the commit (dropped when the delete fails). */
  afterCommit: Array<() => void>;
}

function deleteInTx(ctx: AppContext, record: RecordModel, state: DeleteState): void {
  const c = record.collection;
  const id = String(record.data.id);
  if (c.type === 'auth') {
    ctx.externalAuths.deleteOf(c.id, id);
  }
  state.afterCommit.push(...announceRecordDeleting(ctx, record));
  ctx.records.delete(c, id);
  state.deleted.push(record);
  state.updated.delete(`${c.id}/${id}`);
  cascade(ctx, record, state);
}

function cascade(ctx: AppContext, main: RecordModel, state: DeleteState): void {
  const mainId = String(main.data.id);
  const refs = findReferences(ctx, main.collection.id)
    .filter((c) => c.type !== 'view')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const refCollection of refs) {
    for (const field of refCollection.schema) {
      if (!isRelationField(field) || field.options.collectionId !== main.collection.id) continue;
      const rows = ctx.records.referencing(refCollection, field.name, isMultiple(field), mainId);
      for (const row of rows) {
        const ref = recordFromRow(refCollection, row);
        const ids = stringsOf(ref.data[field.name]);
        const at = ids.indexOf(mainId);
        if (at >= 0) ids.splice(at, 1);
        if (field.options.cascadeDelete && ids.length === 0) {
          deleteInTx(ctx, ref, state);
          continue;
        }
        if (field.required && ids.length === 0) {
          throw new RequiredReferenceError(
            `The record cannot be deleted because it is part of a required reference in record ${ref.data.id} (${refCollection.name} collection).`,
          );
        }
        ref.data[field.name] = prepareValue(field, ids);
        ref.data.updated = formatPbDate(new Date());
        ctx.records.update(ref);
        state.updated.set(`${refCollection.id}/${ref.data.id}`, ref);
      }
    }
  }
}

/** Deletes `record` and cleans up its references; 400 when a required reference blocks it. */
export async function deleteRecord(ctx: AppContext, record: RecordModel): Promise<void> {
  const state: DeleteState = { deleted: [], updated: new Map(), afterCommit: [] };
  // (the records a cascade deletes or updates get their after hooks; their before hooks do not run)
  if (!(await beforeModelWrite(ctx, 'Delete', record, DELETE_FAILED))) return;
  try {
    ctx.transaction(() => deleteInTx(ctx, record, state));
  } catch (err) {
    throw new ApiError(400, DELETE_FAILED, {}, err instanceof Error ? err.message : String(err));
  }
  await removeRecordFiles(ctx, state.deleted);
  for (const r of state.updated.values()) emitRecordChange(ctx, { action: 'update', record: r });
  for (const r of state.deleted) emitRecordChange(ctx, { action: 'delete', record: r });
  runAfterCommit(state.afterCommit);
  await afterModelWrites(ctx, 'Delete', state.deleted, DELETE_FAILED);
  await afterModelWrites(ctx, 'Update', [...state.updated.values()], DELETE_FAILED);
}

/**
 * The delete and its cascade inside the caller's transaction (a JS migration's or a hook's
 * Dao.deleteRecord): returns the deleted records, whose files the caller removes once its
 * transaction committed.
 */
export function deleteRecordInTransaction(ctx: AppContext, record: RecordModel, afterCommit?: Array<() => void>): RecordModel[] {
  const state: DeleteState = { deleted: [], updated: new Map(), afterCommit: [] };
  try {
    deleteInTx(ctx, record, state);
  } catch (err) {
    if (err instanceof RequiredReferenceError) throw new Error(`${DELETE_FAILED} ${err.message}`);
    throw err;
  }
  // (the realtime work the delete announced: a hook's Dao runs it once committed; a migration drops it)
  afterCommit?.push(...state.afterCommit);
  return state.deleted;
}

/** Removes the stored files of records deleted earlier (after their transaction committed). */
export async function removeRecordFiles(ctx: AppContext, records: readonly RecordModel[]): Promise<void> {
  const storage = getStorage(ctx);
  for (const r of records) {
    await storage.removeRecord(r.collection.id, String(r.data.id)).catch((err) => {
      console.error('[records] failed to delete the files of', r.collection.name, r.data.id, err);
    });
  }
}

