// The records' tables: every statement the write connection runs on a collection's table (by id,
// optionally under a rule condition; by many ids; the INSERT/UPDATE of a normalised record; the
// auth flows' look-ups and updates; the delete cascade's and the file routes' queries), held by
// the RecordStore the app builds once (server/stores.ts), and the same queries for the read pool.
// Table and column names come from the schema and are quoted; every value is a bound parameter.
import type { AppContext } from '../context';
import type { DB, PendingRow, ReadQuery } from '../db/database';
import type { Collection } from '../collections/model';
import { joinSql, quoteIdent as q, raw, type Sql } from '../query/sql';
import { jsonEach } from '../query/record-fields';
import type { RecordModel } from './model';
import type { RuleCondition } from './rules';
import { valueToColumn } from '../../src/fields/record-values';

type Row = Record<string, unknown>;

/** A per-context query counter (the bench and tests read it). */
const counters = new WeakMap<object, { queries: number }>();
export function queryCounter(ctx: object): { queries: number } {
  let c = counters.get(ctx);
  if (!c) counters.set(ctx, (c = { queries: 0 }));
  return c;
}

function selectFrom(collection: Collection, cond: RuleCondition | null, where: Sql): Sql {
  const table = q(collection.name);
  const joins = cond?.joins ?? [];
  const parts: Sql[] = [where];
  if (cond && cond.where.sql.trim()) parts.push({ sql: `(${cond.where.sql})`, params: cond.where.params });
  const w = joinSql(parts, ' AND ');
  const j = joinSql(joins, ' ');
  return {
    sql: `SELECT ${joins.length ? 'DISTINCT ' : ''}${table}.* FROM ${table}${j.sql ? ' ' + j.sql : ''} WHERE ${w.sql}`,
    params: [...j.params, ...w.params],
  };
}

/** The query for a record's raw row by id, under an optional rule condition (for a read-pool batch). */
export function rowByIdQuery(collection: Collection, id: string, cond: RuleCondition | null = null): ReadQuery {
  const s = selectFrom(collection, cond, { sql: `${q(collection.name)}.${q('id')} = ?`, params: [id] });
  return { sql: s.sql + ' LIMIT 1', params: s.params, mode: 'get' };
}

/** The raw row of a record by id, under an optional rule condition (null when missing or denied). */
export function findRowById(ctx: AppContext, collection: Collection, id: string, cond: RuleCondition | null = null): Row | null {
  queryCounter(ctx).queries++;
  return ctx.records.findRow(collection, id, cond);
}

/**
 * findRowById on the read pool (under the request budget): for API reads a request shapes.
 * `options.pending`: a row the query sees in its table although it is not there (a deleted one).
 */
export async function readRowById(
  ctx: AppContext,
  collection: Collection,
  id: string,
  cond: RuleCondition | null = null,
  options: { pending?: PendingRow; budgetMs?: number } = {},
): Promise<Row | null> {
  const query = rowByIdQuery(collection, id, cond);
  queryCounter(ctx).queries++;
  return (await ctx.reads.get<Row>(query.sql, query.params, options)) ?? null;
}

/** Records by ids in one query on the read pool (ids bound as one JSON array), under an optional rule condition. */
export async function readRowsByIds(ctx: AppContext, collection: Collection, ids: string[], cond: RuleCondition | null = null): Promise<Row[]> {
  if (ids.length === 0) return [];
  const s = selectFrom(collection, cond, {
    sql: `${q(collection.name)}.${q('id')} IN (SELECT value FROM json_each(?))`,
    params: [JSON.stringify([...new Set(ids)])],
  });
  queryCounter(ctx).queries++;
  return ctx.reads.all<Row>(s.sql, s.params);
}

/** How many of `ids` exist in `collection` (one query). */
export function countExisting(ctx: AppContext, collection: Collection, ids: string[]): number {
  if (ids.length === 0) return 0;
  queryCounter(ctx).queries++;
  return ctx.records.countIds(collection, ids);
}

