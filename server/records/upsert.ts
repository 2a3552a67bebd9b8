// Record create/update as 0.22's forms.RecordUpsert saves it: the form (./upsert-form.ts) loads and
// validates the submitted data, then the record is saved in a transaction; unique index failures
// come back as field errors. Uploaded files are written before the commit and removed again if it
// fails; replaced files are deleted after it.
import { clusterWrite } from '../cluster/write-turn';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { getCollections } from '../collections/store';
import { QueryTimeoutError } from '../db/database';
import { ApiError, badRequest } from '../core/errors';
import type { RequestInfo } from '../query/record-resolver';
import { isOutOfSpace, noteOutOfSpace, noteWriteSucceeded } from '../services/disk-space';
import { getStorage } from '../services/storage';
import { emitRecordChange } from './events';
import { afterModelWrites, beforeModelWrite } from './model-hooks';
import { recordFromRow, type RecordModel } from './model';
import { compileRule, manageRuleCondition } from './rules';
import { findRowById, pendingRowOf, rowByIdQuery } from './store';
import { LOAD_FAILED, LoadError, newRecordModel, RecordForm } from './upsert-form';
import { sentenize, type FieldErrors, type UploadedFile } from './validate';
import { fieldDefinition } from '../../src/fields/registry';
import { toUniqueStrings } from '../../src/fields/shared/casts';
import type { RecordData } from '../../src/fields/record-values';

export const CREATE_FAILED = 'Failed to create record.';
export const UPDATE_FAILED = 'Failed to update record.';

/** prepareError: UNIQUE constraint failures on schema fields → validation_not_unique. */
function uniqueErrors(collection: Collection, error: unknown): FieldErrors | null {
  const msg = String(error instanceof Error ? error.message : error).toLowerCase();
  if (!msg.includes('unique constraint failed')) return null;
  const text = msg.trim().replace(/,/g, ' ') + ' ';
  const errors: FieldErrors = {};
  for (const f of collection.schema) {
    if (text.includes(`${collection.name}.${f.name}`.toLowerCase() + ' ')) {
      errors[f.name] = { code: 'validation_not_unique', message: sentenize('Value must be unique') };
    }
  }
  return Object.keys(errors).length ? errors : null;
}

const failed = (message: string, data: FieldErrors = {}, details?: unknown) => new ApiError(400, message, data, details);

class DryRunDone extends Error {}

export interface UpsertInput {
  data: RecordData;
  uploads: Map<string, UploadedFile[]>;
  info: RequestInfo;
  /**
   * Runs once the record is validated and filled, before it is saved (0.22's before-request
   * hooks run there; their changes are not validated again). false: the save is skipped and
   * SaveStopped thrown.
   */
  beforeSave?: (record: RecordModel) => Promise<boolean>;
}

/** A beforeSave said no: nothing was saved (the caller answers as the hook decided). */
export class SaveStopped extends Error {}

/**
 * The create-rule check of 0.22: the record must be insertable (a dry-run INSERT in a write
 * transaction that is always rolled back: unique and id errors come first, as in 0.22) and then
 * found under the rule as if inserted. The rule runs on the read pool, under the request budget,
 * against the committed data plus the pending row, so a hostile rule never holds the writer.
 * Returns whether the caller may manage the new record (auth manageRule), or throws the 400.
 */
