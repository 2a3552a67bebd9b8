// 0.22's dao.SaveAdmin / DeleteAdmin with the model hooks they fire (tag `_admins`, e.model the
// admin with its secret columns): onModelBefore{Create,Update,Delete} (what a handler changes in
// e.model is written; false skips the write and the flow goes on as if it was made, as 0.22's
// Dao does), the write, onModelAfter*. A handler's error fails the write with the flow's message
// (0.22's forms wrap it so); an after-delete handler's error is only logged (0.22's Dao.Delete
// ignores it).
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import { ApiError, badRequest } from '../core/errors';
import { adminEventWire, adminRowFromWire } from '../hooks/admin-wire';
import { runModelHook } from '../hooks/model-hook';
import type { AdminRow } from './admins';
import { newId } from './passwords';
import { logBackgroundError } from './request-log';

/**
 * Inserts (`isNew`) or updates `admin`, its id and dates set first as 0.22's Dao sets them;
 * `inTransaction` runs in the write's transaction with the row to write (a check that throws
 * undoes it). Returns the
 * admin as written.
 */
export async function saveAdmin(ctx: AppContext, admin: AdminRow, isNew: boolean, failMessage: string, inTransaction?: (row: AdminRow) => void): Promise<AdminRow> {
  const now = nowDateTime();
  let row: AdminRow = { ...admin, id: admin.id || newId(), created: admin.created || now, updated: isNew ? admin.updated || now : now };
  const action = isNew ? 'Create' : 'Update';
  const before = await runModelHook(ctx, `onModelBefore${action}`, '_admins', adminEventWire(row, isNew), failMessage);
  if (!before.proceed) return row;
  const changed = adminRowFromWire(before.model);
  // an update stays on its row whatever a handler did to the id
  if (changed) row = { ...changed, id: isNew ? changed.id || row.id : row.id, created: changed.created || row.created };
  try {
    ctx.transaction(() => {
      inTransaction?.(row);
      if (isNew) ctx.admins.insert(row);
      else ctx.admins.update(row);
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // e.g. an email a handler set that another admin has (the unique index)
    throw badRequest(failMessage, {}, err instanceof Error ? err.message : String(err));
  }
  await runModelHook(ctx, `onModelAfter${action}`, '_admins', adminEventWire(row), failMessage);
  return row;
}

/** Deletes `admin` (the caller checked it is not the last one; `inTransaction` checks again). */
export async function deleteAdmin(ctx: AppContext, admin: AdminRow, failMessage: string, inTransaction?: () => void): Promise<void> {
  if (!(await runModelHook(ctx, 'onModelBeforeDelete', '_admins', adminEventWire(admin), failMessage)).proceed) return;
  ctx.transaction(() => {
    inTransaction?.();
    ctx.admins.delete(admin.id);
  });
  try {
    await runModelHook(ctx, 'onModelAfterDelete', '_admins', adminEventWire(admin), failMessage);
  } catch (err) {
    logBackgroundError(ctx, 'onModelAfterDelete failed after an admin was deleted', err, { type: 'hooks' });
  }
}
