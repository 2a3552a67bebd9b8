// Record queries: by id (optionally under a rule condition), by many ids in one query, and the
// INSERT/UPDATE of a normalised record. Table and column names come from the schema and are
// quoted; every value is a bound parameter.
import type { AppContext } from '../context';
import type { PendingRow, ReadQuery } from '../db/database';
import type { Collection } from '../collections/model';
import { joinSql, quoteIdent as q, type Sql } from '../query/sql';
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
  const query = rowByIdQuery(collection, id, cond);
  queryCounter(ctx).queries++;
  return (ctx.db.prepare(query.sql).get(...query.params!) as Row | undefined) ?? null;
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
  const sql = `SELECT COUNT(*) FROM ${q(collection.name)} WHERE ${q('id')} IN (SELECT value FROM json_each(?))`;
  queryCounter(ctx).queries++;
  return Number(ctx.db.prepare(sql).pluck().get(JSON.stringify([...new Set(ids)])));
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

export function insertRecord(ctx: AppContext, record: RecordModel): void {
  const cols = columnsOf(record);
  const sql = `INSERT INTO ${q(record.collection.name)} (${cols.map(([c]) => q(c)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
  ctx.db.prepare(sql).run(...cols.map(([, v]) => v));
}

export function updateRecord(ctx: AppContext, record: RecordModel, previousId?: string): void {
  const cols = columnsOf(record).filter(([c]) => c !== 'created');
  const sql = `UPDATE ${q(record.collection.name)} SET ${cols.map(([c]) => `${q(c)} = ?`).join(', ')} WHERE ${q('id')} = ?`;
  ctx.db.prepare(sql).run(...cols.map(([, v]) => v), previousId ?? record.data.id);
}

/** Whether `value` is unused in `column` (case-insensitively when asked), other than by `exceptId`. */
export function isValueUnique(
  ctx: AppContext,
  collection: Collection,
  column: string,
  value: string,
  exceptId: string,
  caseInsensitive = false,
): boolean {
  const cmp = caseInsensitive ? `${q(column)} = ? COLLATE NOCASE` : `${q(column)} = ?`;
  const sql = `SELECT 1 FROM ${q(collection.name)} WHERE ${cmp} AND ${q('id')} != ? LIMIT 1`;
  return ctx.db.prepare(sql).get(value, exceptId) === undefined;
}
