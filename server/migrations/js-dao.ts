// `Dao(db)` / `new Dao(db)` and `db.newQuery(...)` of 0.22's JS migrations, over the server's own
// domain services (the same validation as the API), all inside the runner's transaction. A Dao or
// db method Outpost does not offer fails the migration with a message naming it (./js-unsupported.ts).
import type { AppContext } from '../context';
import { ApiError } from '../core/errors';
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { saveCollection, deleteCollection } from '../collections/service';
import { importCollections } from '../collections/import';
import { findCollection, getCollections } from '../collections/store';
import { collectionJson } from '../collections/normalize';
import type { Collection as StoredCollection } from '../collections/model';
import { findRowById } from '../records/store';
import { recordFromRow, type RecordModel } from '../records/model';
import { deleteRecordInTransaction } from '../records/delete';
import { validateRecordData } from '../records/validate';
import { prepareValue } from '../../src/fields/record-values';
import type { AdminRow } from '../services/admins';
import { newId, newTokenKey, randomString } from '../services/passwords';
import { validateSettings } from '../services/settings-validate';
import type { Settings } from '../services/settings';
import { Admin, Collection, JsRecord } from './js-models';
import { createDbBuilder, type DbBuilder } from './js-db';
import { findRecordsByFilter, findRecordsByIds } from './js-finders';
import { strict, type CallLog } from './js-unsupported';

const NO_ROWS = 'sql: no rows in result set';

/** An API error as one line: its message and its field errors. */
function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const data = err.data && Object.keys(err.data).length ? ` ${JSON.stringify(err.data)}` : '';
    const details = err.details ? ` (${typeof err.details === 'string' ? err.details : JSON.stringify(err.details)})` : '';
    return `${err.message}${data}${details}`;
  }
  return err instanceof Error ? err.message : String(err);
}

const fail = (what: string, err: unknown): Error => new Error(`${what}: ${describeError(err)}`);

function toCollection(c: StoredCollection): Collection {
  const out = new Collection(collectionJson(c));
  out.markAsNotNew();
  return out;
}

function toRecord(model: RecordModel): JsRecord {
  const r = new JsRecord(toCollection(model.collection), model.data);
  r.markAsNotNew();
  return r;
}

function collectionOf(ctx: AppContext, nameOrId: unknown): StoredCollection {
  const key = nameOrId instanceof Collection ? nameOrId.id : String(nameOrId ?? '');
  const c = findCollection(ctx, key);
  if (!c) throw new Error(NO_ROWS);
  return c;
}

export interface Dao {
  [key: string]: unknown;
}

export function createDao(ctx: AppContext, raw: DB, log: CallLog, deleted: RecordModel[] = []): Dao {
  const db: DbBuilder = createDbBuilder(ctx, raw, log);
  const dao: Dao = {
    db: () => db,
    concurrentDB: () => db,
    nonconcurrentDB: () => db,
    runInTransaction: (fn: (tx: Dao) => unknown) => ctx.transaction(() => fn(proxy)),

    findCollectionByNameOrId: (nameOrId: string) => toCollection(collectionOf(ctx, nameOrId)),
    findCollectionsByType: (type: string) => getCollections(ctx).filter((c) => c.type === type).map(toCollection),
    isCollectionNameUnique: (name: string, ...excludeIds: string[]) =>
      !getCollections(ctx).some((c) => c.name.toLowerCase() === String(name).toLowerCase() && !excludeIds.includes(c.id)),
    saveCollection(c: unknown) {
      if (!(c instanceof Collection)) throw new Error('saveCollection expects a Collection');
      let saved: StoredCollection;
      try {
        saved = saveCollection(ctx, c.toJSON(), c.isNew() ? null : c.id);
      } catch (err) {
        throw fail(`saveCollection(${JSON.stringify(c.name)})`, err);
      }
      c.load(collectionJson(saved));
      c.markAsNotNew();
    },
    deleteCollection(c: unknown) {
      const target = collectionOf(ctx, c);
      try {
        deleteCollection(ctx, target.id);
      } catch (err) {
        throw fail(`deleteCollection(${JSON.stringify(target.name)})`, err);
      }
    },
    importCollections(list: unknown, deleteMissing: unknown, afterSync: unknown) {
      if (typeof afterSync === 'function') log.unsupported('Dao.importCollections with an afterSync callback');
      const items = Array.isArray(list) ? list.map((c) => (c instanceof Collection ? c.toJSON() : c)) : [];
      try {
        importCollections(ctx, { collections: items, deleteMissing: deleteMissing === true });
      } catch (err) {
        throw fail('importCollections', err);
      }
    },

    findRecordById(collection: unknown, id: string, ...filters: unknown[]) {
      if (filters.length) log.unsupported('Dao.findRecordById with filter functions');
      const c = collectionOf(ctx, collection);
      const row = findRowById(ctx, c, String(id));
      if (!row) throw new Error(NO_ROWS);
      return toRecord(recordFromRow(c, row));
    },
    findFirstRecordByData(collection: unknown, key: string, value: unknown) {
      const c = collectionOf(ctx, collection);
      const row = ctx.records.findBy(c, String(key), value);
      if (!row) throw new Error(NO_ROWS);
      return toRecord(recordFromRow(c, row));
    },
    findRecordsByFilter: (collection: unknown, filter: string, sort?: string, limit?: number, offset?: number, params?: unknown) =>
      findRecordsByFilter(ctx, raw, collectionOf(ctx, collection), filter, sort, Number(limit) || 0, Number(offset) || 0, params).map(toRecord),
    findFirstRecordByFilter(collection: unknown, filter: string, params?: unknown) {
      const [first] = findRecordsByFilter(ctx, raw, collectionOf(ctx, collection), filter, '', 1, 0, params);
      if (!first) throw new Error(NO_ROWS);
      return toRecord(first);
    },
    findRecordsByIds: (collection: unknown, ids: unknown) => findRecordsByIds(raw, collectionOf(ctx, collection), ids).map(toRecord),
    saveRecord: (record: unknown) => saveRecord(ctx, record),
    deleteRecord(record: unknown) {
      deleted.push(...deleteRecord(ctx, record));
    },

    findSettings: () => JSON.parse(JSON.stringify(ctx.settings.get())) as Settings,
    saveSettings(next: unknown) {
      const settings = JSON.parse(JSON.stringify(next)) as Settings;
      const errors = validateSettings(settings);
      if (Object.keys(errors).length) throw new Error(`saveSettings: ${JSON.stringify(errors)}`);
      ctx.settings.save(settings);
    },

    findAdminByEmail(email: string) {
      const row = ctx.admins.findByEmail(String(email));
      if (!row) throw new Error(NO_ROWS);
      return adminOf(row);
    },
    findAdminById(id: string) {
      const row = ctx.admins.findById(String(id));
      if (!row) throw new Error(NO_ROWS);
      return adminOf(row);
    },
    totalAdmins: () => ctx.admins.count(),
    saveAdmin: (admin: unknown) => saveAdmin(ctx, admin),
    deleteAdmin(admin: unknown) {
      if (!(admin instanceof Admin)) throw new Error('deleteAdmin expects an Admin');
      if (ctx.admins.count() <= 1) throw new Error('You cannot delete the only existing admin.');
      ctx.admins.delete(admin.id);
    },
  };
  const proxy = strict('Dao', dao, log);
  return proxy;
}

