// Applies a collection definition to the database the way PocketBase 0.22 does
// (daos/record_table_sync.go, daos/view.go): create the table, or alter it in place (rename the
// table, drop deleted columns, add and rename through temporary names, convert single <-> multiple
// values), then (re)create the collection indexes; SQL views for view collections. Callers run it
// inside a transaction, so any failure leaves nothing changed.
import type { DB } from '../db/database';
import { withStringLiterals } from '../db/dqs';
import { fieldError, type FieldErrors } from '../core/errors';
import type { Collection, SchemaField } from './model';
import { isMultiple } from './normalize';
import { buildIndex, isValidIndex, parseIndex } from '../../src/lib/collections/indexes';
import {
  addColumnSql,
  authIndexSql,
  columnDefinition,
  createTableSql,
  createViewSql,
  dropColumnSql,
  dropIndexSql,
  dropTableSql,
  dropViewSql,
  q,
  renameColumnSql,
  renameTableSql,
  tempSuffix,
} from './ddl';
import { normalizeViewQuery, viewColumns } from './view-schema';
import type { CollectionLookup } from './store';

/** Index creation failures, keyed by index position (returned as `indexes.{i}`). */
export class IndexCreateError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('failed to create the collection indexes');
  }
}

export function createRecordTable(db: DB, c: Collection): void {
  db.exec(createTableSql(c));
  if (c.type === 'auth') for (const sql of authIndexSql(c)) db.exec(sql);
  createCollectionIndexes(db, c);
}

export function updateRecordTable(db: DB, next: Collection, prev: Collection): void {
  dropCollectionIndexes(db, prev);
  if (prev.name.toLowerCase() !== next.name.toLowerCase()) db.exec(renameTableSql(prev.name, next.name));
  const table = prev.name.toLowerCase() === next.name.toLowerCase() ? prev.name : next.name;

  const nextIds = new Set(next.schema.map((f) => f.id));
  for (const old of prev.schema) {
    if (nextIds.has(old.id)) continue;
    runDdl(db, dropColumnSql(table, old.name), `failed to drop column ${old.name}`);
  }

  // New and renamed columns go through a temporary name first, so swapped names never collide.
  const prevById = new Map(prev.schema.map((f) => [f.id, f]));
  const toRename: Array<[string, string]> = [];
  for (const field of next.schema) {
    const old = prevById.get(field.id);
    if (!old) {
      const temp = field.name + tempSuffix();
      runDdl(db, addColumnSql(table, temp, columnDefinition(field)), `failed to add column ${field.name}`);
      toRename.push([temp, field.name]);
    } else if (old.name !== field.name) {
      const temp = field.name + tempSuffix();
      runDdl(db, renameColumnSql(table, old.name, temp), `failed to rename column ${old.name}`);
      toRename.push([temp, field.name]);
    }
  }
  for (const [temp, name] of toRename) db.exec(renameColumnSql(table, temp, name));

  normalizeSingleVsMultiple(db, table, next.schema, prevById);
  createCollectionIndexes(db, { ...next, name: table });
}

