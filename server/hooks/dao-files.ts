// `$app.dao().saveRecord(record)` of a record whose file fields hold `$filesystem` files
// (./hook-file.ts): the files are stored as an API upload stores them (records/upsert.ts: under
// storage/<collection>/<record>/ with the name the file was given, its content type sniffed from
// the bytes), the field keeps their names, and the files a single-file field held before are
// deleted once the save succeeded. Outside a transaction the files are written first and removed
// again when the save fails; inside a hook's runInTransaction (which cannot wait for the disk)
// they are written once it commits, and never when it rolls back.
// (0.22's own Dao stores no file set this way: it casts the value to a name. 0.22's way is
// RecordUpsertForm.addFiles, which ./forms-rpc.ts serves; 0.23's Dao stores them as here.)
import type { AppContext } from '../context';
import { findCollection } from '../collections/store';
import { JsRecord } from '../migrations/js-models';
import { NO_ROWS } from '../migrations/js-dao-shared';
import { findRowById } from '../records/store';
import { recordFromRow } from '../records/model';
import { sniffContentType } from '../records/files';
import { newId } from '../services/passwords';
import { getStorage } from '../services/storage';
import { fieldDefinition } from '../../src/fields/registry';
import { toUniqueStrings } from '../../src/fields/shared/casts';
import { prepareValue } from '../../src/fields/record-values';
import type { HookDao } from './dao-writes';
import type { Ask } from './dao-model-hooks';
import { isHookFile, type HookFile } from './hook-file';

/** Stores `files` under the record; on a failure the ones stored are removed and the error thrown. */
async function storeFiles(ctx: AppContext, collectionId: string, recordId: string, files: HookFile[]): Promise<Array<() => Promise<void>>> {
  const storage = getStorage(ctx);
  const undo: Array<() => Promise<void>> = [];
  try {
    for (const f of files) {
      const data = Buffer.from(f.bytes);
      await storage.save(collectionId, recordId, f.name, data, (await sniffContentType(data)).mime, f.originalName);
      undo.push(() => storage.remove(collectionId, recordId, f.name));
    }
  } catch (err) {
    for (const u of undo) await u().catch(() => undefined);
    throw err;
  }
  return undo;
}

/** Removes files a record no longer names (a failure is only logged: the record is saved). */
async function removeFiles(ctx: AppContext, collectionId: string, recordId: string, names: string[]): Promise<void> {
  const storage = getStorage(ctx);
  for (const name of names) await storage.remove(collectionId, recordId, name).catch((err: unknown) => console.error('[pb_hooks] failed to delete file', name, err));
}

/**
 * Dao.saveRecord / Dao.save of `args[0]` (a record holding files) through `dao` (its model hooks
 * through `ask`): a promise outside a transaction; inside one, the save's value (its files stored
 * at the commit).
 */
export function saveRecordWithFiles(ctx: AppContext, dao: HookDao, method: string, args: unknown[], inTransaction: boolean, ask: Ask): unknown {
  const record = args[0];
  if (!(record instanceof JsRecord)) throw new Error(`${method} expects a Record`);
  const ref = record.collection()?.id || record.collection()?.name || '';
  const collection = findCollection(ctx, ref);
  if (!collection) throw new Error(NO_ROWS);
  // the files' folder is the record's: a new record gets its id now
  if (!record.id) record.setId(newId());
  const row = record.isNew() ? null : findRowById(ctx, collection, record.id);
  const previous = row ? recordFromRow(collection, row).data : null;
  const uploads: HookFile[] = [];
  const replaced: string[] = [];
  for (const field of collection.schema) {
    if (!fieldDefinition(field.type).uploads) continue;
    const value = record.get(field.name);
    const list = Array.isArray(value) ? value : [value];
    if (!list.some(isHookFile)) continue;
    const files = list.filter(isHookFile);
    uploads.push(...files);
    const names = list.map((v) => (isHookFile(v) ? v.name : String(v ?? ''))).filter((n) => n !== '');
    // (a single-file field keeps the last one, as 0.22's PrepareValue does)
    const kept = toUniqueStrings(prepareValue(field, names));
    record.set(field.name, prepareValue(field, names));
    if (previous) replaced.push(...toUniqueStrings(previous[field.name]).filter((n) => !kept.includes(n)));
  }
  const recordId = record.id;
  if (inTransaction) {
    const value = dao.call(method, args, true, ask);
    dao.later(() => {
      void storeFiles(ctx, collection.id, recordId, uploads).then(
        () => removeFiles(ctx, collection.id, recordId, replaced),
        (err: unknown) => console.error(`[pb_hooks] the files of ${collection.name} record ${recordId} could not be stored after the commit:`, err),
      );
    }, true);
    return value;
  }
  return (async () => {
    const undo = await storeFiles(ctx, collection.id, recordId, uploads);
    let value: unknown;
    try {
      value = await dao.call(method, args, false, ask);
    } catch (err) {
      for (const u of undo) await u().catch(() => undefined);
      throw err;
    }
    await removeFiles(ctx, collection.id, recordId, replaced);
    return value;
  })();
}