async function checkCreateRule(ctx: AppContext, collection: Collection, input: UpsertInput): Promise<boolean> {
  const rule = collection.createRule ?? '';
  const form = new RecordForm(newRecordModel(collection), true);
  form.manageAccess = true;
  try {
    form.load(input.data, input.uploads);
  } catch (err) {
    if (err instanceof LoadError) throw failed(LOAD_FAILED, err.errors);
    throw err;
  }
  form.verified = false;
  const errors = await form.validate(ctx);
  if (Object.keys(errors).length) throw failed(CREATE_FAILED, errors);
  const record = await form.fill(ctx);
  await dryRunInsert(ctx, record);

  const id = String(record.data.id);
  const manageCond = manageRuleCondition(ctx, record, input.info);
  // an empty rule finds the pending row by its id: nothing to ask the read pool (the common
  // public create; it cost a temp table and a round trip to a read process)
  if (rule === '' && !manageCond) return false;
  let found: unknown[];
  try {
    const queries = [rowByIdQuery(collection, id, rule === '' ? null : compileRule(ctx, collection, rule, input.info, true))];
    if (manageCond) queries.push(rowByIdQuery(collection, id, manageCond));
    found = await ctx.reads.batch(queries, { pending: pendingRowOf(record) });
  } catch (err) {
    if (err instanceof QueryTimeoutError) throw err;
    throw failed(CREATE_FAILED, {}, String(err));
  }
  if (!found[0]) throw failed(CREATE_FAILED, {}, 'create rule failure');
  return Boolean(found[1]);
}

/**
 * Inserts `record` in a write transaction that is always rolled back (its errors as 0.22 words
 * them). It takes the write lock as a save does, so in a cluster it waits for it as a save does.
 */
async function dryRunInsert(ctx: AppContext, record: RecordModel): Promise<void> {
  try {
    await clusterWrite(ctx.options.cluster, ctx, () => {
      saveAuthIdCheck(ctx, record);
      ctx.records.insert(record);
      throw new DryRunDone();
    });
  } catch (err) {
    if (err instanceof DryRunDone) return;
    if (err instanceof ApiError) throw err;
    throw failed(CREATE_FAILED, uniqueErrors(record.collection, err) ?? {}, String(err));
  }
}

async function writeUploads(ctx: AppContext, record: RecordModel, form: RecordForm, message: string): Promise<Array<() => Promise<void>>> {
  const storage = getStorage(ctx);
  const undo: Array<() => Promise<void>> = [];
  const collectionId = record.collection.id;
  const recordId = String(record.data.id);
  try {
    for (const files of form.filesToUpload.values()) {
      for (const f of files) {
        await storage.save(collectionId, recordId, f.name, f.data, f.contentType, f.originalName);
        undo.push(() => storage.remove(collectionId, recordId, f.name));
      }
    }
  } catch (err) {
    for (const u of undo) await u().catch(() => undefined);
    if (!isOutOfSpace(err)) {
      // (an S3 storage that refuses or does not answer): 0.22's form fails the save
      console.error(`[records] failed to store the files of ${record.collection.name} ${recordId}:`, err instanceof Error ? err.message : err);
      throw failed(message, {}, String(err));
    }
    noteOutOfSpace(ctx, 'record files', err);
    throw badRequest('Not enough disk space to store the file.', {}, String(err));
  }
  if (undo.length) noteWriteSucceeded(ctx);
  return undo;
}

async function deleteOldFiles(ctx: AppContext, record: RecordModel, names: string[]): Promise<void> {
  const storage = getStorage(ctx);
  const kept = new Set(
    record.collection.schema.filter((f) => fieldDefinition(f.type).uploads).flatMap((f) => toUniqueStrings(record.data[f.name])),
  );
  for (const name of new Set(names)) {
    if (kept.has(name)) continue;
    await storage.remove(record.collection.id, String(record.data.id), name).catch((err) => {
      console.error('[records] failed to delete file', name, err);
    });
  }
}

/** POST /records: returns the saved record (read back from the table). */
export async function createRecord(ctx: AppContext, collection: Collection, input: UpsertInput): Promise<RecordModel> {
  let manage = input.info.isAdmin;
  if (!input.info.isAdmin && collection.createRule !== null) manage = await checkCreateRule(ctx, collection, input);

  const form = new RecordForm(newRecordModel(collection), true);
  form.manageAccess = manage;
  return loadAndSave(ctx, form, input, 'create');
}

/** PATCH /records/:id on an already authorised record. */
export async function updateExistingRecord(
  ctx: AppContext,
  existing: RecordModel,
  input: UpsertInput,
  manageAccess: boolean,
): Promise<RecordModel> {
  const form = new RecordForm(existing, false);
  form.manageAccess = manageAccess;
  return loadAndSave(ctx, form, input, 'update');
}

