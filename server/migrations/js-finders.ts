// The Dao's record finders that take a filter, as 0.22's daos/record.go has them:
// findRecordsByFilter(collection, filter, sort, limit, offset, params), findFirstRecordByFilter
// (collection, filter, params) and findRecordsByIds(collection, ids). Filters and sorts compile
// with the server's own filter language and record resolver (relations, back-relations, macros);
// `{:name}` placeholders are replaced as 0.22 replaces them (strings quoted, numbers as written).
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import type { Collection } from '../collections/model';
import { collectionLookup } from '../collections/store';
import { recordFromRow, type RecordModel } from '../records/model';
import { compileFilter } from '../query/filter-compiler';
import { createRecordResolver } from '../query/record-resolver';
import { compileSort, parseSort } from '../query/sort';
import { joinSql, quoteIdent as q, type Sql } from '../query/sql';

type Row = Record<string, unknown>;

/** search.FilterData's placeholder replacement. */
function bindParams(filter: string, params: unknown): string {
  if (typeof params !== 'object' || params === null) return filter;
  let out = filter;
  for (const [key, value] of Object.entries(params as Row)) {
    let text: string;
    if (value === null || value === undefined) text = 'null';
    else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
    else text = JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value));
    out = out.split(`{:${key}}`).join(text);
  }
  return out;
}

export function findRecordsByFilter(
  ctx: AppContext,
  db: DB,
  collection: Collection,
  filter: string,
  sort = '',
  limit = 0,
  offset = 0,
  params: unknown = null,
): RecordModel[] {
  if (!String(filter ?? '').trim()) throw new Error('Missing filter expression');
  const resolver = createRecordResolver({ lookup: collectionLookup(ctx), collection, request: null, allowHiddenFields: true });
  const where = compileFilter(bindParams(String(filter), params), resolver);
  const order = sort ? compileSort(parseSort(String(sort)), resolver) : null;
  const joins = resolver.joins?.() ?? [];
  const table = q(collection.name);
  const from = joinSql([{ sql: table, params: [] }, ...joins], ' ');
  const parts: Sql = {
    sql: `SELECT ${joins.length ? 'DISTINCT ' : ''}${table}.* FROM ${from.sql} WHERE (${where.sql})${order ? ` ORDER BY ${order.sql}` : ''}`,
    params: [...from.params, ...where.params, ...(order?.params ?? [])],
  };
  if (limit > 0 || offset > 0) {
    parts.sql += ' LIMIT ? OFFSET ?';
    parts.params.push(limit > 0 ? limit : -1, Math.max(0, offset));
  }
  const rows = db.prepare(parts.sql).all(...parts.params) as Row[];
  return rows.map((row) => recordFromRow(collection, row));
}

export function findRecordsByIds(db: DB, collection: Collection, ids: unknown): RecordModel[] {
  const list = Array.isArray(ids) ? ids.map(String) : [];
  if (!list.length) return [];
  const rows = db.prepare(`SELECT * FROM ${q(collection.name)} WHERE ${q('id')} IN (${list.map(() => '?').join(', ')})`).all(...list) as Row[];
  return rows.map((row) => recordFromRow(collection, row));
}