/** Columns written for a record: id, timestamps, auth columns, schema fields. */
function columnsOf(record: RecordModel): Array<[string, unknown]> {
  const { collection, data } = record;
  const cols: Array<[string, unknown]> = [
    ['id', data.id],
    ['created', data.created],
    ['updated', data.updated],
  ];
  if (collection.type === 'auth') {
    cols.push(
      ['username', String(data.username ?? '')],
      ['email', String(data.email ?? '')],
      ['emailVisibility', data.emailVisibility ? 1 : 0],
      ['verified', data.verified ? 1 : 0],
      ['tokenKey', String(data.tokenKey ?? '')],
      ['passwordHash', String(data.passwordHash ?? '')],
      ['lastResetSentAt', String(data.lastResetSentAt ?? '')],
      ['lastVerificationSentAt', String(data.lastVerificationSentAt ?? '')],
    );
  }
  for (const field of collection.schema) cols.push([field.name, valueToColumn(field, data[field.name])]);
  return cols;
}

/** `record` as the read pool's pending row: what insertRecord would write. */
export function pendingRowOf(record: RecordModel): PendingRow {
  const cols = columnsOf(record);
  return { table: record.collection.name, columns: cols.map(([c]) => c), values: cols.map(([, v]) => v) };
}

/** A raw auth-table row as the token check reads it: without passwordHash, with its collection id. */
interface AuthRecordRow {
  collectionId: string;
  record: Record<string, unknown>;
}

/** Statements on the collections' tables, over the write connection (sees the open transaction). */
export interface RecordStore {
  /** A record's raw row by id, under an optional rule condition (null when missing or denied). */
  findRow(collection: Collection, id: string, cond?: RuleCondition | null): Row | null;
  /** How many of `ids` exist in `collection` (one query). */
  countIds(collection: Collection, ids: string[]): number;
  /** Whether a row with this id exists in `collection`. */
  hasId(collection: Collection, id: string): boolean;
  insert(record: RecordModel): void;
  update(record: RecordModel, previousId?: string): void;
  delete(collection: Collection, id: string): void;
  /** Whether `value` is unused in `column` (case-insensitively when asked), other than by `exceptId`. */
  isValueUnique(collection: Collection, column: string, value: string, exceptId: string, caseInsensitive?: boolean): boolean;
  /** The first row whose `column` equals `value` (`lower`: LOWER(column) = value, value lower-cased by the caller). */
  findBy(collection: Collection, column: string, value: unknown, lower?: boolean): Row | null;
  /** Sets `changes` (column → bound value) on one row. */
  updateColumns(collection: Collection, id: string, changes: Array<[string, unknown]>): void;
  /** Whether record `id` matches a compiled rule condition. */
  matches(collection: Collection, id: unknown, cond: RuleCondition): boolean;
  /** Rows other than `id` whose relation column `field` holds `id` (`multiple`: a JSON array). */
  referencing(collection: Collection, field: string, multiple: boolean, id: string): Row[];
  /** A row by id compared as text (view ids may be numbers). */
  findByTextId(collection: Collection, id: string): Row | null;
  /** The id of the row whose file column `field` holds `filename`, or null. */
  findIdByFile(collection: Collection, field: string, filename: string): string | null;
  /**
   * An auth record by collection id and record id, read straight from `_collections` and the
   * table (no cache): the raw row without passwordHash (tokenKey is kept for signing file tokens;
   * never send the row as is).
   */
  findAuthRecord(collectionId: string, recordId: string): AuthRecordRow | null;
}