/** Binds the request into the form, validates it (a failure names the action), fills and saves the record. */
async function loadAndSave(ctx: AppContext, form: RecordForm, input: UpsertInput, action: 'create' | 'update'): Promise<RecordModel> {
  try {
    form.load(input.data, input.uploads);
  } catch (err) {
    if (err instanceof LoadError) throw failed(LOAD_FAILED, err.errors);
    throw err;
  }
  const errors = await form.validate(ctx);
  if (Object.keys(errors).length) throw failed(action === 'create' ? CREATE_FAILED : UPDATE_FAILED, errors);
  const record = await form.fill(ctx);
  if (input.beforeSave && !(await input.beforeSave(record))) throw new SaveStopped();
  return save(ctx, form, record, action);
}

/**
 * A record form hook code filled (`RecordUpsertForm` of pb_hooks): validated as the API validates
 * it; with `persist`, filled and saved as the API saves it (model hooks, files, realtime), and the
 * saved record returned. No request hooks and no rules: 0.22's form has neither.
 */
export async function submitRecordForm(ctx: AppContext, form: RecordForm, persist: boolean): Promise<RecordModel | null> {
  const action = form.isNew ? 'create' : 'update';
  const errors = await form.validate(ctx);
  if (Object.keys(errors).length) throw failed(action === 'create' ? CREATE_FAILED : UPDATE_FAILED, errors);
  if (!persist) return null;
  return save(ctx, form, await form.fill(ctx), action);
}

async function save(ctx: AppContext, form: RecordForm, record: RecordModel, action: 'create' | 'update'): Promise<RecordModel> {
  const message = action === 'create' ? CREATE_FAILED : UPDATE_FAILED;
  const verb = action === 'create' ? 'Create' : 'Update';
  // 0.22's SaveRecord checks the auth id ahead of the model hooks (and the insert checks it again)
  if (action === 'create') saveAuthIdCheck(ctx, record);
  // a model hook's false skips the write (0.22's StopPropagation): the record is answered unsaved
  if (!(await beforeModelWrite(ctx, verb, record, message))) return record;
  const undo = await writeUploads(ctx, record, form, message);
  let saved: RecordModel;
  try {
    // in a cluster, without holding the event loop while another member writes (server/cluster/write-turn.ts)
    saved = await clusterWrite(ctx.options.cluster, ctx, () => {
      if (action === 'create') {
        saveAuthIdCheck(ctx, record);
        ctx.records.insert(record);
      }
      else ctx.records.update(record, String(form.record.data.id));
      const row = findRowById(ctx, record.collection, String(record.data.id));
      if (!row) throw new Error('the saved record could not be read back');
      return recordFromRow(record.collection, row);
    });
  } catch (err) {
    for (const u of undo) await u().catch(() => undefined);
    if (isOutOfSpace(err)) noteOutOfSpace(ctx, 'data.db', err);
    const unique = uniqueErrors(record.collection, err);
    if (unique) throw failed(message, unique);
    throw failed(message, {}, String(err));
  }
  await deleteOldFiles(ctx, saved, form.filesToDelete);
  emitRecordChange(ctx, { action, record: saved });
  await afterModelWrites(ctx, verb, [saved], message);
  return saved;
}

/**
 * 0.22's SaveRecord cross-check: an auth record id must be unique across every auth collection
 * (so `@request.auth.id` names one record). Like 0.22 it is a save failure, not a field error:
 * 400 'Failed to create record.' with empty data.
 */
function saveAuthIdCheck(ctx: AppContext, record: RecordModel): void {
  if (record.collection.type !== 'auth') return;
  for (const c of getCollections(ctx)) {
    if (c.type !== 'auth' || c.id === record.collection.id) continue;
    if (ctx.records.hasId(c, String(record.data.id))) {
      throw new ApiError(400, CREATE_FAILED, {}, 'the auth record ID must be unique across all auth collections');
    }
  }
}
