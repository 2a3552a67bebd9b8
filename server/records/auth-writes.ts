// The writes of the record auth flows with 0.22's model hooks around them, as its dao.SaveRecord /
// SaveExternalAuth / DeleteExternalAuth fire them: onModelBeforeUpdate (may change the record
// further, or skip the write by returning false), the write, onModelAfterUpdate; the external
// auths (table `_externalAuths`, the hooks' tag) get onModel{Before,After}{Create,Delete} with
// e.model the link. A handler's error fails the flow with its message, as 0.22's forms do.
import type { AppContext } from '../context';
import { nowDateTime } from '../db/layout';
import { runModelHook } from '../hooks/model-hook';
import type { AuthRow } from './auth-store';
import type { ExternalAuthJson } from './auth-external';
import { afterModelWrites, beforeModelWrite } from './model-hooks';
import { recordFromRow, type RecordModel } from './model';
import { pendingRowOf } from './store';
import { newId } from '../services/passwords';
import { auditUnlink } from '../audit/changes';

/** The columns of `record` that differ from `base` (id and created never change here). */
function changedColumns(record: RecordModel, base: AuthRow): Array<[string, unknown]> {
  const before = pendingRowOf(recordFromRow(record.collection, base));
  const after = pendingRowOf(record);
  const old = new Map(before.columns.map((c, i) => [c, before.values[i]]));
  const out: Array<[string, unknown]> = [];
  after.columns.forEach((column, i) => {
    if (column === 'id' || column === 'created') return;
    if (JSON.stringify(after.values[i]) !== JSON.stringify(old.get(column))) out.push([column, after.values[i]]);
  });
  return out;
}

/**
 * Saves an auth record a flow changed (`record`, read as `base`): the model hooks around the write
 * of the changed columns (with `updated` refreshed), `inTransaction` run in the same transaction
 * (a check that throws undoes the write). Returns false when a before-handler skipped the write.
 */
export async function saveAuthRecord(
  ctx: AppContext,
  record: RecordModel,
  base: AuthRow,
  failMessage: string,
  inTransaction?: () => void,
): Promise<boolean> {
  record.data.updated = nowDateTime();
  if (!(await beforeModelWrite(ctx, 'Update', record, failMessage))) return false;
  const changes = changedColumns(record, base);
  const id = String(base.id);
  ctx.transaction(() => {
    inTransaction?.();
    ctx.records.updateColumns(record.collection, id, changes);
  });
  await afterModelWrites(ctx, 'Update', [record], failMessage);
  return true;
}


/** onModel<when><action> for an external auth link; false when a handler returned false. */
const externalAuthHook = async (ctx: AppContext, when: 'Before' | 'After', action: 'Create' | 'Delete', link: ExternalAuthJson, failMessage: string): Promise<boolean> =>
  (await runModelHook(ctx, `onModel${when}${action}`, '_externalAuths', { ...link }, failMessage)).proceed;

/** Links a provider identity to a record with the model hooks around the insert; null when a handler skipped it. */
export async function addExternalAuth(
  ctx: AppContext,
  link: { collectionId: string; recordId: string; provider: string; providerId: string },
  failMessage: string,
  inTransaction?: () => void,
): Promise<ExternalAuthJson | null> {
  const now = nowDateTime();
  const draft: ExternalAuthJson = { id: newId(), created: now, updated: now, ...link };
  if (!(await externalAuthHook(ctx, 'Before', 'Create', draft, failMessage))) return null;
  ctx.transaction(() => {
    inTransaction?.();
    ctx.externalAuths.add(draft.collectionId, draft.recordId, draft.provider, draft.providerId, draft.id);
  });
  await externalAuthHook(ctx, 'After', 'Create', draft, failMessage);
  return draft;
}

/** Removes a link with the model hooks around the delete; false when a handler skipped it. */
export async function deleteExternalAuth(ctx: AppContext, link: ExternalAuthJson, failMessage: string): Promise<boolean> {
  if (!(await externalAuthHook(ctx, 'Before', 'Delete', link, failMessage))) return false;
  ctx.transaction(() => {
    ctx.externalAuths.delete(link.id);
    auditUnlink(ctx, link);
  });
  await externalAuthHook(ctx, 'After', 'Delete', link, failMessage);
  return true;
}