function runDdl(db: DB, sql: string, context: string): void {
  try {
    db.exec(sql);
  } catch (err) {
    throw new Error(`${context} - ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Rewrites the values of fields that switched between single and multiple: single -> multiple
 * wraps the value in an array, multiple -> single keeps the last item. The column is rebuilt
 * with its new definition; views are detached meanwhile (SQLite refuses to drop a column a view
 * reads, and the column comes back under the same name).
 */
function normalizeSingleVsMultiple(db: DB, table: string, fields: SchemaField[], prevById: Map<string, SchemaField>): void {
  const changed = fields.filter((f) => {
    const old = prevById.get(f.id);
    return (old ? isMultiple(old) : false) !== isMultiple(f);
  });
  if (changed.length === 0) return;
  withViewsDetached(db, () => {
    for (const field of changed) {
      const col = q(field.name);
      const temp = `_${field.name}${tempSuffix()}`;
      db.exec(addColumnSql(table, temp, columnDefinition(field)));
      const value = isMultiple(field)
        ? `CASE WHEN COALESCE(${col}, '') = '' THEN '[]' ELSE (CASE WHEN json_valid(${col}) AND json_type(${col}) == 'array' THEN ${col} ELSE json_array(${col}) END) END`
        : `CASE WHEN COALESCE(${col}, '[]') = '[]' THEN '' ELSE (CASE WHEN json_valid(${col}) AND json_type(${col}) == 'array' THEN COALESCE(json_extract(${col}, '$[#-1]'), '') ELSE ${col} END) END`;
      db.exec(`UPDATE ${q(table)} SET ${q(temp)} = (${value})`);
      db.exec(dropColumnSql(table, field.name));
      db.exec(renameColumnSql(table, temp, field.name));
    }
  });
}

/** Drops every SQL view, runs `fn`, then restores the views from their stored SQL. */
function withViewsDetached(db: DB, fn: () => void): void {
  const views = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY rowid").all() as { name: string; sql: string }[];
  for (const v of views) db.exec(dropViewSql(v.name));
  fn();
  for (const v of views) db.exec(v.sql);
}

/** Drops the indexes a collection declares (only those that really belong to its table). */
function dropCollectionIndexes(db: DB, c: Collection): void {
  if (c.type === 'view') return;
  const owned = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE AND tbl_name = ? COLLATE NOCASE");
  for (const raw of c.indexes) {
    const idx = parseIndex(raw);
    if (!isValidIndex(idx)) continue;
    if (owned.get(idx.indexName, c.name)) db.exec(dropIndexSql(idx.indexName));
  }
}

/** Creates the declared indexes on the collection table; failures throw IndexCreateError. */
function createCollectionIndexes(db: DB, c: Collection): void {
  if (c.type === 'view') return;
  dropCollectionIndexes(db, c);
  const errors: FieldErrors = {};
  c.indexes.forEach((raw, i) => {
    const idx = parseIndex(raw);
    if (!isValidIndex(idx)) {
      errors[String(i)] = fieldError('validation_invalid_index_expression', 'Invalid CREATE INDEX expression.');
      return;
    }
    // The index always targets this collection's table, whatever the statement said.
    const sql = buildIndex({ ...idx, tableName: c.name });
    try {
      // prepare() refuses stacked statements, so an index expression cannot smuggle in more SQL.
      db.prepare(sql).run();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      errors[String(i)] = fieldError('validation_invalid_index_expression', `Failed to create index ${idx.indexName} - ${reason}.`);
    }
  });
  if (Object.keys(errors).length) throw new IndexCreateError(errors);
}

export function dropRecordTable(db: DB, c: Collection): void {
  db.exec(c.type === 'view' ? dropViewSql(c.name) : dropTableSql(c.name));
}

// ---------------------------------------------------------------------------------------------
// Views

/** The query as PocketBase keeps it for the view: trimmed, without surrounding semicolons. */
export function trimViewQuery(query: string): string {
  return query.trim().replace(/^;+|;+$/g, '');
}

/**
 * The SQL a view query runs as: trimmed, with double-quoted string literals written as strings
 * (0.22's SQLite takes `name != "x"`; ours has DQS off, ../db/dqs.ts). A query that fails for
 * another reason is returned as it is, for the caller's checks to report.
 */
export function viewSql(db: DB, query: string): string {
  const trimmed = trimViewQuery(query);
  try {
    return withStringLiterals(trimmed, (sql) => db.prepare(sql)).sql;
  } catch {
    return trimmed;
  }
}

/**
 * (Re)creates the SQL view of a view collection. A view id that is not text (an expression,
 * or a number/bool/json column) is cast to text by a wrapping SELECT, as 0.22 does.
 */
export function createViewFor(db: DB, c: Collection, previous: Collection | null, lookup: CollectionLookup, lenient = false): void {
  if (previous) db.exec(dropViewSql(previous.name));
  db.exec(dropViewSql(c.name));
  const query = normalizeViewQuery(db, viewSql(db, String(c.options.query ?? '')), lookup, lenient);
  db.prepare(createViewSql(c.name, query)).run();
  // CREATE VIEW does not resolve tables or columns; reading it does (0.22's Dao only reads its
  // columns: a migration's view may fail when read, as there)
  if (lenient) viewColumns(db, query);
  else db.prepare(`SELECT * FROM ${q(c.name)} LIMIT 0`).all();
}

const VIEW_SQL_RE = /^CREATE\s+VIEW\s+(?:`[^`]*`|"[^"]*"|\[[^\]]*\]|\S+)\s+AS\s+SELECT\s+\*\s+FROM\s+\(([\s\S]*)\)\s*$/i;
const WRAPPED_RE = /^SELECT\s+cast\(`id` as text\) `id`[\s\S]*? FROM \(([\s\S]*)\)$/;

/**
 * The collection query of a view as SQLite holds it now. SQLite rewrites view SQL when a table
 * or column it reads is renamed, so this is how a dependent view follows a rename.
 */
export function currentViewQuery(db: DB, viewName: string): string | null {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ? COLLATE NOCASE").get(viewName) as
    | { sql: string }
    | undefined;
  const m = row ? VIEW_SQL_RE.exec(row.sql) : null;
  if (!m) return null;
  const inner = m[1];
  const wrapped = WRAPPED_RE.exec(inner);
  return wrapped ? wrapped[1] : inner;
}