function adminOf(row: object): Admin {
  const a = new Admin(row);
  Object.assign(a, { tokenKey: (row as Admin).tokenKey, passwordHash: (row as Admin).passwordHash, lastResetSentAt: (row as Admin).lastResetSentAt });
  a.markAsNotNew();
  return a;
}

const adminRow = (admin: Admin, email: string): AdminRow => ({
  id: admin.id,
  avatar: admin.avatar,
  email,
  tokenKey: admin.tokenKey,
  passwordHash: admin.passwordHash,
  lastResetSentAt: admin.lastResetSentAt,
  created: admin.created,
  updated: admin.updated,
});

function saveAdmin(ctx: AppContext, admin: unknown): void {
  if (!(admin instanceof Admin)) throw new Error('saveAdmin expects an Admin');
  const email = admin.email.trim();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error(`saveAdmin: "${email}" is not a valid email address`);
  if (!admin.passwordHash) throw new Error('saveAdmin: the admin has no password (call admin.setPassword first)');
  const now = nowDateTime();
  if (!admin.tokenKey) admin.tokenKey = newTokenKey();
  try {
    if (admin.isNew()) {
      admin.id ||= newId();
      admin.created = now;
      admin.updated = now;
      ctx.admins.insert(adminRow(admin, email));
    } else {
      admin.updated = now;
      ctx.admins.update(adminRow(admin, email));
    }
  } catch (err) {
    throw fail(`saveAdmin(${JSON.stringify(email)})`, err);
  }
  admin.markAsNotNew();
}

/**
 * Dao.saveRecord: the record's values prepared as the API prepares them and its schema fields
 * checked by the API's field validation (0.22's Dao checks none), then inserted or updated.
 */
function saveRecord(ctx: AppContext, value: unknown): void {
  if (!(value instanceof JsRecord)) throw new Error('saveRecord expects a Record');
  const model = value.collection();
  if (!model) throw new Error('saveRecord: the record has no collection');
  const collection = collectionOf(ctx, model.id || model.name);
  if (collection.type === 'view') throw new Error(`saveRecord: "${collection.name}" is a view collection`);
  const input = value.data();
  const data: Record<string, unknown> = {};
  for (const field of collection.schema) data[field.name] = prepareValue(field, input[field.name]);
  const errors = validateRecordData(ctx, collection, data, new Map());
  if (Object.keys(errors).length) throw new Error(`saveRecord(${collection.name}): ${JSON.stringify(errors)}`);

  const now = nowDateTime();
  const isNew = value.isNew();
  const row: Record<string, unknown> = { ...data, id: String(input.id || (isNew ? newId() : '')), created: isNew ? now : String(input.created ?? now), updated: now };
  if (collection.type === 'auth') {
    for (const k of JsRecord.authKeys) row[k] = input[k] ?? '';
    row.emailVisibility = input.emailVisibility === true;
    row.verified = input.verified === true;
    if (!row.username) row.username = collection.name + randomString(5, '123456789');
    if (!row.tokenKey) row.tokenKey = newTokenKey();
    if (!row.passwordHash) throw new Error(`saveRecord(${collection.name}): an auth record needs a password (record.setPassword)`);
  }
  const record: RecordModel = { collection, data: row };
  try {
    if (isNew) ctx.records.insert(record);
    else ctx.records.update(record);
  } catch (err) {
    throw fail(`saveRecord(${collection.name})`, err);
  }
  value.load({ id: row.id, created: row.created, updated: row.updated, username: row.username, tokenKey: row.tokenKey });
  value.markAsNotNew();
}

/** Dao.deleteRecord: the API's delete with 0.22's cascade, in the run's transaction; returns the records deleted. */
function deleteRecord(ctx: AppContext, value: unknown): RecordModel[] {
  if (!(value instanceof JsRecord)) throw new Error('deleteRecord expects a Record');
  const collection = collectionOf(ctx, value.collection()?.id ?? '');
  const row = findRowById(ctx, collection, value.id);
  if (!row) throw new Error(NO_ROWS);
  return deleteRecordInTransaction(ctx, recordFromRow(collection, row));
}
