// The Dao's record methods (0.22's daos/record.go): finders, saveRecord and deleteRecord. As 0.22's
// Dao, saveRecord validates nothing (only the API's forms do): values are prepared as the API
// prepares them and written; the table's own constraints (unique indexes) still hold.
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import type { Collection as StoredCollection } from '../collections/model';
import { getCollections } from '../collections/store';
import { findRowById } from '../records/store';
import { recordFromRow, type RecordModel } from '../records/model';
import { deleteRecordInTransaction } from '../records/delete';
import { prepareValue } from '../../src/fields/record-values';
import { newId, newTokenKey, randomString } from '../services/passwords';
import { JsRecord } from './js-models';
import { createDbBuilder, templateOf } from './js-db';
import { fillRecords, recordSelect, wantsRecords, type BuiltQuery } from './js-select';
import { findRecordsByFilter, findRecordsByIds } from './js-finders';
import { unsupported } from './js-unsupported';
import { collectionOf, fail, NO_ROWS, toRecord } from './js-dao-shared';

type Row = Record<string, unknown>;

function authCollectionOf(ctx: AppContext, nameOrId: unknown): StoredCollection {
  let c: StoredCollection;
  try {
    c = collectionOf(ctx, nameOrId);
  } catch (err) {
    throw new Error(`failed to fetch auth collection ${JSON.stringify(String(nameOrId))} (${(err as Error).message})`);
  }
  if (c.type !== 'auth') throw new Error(`${JSON.stringify(String(nameOrId))} is not an auth collection`);
  return c;
}

function found(c: StoredCollection, row: Row | null): JsRecord {
  if (!row) throw new Error(NO_ROWS);
  return toRecord(recordFromRow(c, row));
}

/** IsRecordValueUnique: a username compares case-insensitively, as 0.22 compares it. */
function isValueUnique(ctx: AppContext, nameOrId: unknown, key: unknown, value: unknown, excludeIds: unknown[]): boolean {
  let c: StoredCollection;
  try {
    c = collectionOf(ctx, nameOrId);
  } catch {
    return false;
  }
  const column = String(key);
  const lower = c.type === 'auth' && column === 'username';
  const bound = lower ? String(value ?? '').toLowerCase() : Array.isArray(value) ? JSON.stringify(value) : value;
  const row = ctx.records.findBy(c, column, bound, lower);
  return !row || excludeIds.map(String).includes(String(row.id));
}

export function recordMethods(ctx: AppContext, raw: DB, deleted: RecordModel[], afterCommit?: Array<() => void>): Record<string, unknown> {
  return {
    findRecordById(collection: unknown, id: string, ...filters: unknown[]) {
      if (filters.length) unsupported('Dao.findRecordById with filter functions');
      const c = collectionOf(ctx, collection);
      return found(c, findRowById(ctx, c, String(id)));
    },
    findRecordsByIds: (collection: unknown, ids: unknown) => findRecordsByIds(raw, collectionOf(ctx, collection), ids).map(toRecord),
    findFirstRecordByData(collection: unknown, key: string, value: unknown) {
      const c = collectionOf(ctx, collection);
      return found(c, ctx.records.findBy(c, String(key), value));
    },
    findRecordsByFilter: (collection: unknown, filter: string, sort?: string, limit?: number, offset?: number, params?: unknown) =>
      findRecordsByFilter(ctx, raw, collectionOf(ctx, collection), filter, sort, Number(limit) || 0, Number(offset) || 0, params).map(toRecord),
    findRecordsByExpr: (collection: unknown, ...exprs: unknown[]) => findRecordsByExpr(ctx, raw, collectionOf(ctx, collection), exprs).map(toRecord),
    findFirstRecordByFilter(collection: unknown, filter: string, params?: unknown) {
      const [first] = findRecordsByFilter(ctx, raw, collectionOf(ctx, collection), filter, '', 1, 0, params);
      if (!first) throw new Error(NO_ROWS);
      return toRecord(first);
    },
    findAuthRecordByEmail(collection: unknown, email: unknown) {
      const c = authCollectionOf(ctx, collection);
      return found(c, ctx.records.findBy(c, 'email', String(email ?? '')));
    },
    findAuthRecordByUsername(collection: unknown, username: unknown) {
      const c = authCollectionOf(ctx, collection);
      return found(c, ctx.records.findBy(c, 'username', String(username ?? '').toLowerCase(), true));
    },
    isRecordValueUnique: (collection: unknown, key: unknown, value: unknown, ...excludeIds: unknown[]) => isValueUnique(ctx, collection, key, value, excludeIds),
    suggestUniqueAuthRecordUsername(collection: unknown, base: unknown, ...excludeIds: unknown[]) {
      let username = String(base ?? '');
      for (let i = 0; i < 10 && !isValueUnique(ctx, collection, 'username', username, excludeIds); i++) {
        username = String(base ?? '') + randomString(3 + i, '123456789');
      }
      return username;
    },
    recordQuery(collection: unknown) {
      let c: StoredCollection | null = null;
      try {
        c = collectionOf(ctx, collection);
      } catch {
        // 0.22 builds the query anyway and fails it when it runs
      }
      return recordSelect(c?.name ?? null, (op, q, target) => {
        if (!wantsRecords(target, templateOf(target))) return (createDbBuilder(ctx, raw).newQuery(q.sql) as { bind(p: Row): Record<typeof op, (t: unknown) => unknown> }).bind(q.params)[op](target);
        return fillRecords(op, selectRecords(ctx, raw, collection, q), target);
      });
    },
    saveRecord: (record: unknown) => saveRecord(ctx, record),
    deleteRecord(record: unknown) {
      deleted.push(...deleteRecord(ctx, record, afterCommit));
    },
  };
}