export function createRecordStore(db: DB): RecordStore {
  return {
    findRow(collection, id, cond = null) {
      const query = rowByIdQuery(collection, id, cond);
      return (db.prepare(query.sql).get(...query.params!) as Row | undefined) ?? null;
    },
    countIds(collection, ids) {
      const sql = `SELECT COUNT(*) FROM ${q(collection.name)} WHERE ${q('id')} IN (SELECT value FROM json_each(?))`;
      return Number(db.prepare(sql).pluck().get(JSON.stringify([...new Set(ids)])));
    },
    hasId: (collection, id) => db.prepare(`SELECT 1 FROM ${q(collection.name)} WHERE ${q('id')} = ? LIMIT 1`).get(id) !== undefined,
    insert(record) {
      const cols = columnsOf(record);
      const sql = `INSERT INTO ${q(record.collection.name)} (${cols.map(([c]) => q(c)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
      db.prepare(sql).run(...cols.map(([, v]) => v));
    },
    update(record, previousId) {
      const cols = columnsOf(record).filter(([c]) => c !== 'created');
      const sql = `UPDATE ${q(record.collection.name)} SET ${cols.map(([c]) => `${q(c)} = ?`).join(', ')} WHERE ${q('id')} = ?`;
      db.prepare(sql).run(...cols.map(([, v]) => v), previousId ?? record.data.id);
    },
    delete(collection, id) {
      db.prepare(`DELETE FROM ${q(collection.name)} WHERE ${q('id')} = ?`).run(id);
    },
    isValueUnique(collection, column, value, exceptId, caseInsensitive = false) {
      const cmp = caseInsensitive ? `${q(column)} = ? COLLATE NOCASE` : `${q(column)} = ?`;
      const sql = `SELECT 1 FROM ${q(collection.name)} WHERE ${cmp} AND ${q('id')} != ? LIMIT 1`;
      return db.prepare(sql).get(value, exceptId) === undefined;
    },
    findBy(collection, column, value, lower = false) {
      const target = lower ? `LOWER(${q(column)})` : q(column);
      return (db.prepare(`SELECT * FROM ${q(collection.name)} WHERE ${target} = ? LIMIT 1`).get(value) as Row | undefined) ?? null;
    },
    updateColumns(collection, id, changes) {
      const sets = changes.map(([column]) => `${q(column)} = ?`);
      db.prepare(`UPDATE ${q(collection.name)} SET ${sets.join(', ')} WHERE id = ?`).run(...changes.map(([, v]) => v), id);
    },
    matches(collection, id, cond) {
      const from = joinSql([raw(q(collection.name)), ...cond.joins], ' ');
      const found = db
        .prepare(`SELECT 1 FROM ${from.sql} WHERE ${q(collection.name)}.${q('id')} = ? AND (${cond.where.sql}) LIMIT 1`)
        .get(...from.params, id, ...cond.where.params);
      return found !== undefined;
    },
    referencing(collection, field, multiple, id) {
      const table = q(collection.name);
      const col = `${table}.${q(field)}`;
      const where = multiple ? `EXISTS (SELECT 1 FROM ${jsonEach(col)} __je__ WHERE __je__.value = ?)` : `${col} = ?`;
      return db.prepare(`SELECT ${table}.* FROM ${table} WHERE ${where} AND ${table}.${q('id')} != ?`).all(id, id) as Row[];
    },
    findByTextId: (collection, id) =>
      (db.prepare(`SELECT * FROM ${q(collection.name)} WHERE CAST(id AS TEXT) = ? LIMIT 1`).get(id) as Row | undefined) ?? null,
    findIdByFile(collection, field, filename) {
      const table = q(collection.name);
      const col = `${table}.${q(field)}`;
      const row = db
        .prepare(`SELECT ${table}.id AS id FROM ${table} WHERE EXISTS (SELECT 1 FROM ${jsonEach(col)} WHERE value = ?) LIMIT 1`)
        .get(filename) as { id: unknown } | undefined;
      return row ? String(row.id) : null;
    },
    findAuthRecord(collectionId, recordId) {
      const collection = db.prepare("SELECT id, name FROM _collections WHERE id = ? AND type = 'auth'").get(collectionId) as
        | { id: string; name: string }
        | undefined;
      if (!collection) return null;
      const row = db.prepare(`SELECT * FROM ${q(collection.name)} WHERE id = ?`).get(recordId) as Record<string, unknown> | undefined;
      if (!row) return null;
      const { passwordHash: _omit, ...record } = row;
      return { collectionId: collection.id, record };
    },
  };
}
