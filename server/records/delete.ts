// Record delete with 0.22's relation clean-up (daos/record.go DeleteRecord / cascadeRecordDelete):
// the record goes first, then every relation pointing at it loses the id; a field left empty
// with cascadeDelete deletes the referencing record (recursively), a required one refuses the
// whole delete, any other is saved shortened. All in one transaction; the deleted records' files
// and external auths go too.
// The model hooks: 0.22 fires each write's onModelBefore* inside its transaction, right before the
// write (an auth record's external auths, the record, then the cascade, depth first), and their
// onModelAfter* after the commit. A handler cannot run inside a synchronous transaction here, so
// when such handlers exist the delete first runs as a rehearsal that is rolled back, which gives
// the writes in 0.22's order (and where a required reference stops it); their before hooks run,
// then the delete runs for real, leaving out the writes a handler skipped (`return false`).
import type { AppContext } from '../context';
import { findReferences, getCollections } from '../collections/store';
import { isMultiple } from '../collections/normalize';
import { ApiError } from '../core/errors';
import { formatPbDate } from '../query/macros';
import { getStorage } from '../services/storage';
import { announceRecordDeleting, emitRecordChange, runAfterCommit } from './events';
import { afterModelWrites, beforeModelWrite } from './model-hooks';
import { runModelHook } from '../hooks/model-hook';
import type { ExternalAuthJson } from './auth-external';
import { recordFromRow, stringsOf, type RecordModel } from './model';
import { prepareValue } from '../../src/fields/record-values';
import { isRelationField } from '../../src/fields/relation/field';

const DELETE_FAILED = 'Failed to delete record. Make sure that the record is not part of a required relation reference.';

class RequiredReferenceError extends Error {}

/** One write of a delete, in 0.22's order. */
type Step = { action: 'Delete' | 'Update'; record: RecordModel } | { action: 'Delete'; link: ExternalAuthJson };

interface DeleteState {
  deleted: RecordModel[];
  updated: Map<string, RecordModel>;
  /** Work the deleting listeners left for after the commit (dropped when the delete fails). */
  afterCommit: Array<() => void>;
  /** The writes made, in order (for their model hooks). */
  steps?: Step[];
  /** Writes a before hook skipped (stepKey). */
  skip?: ReadonlySet<string>;
}

const stepKey = (step: Step) => ('link' in step ? `link/${step.link.id}` : `${step.action}/${step.record.collection.id}/${String(step.record.data.id)}`);

function deleteInTx(ctx: AppContext, record: RecordModel, state: DeleteState): void {
  const c = record.collection;
  const id = String(record.data.id);
  if (state.skip?.has(stepKey({ action: 'Delete', record }))) return;
  if (c.type === 'auth') {
    if (state.steps || state.skip?.size) {
      for (const link of ctx.externalAuths.list(c.id, id)) {
        const step: Step = { action: 'Delete', link };
        if (state.skip?.has(stepKey(step))) continue;
        ctx.externalAuths.delete(link.id);
        state.steps?.push(step);
      }
    } else ctx.externalAuths.deleteOf(c.id, id);
  }
  state.steps?.push({ action: 'Delete', record });
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
        if (state.skip?.has(stepKey({ action: 'Update', record: ref }))) continue;
        state.steps?.push({ action: 'Update', record: ref });
        ctx.records.update(ref);
        state.updated.set(`${refCollection.id}/${ref.data.id}`, ref);
      }
    }
  }
}

/** Deletes `record` and cleans up its references; 400 when a required reference blocks it. */
export async function deleteRecord(ctx: AppContext, record: RecordModel): Promise<void> {
  const state: DeleteState = { deleted: [], updated: new Map(), afterCommit: [] };
  const cascadeHooks = wantsCascadeHooks(ctx);
  if (cascadeHooks) {
    state.skip = await rehearse(ctx, record);
  } else if (!(await beforeModelWrite(ctx, 'Delete', record, DELETE_FAILED))) return;
  if (cascadeHooks) state.steps = [];
  try {
    ctx.transaction(() => deleteInTx(ctx, record, state));
  } catch (err) {
    throw new ApiError(400, DELETE_FAILED, {}, err instanceof Error ? err.message : String(err));
  }
  await removeRecordFiles(ctx, state.deleted);
  for (const r of state.updated.values()) emitRecordChange(ctx, { action: 'update', record: r });
  for (const r of state.deleted) emitRecordChange(ctx, { action: 'delete', record: r });
  runAfterCommit(state.afterCommit);
  if (state.steps) {
    for (const step of state.steps) await modelHook(ctx, 'After', step);
    return;
  }
  await afterModelWrites(ctx, 'Delete', state.deleted, DELETE_FAILED);
  await afterModelWrites(ctx, 'Update', [...state.updated.values()], DELETE_FAILED);
}

/** Whether any onModel* handler may run for a write of a delete (only then the rehearsal is paid). */
function wantsCascadeHooks(ctx: AppContext): boolean {
  const hooks = ctx.hooks;
  if (!hooks) return false;
  const tags = ['_externalAuths', ...getCollections(ctx).flatMap((c) => [c.id, c.name])];
  return ['onModelBeforeDelete', 'onModelBeforeUpdate', 'onModelAfterDelete', 'onModelAfterUpdate'].some((name) => hooks.has(name, tags));
}

/**
 * The delete rolled back: its writes in order, each given its before hook (as 0.22 does inside
 * its transaction, up to where a required reference stops it). Returns the writes a handler
 * skipped; a handler's error, or the required reference, fails the delete.
 */
async function rehearse(ctx: AppContext, record: RecordModel): Promise<Set<string>> {
  const steps: Step[] = [];
  let blocked: unknown = null;
  const rollback = new Error('rehearsal');
  try {
    ctx.transaction(() => {
      deleteInTx(ctx, record, { deleted: [], updated: new Map(), afterCommit: [], steps });
      throw rollback;
    });
  } catch (err) {
    if (err !== rollback) blocked = err;
  }
  const skip = new Set<string>();
  for (const step of steps) if (!(await modelHook(ctx, 'Before', step))) skip.add(stepKey(step));
  if (blocked) throw new ApiError(400, DELETE_FAILED, {}, blocked instanceof Error ? blocked.message : String(blocked));
  return skip;
}

/** A write's onModel<when><action>; false when a handler returned false. */
function modelHook(ctx: AppContext, when: 'Before' | 'After', step: Step): Promise<boolean> {
  if ('link' in step) return runModelHook(ctx, `onModel${when}Delete`, '_externalAuths', { ...step.link }, DELETE_FAILED).then((r) => r.proceed);
  if (when === 'Before') return beforeModelWrite(ctx, step.action, step.record, DELETE_FAILED);
  return afterModelWrites(ctx, step.action, [step.record], DELETE_FAILED).then(() => true);
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