/** The records a recordQuery's SQL selects (0.22's "context canceled" when the collection is unknown). */
export function selectRecords(ctx: AppContext, raw: DB, collection: unknown, q: BuiltQuery): JsRecord[] {
  let c: StoredCollection;
  try {
    c = collectionOf(ctx, collection);
  } catch {
    throw new Error('context canceled');
  }
  const rows = (createDbBuilder(ctx, raw).newQuery(q.sql) as { bind(p: Row): { all(): Row[] } }).bind(q.params).all();
  return rows.map((row) => toRecord(recordFromRow(c, row)));
}

/** The columns a record writes: schema fields prepared as the API prepares them, then the system ones. */
function rowOf(collection: StoredCollection, value: JsRecord): Row {
  const input = value.data();
  const row: Row = {};
  for (const field of collection.schema) row[field.name] = prepareValue(field, input[field.name]);
  const now = nowDateTime();
  const isNew = value.isNew();
  row.id = String(input.id || (isNew ? newId() : ''));
  // 0.22 keeps a created date the record already has
  row.created = String(input.created || now);
  row.updated = now;
  if (collection.type === 'auth') {
    for (const k of JsRecord.authKeys) row[k] = input[k] ?? '';
    row.emailVisibility = input.emailVisibility === true;
    row.verified = input.verified === true;
    // (0.22's Dao refuses a record without username; the API's form would make one up, as here)
    if (!row.username) row.username = collection.name + randomString(5, '123456789');
    if (!row.tokenKey) row.tokenKey = newTokenKey();
  }
  return row;
}

/** Dao.saveRecord: no field validation (0.22's Dao has none); auth ids unique across auth collections, as 0.22 checks. */
function saveRecord(ctx: AppContext, value: unknown): void {
  if (!(value instanceof JsRecord)) throw new Error('saveRecord expects a Record');
  const model = value.collection();
  if (!model) throw new Error('saveRecord: the record has no collection');
  const collection = collectionOf(ctx, model);
  if (collection.type === 'view') throw new Error(`saveRecord: "${collection.name}" is a view collection`);
  const row = rowOf(collection, value);
  if (collection.type === 'auth') {
    const clash = getCollections(ctx).some((c) => c.type === 'auth' && c.id !== collection.id && ctx.records.hasId(c, String(row.id)));
    if (clash) throw new Error('the auth record ID must be unique across all auth collections');
  }
  const record: RecordModel = { collection, data: row };
  try {
    if (value.isNew()) ctx.records.insert(record);
    else ctx.records.update(record);
  } catch (err) {
    throw fail(`saveRecord(${collection.name})`, err);
  }
  value.load({ id: row.id, created: row.created, updated: row.updated, username: row.username, tokenKey: row.tokenKey });
  value.markAsNotNew();
}

/** Dao.deleteRecord: the API's delete with 0.22's cascade, in the run's transaction; returns the records deleted. */
function deleteRecord(ctx: AppContext, value: unknown, afterCommit?: Array<() => void>): RecordModel[] {
  if (!(value instanceof JsRecord)) throw new Error('deleteRecord expects a Record');
  const collection = collectionOf(ctx, value.collection()?.id ?? '');
  const row = findRowById(ctx, collection, value.id);
  if (!row) throw new Error(NO_ROWS);
  return deleteRecordInTransaction(ctx, recordFromRow(collection, row), afterCommit);
}

/** A $dbx expression as it reaches the Dao: its dbx SQL and the values its `{:name}` placeholders take. */
function expressionOf(value: unknown): { sql: string; params: Row } | null {
  if (value === null || value === undefined) return null;
  const e = value as { sql?: unknown; params?: unknown; build?: unknown };
  if (typeof e.sql === 'string') return { sql: e.sql, params: e.params && typeof e.params === 'object' ? (e.params as Row) : {} };
  if (typeof e.build === 'function') {
    const params: Row = {};
    return { sql: String((e.build as (db: unknown, p: Row) => unknown)(null, params)), params };
  }
  throw new Error('findRecordsByExpr expects $dbx expressions');
}

/**
 * Dao.findRecordsByExpr: 0.22's RecordQuery (`SELECT {{table}}.* FROM {{table}}`) with each
 * expression ANDed in; the values stay bound parameters (js-db's dbx dialect), never SQL text.
 */
function findRecordsByExpr(ctx: AppContext, raw: DB, collection: StoredCollection, exprs: unknown[]): RecordModel[] {
  const params: Row = {};
  const where: string[] = [];
  for (const value of exprs) {
    const e = expressionOf(value);
    if (!e || !e.sql) continue;
    Object.assign(params, e.params);
    where.push(e.sql);
  }
  const table = `{{${collection.name}}}`;
  const condition = where.length === 1 ? ` WHERE ${where[0]}` : where.length ? ` WHERE (${where.join(') AND (')})` : '';
  const query = createDbBuilder(ctx, raw).newQuery(`SELECT ${table}.* FROM ${table}${condition}`) as { bind(p: Row): { all(): Row[] } };
  return query.bind(params).all().map((row) => recordFromRow(collection, row));
}
