// View collections (PocketBase 0.22 daos/view.go): checking a view's SELECT and inferring its
// schema fields. Column origins come from SQLite itself (a prepared statement knows which table
// and column each result column reads, through views and subqueries); the query text is only
// read for what SQLite cannot say: wildcards, missing aliases, count()/CAST types, and the
// FROM alias of a column whose origin SQLite lost (an expression column of a view or subquery).
import type { DB } from '../db/database';
import type { CollectionLookup } from '../query/record-resolver';
import { defaultOptions } from '../../src/lib/collections/fields';
import { fieldDefinition } from '../../src/fields/registry';
import type { Collection, FieldType, SchemaField } from './model';
import { newFieldId } from './ddl';
import { authTableNames, secretReadOf } from './view-secrets';
import { parseSelect, ViewSqlError, type ParsedSelect, type Token } from './view-sql';

const MISSING_ID_MESSAGE = 'missing required id column (you can use `(ROW_NUMBER() OVER()) as id` if you don\'t have one)';

/** First words of SQLite statements other than queries (anything else is a syntax error). */
const STATEMENT_KEYWORDS = [
  'ALTER', 'ANALYZE', 'ATTACH', 'BEGIN', 'COMMIT', 'CREATE', 'DELETE', 'DETACH', 'DROP', 'END', 'EXPLAIN', 'INSERT',
  'PRAGMA', 'REINDEX', 'RELEASE', 'REPLACE', 'ROLLBACK', 'SAVEPOINT', 'UPDATE', 'VACUUM', 'VALUES',
];

/** Columns of every view record that are not schema fields. */
const BASE_COLUMNS = ['id', 'created', 'updated'];

/**
 * Rejects what can be told from the text alone: empty input, several statements, anything but a
 * SELECT (DELETE, INSERT, UPDATE, ATTACH, PRAGMA, ...), bound parameters, `*` columns, a missing
 * `id` column and expressions without an alias. Messages are `column: message` where a column is
 * to blame. Syntax errors surface in inferViewSchema, where SQLite compiles the query.
 */
export function validateViewQuery(query: string): void {
  parseChecked(query);
}

function parseChecked(query: string): ParsedSelect {
  if (query.trim() === '') throw new Error('the view query must not be empty');
  let parsed: ParsedSelect;
  try {
    parsed = parseSelect(query);
  } catch (err) {
    if (err instanceof ViewSqlError) throw new Error(err.message);
    throw err;
  }
  if (parsed.multipleStatements) throw new Error('multiple statements are not supported');
  if (parsed.keyword !== 'SELECT' && parsed.keyword !== 'WITH') {
    if (!STATEMENT_KEYWORDS.includes(parsed.keyword)) throw new Error(`near ${JSON.stringify(parsed.keyword.toLowerCase())}: syntax error`);
    throw new Error(`only SELECT queries are supported, got ${parsed.keyword}`);
  }
  if (parsed.hasParams) throw new Error('query parameters are not supported');
  if (parsed.items.length === 0) throw new Error('the query has no SELECT column list');
  for (const item of parsed.items) {
    if (item.wildcard) throw new Error(`${item.exprText}: dynamic column names are not supported`);
    if (!item.name) throw new Error(`${item.exprText}: the expression needs an alias (e.g. ${item.exprText} AS name)`);
  }
  const names = parsed.items.map((i) => i.name);
  const duplicate = names.find((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i);
  if (duplicate) throw new Error(`${duplicate}: duplicated column name`);
  if (!names.includes('id')) throw new Error(`id: ${MISSING_ID_MESSAGE}`);
  return parsed;
}

interface InferredColumn {
  name: string;
  field: SchemaField;
}

/** A result column and, when SQLite knows it, the table column it reads. */
interface ColumnInfo {
  name: string;
  table: string | null;
  column: string | null;
}

/**
 * The columns of a view over `query` as 0.22's CreateViewSchema reads them: a temporary view and
 * its table_info, which names the columns without compiling the whole query.
 */
export function viewColumns(db: DB, query: string): ColumnInfo[] {
  const probe = '_outpost_view_probe';
  db.exec(`DROP VIEW IF EXISTS temp.${probe}`);
  try {
    db.prepare(`CREATE TEMP VIEW ${probe} AS SELECT * FROM (${query})`).run();
    const rows = db.prepare(`SELECT name FROM pragma_table_info('${probe}', 'temp')`).all() as Array<{ name: string }>;
    if (!rows.length) throw new Error(`the view query has no columns`);
    return rows.map((r) => ({ name: r.name, table: null, column: null }));
  } finally {
    db.exec(`DROP VIEW IF EXISTS temp.${probe}`);
  }
}

/** The text's parse when it has one (a lenient reading: 0.22's Dao saves what SQLite can read). */
function parseLenient(query: string): ParsedSelect | null {
  try {
    return parseSelect(query);
  } catch {
    return null;
  }
}

/**
 * Prepares the query (read-only, one statement) and infers a field for every result column.
 * `lenient` (a migration's Dao save): only what 0.22's Dao asks of a view, that SQLite reads it as
 * one query with an `id` column; columns the text does not tell about become json fields.
 */
function inferColumns(db: DB, query: string, lookup: CollectionLookup, lenient = false): InferredColumn[] {
  const parsed = lenient ? parseLenient(query) : parseChecked(query);
  const text = query.trim().replace(/;+\s*$/, '');
  let columns: ColumnInfo[];
  let compiled = true;
  try {
    const stmt = db.prepare(lenient ? `SELECT * FROM (${text})` : text);
    if (!stmt.reader || !stmt.readonly) throw new Error('only SELECT queries are supported');
    columns = stmt.columns();
  } catch (err) {
    // 0.22 reads a view's columns without compiling its query (a query such as a misused
    // aggregate is only refused when the view is read): a migration's view is saved the same way
    if (!lenient) throw new Error(err instanceof Error ? err.message : String(err));
    columns = viewColumns(db, text);
    compiled = false;
  }
  // (a query SQLite cannot compile reads nothing; a migration's view that reads secret columns is
  // saved, as 0.22 saves it, and refused when read: collections/store.ts refusedViewReason)
  const secret = compiled && !lenient ? secretReadOf(db, text, authTableNames(db, lookup.all?.() ?? [])) : null;
  if (secret) throw new Error(secret);
  if (lenient && !columns.some((c) => c.name === 'id')) throw new Error(MISSING_ID_MESSAGE);
  if (!parsed || parsed.items.length !== columns.length) {
    if (!lenient) throw new Error('the column list could not be matched with the query result');
    return columns.map((col) => ({ name: col.name, field: newField(col.name, 'json') }));
  }

  const collectionOf = (table: string | null): Collection | undefined => {
    if (!table) return undefined;
    const found = lookup(table);
    // lookup also matches ids; a column origin is always a table (= collection) name
    return found && found.name.toLowerCase() === table.toLowerCase() ? found : undefined;
  };

  return columns.map((col, i) => {
    const item = parsed.items[i];
    const typed = expressionType(item.expr);
    if (typed) return { name: col.name, field: newField(col.name, typed) };
    // SQLite's origin first; else a plain `[t.]column` read through the FROM aliases
    let source = col.table && col.column ? { collection: collectionOf(col.table), column: col.column } : undefined;
    if (!source && item.ref) {
      const from = item.ref.table
        ? parsed.from.find((t) => t.alias.toLowerCase() === item.ref!.table.toLowerCase())
        : parsed.from[0];
      source = { collection: collectionOf(from?.name ?? null), column: item.ref.column };
    }
    const field = source?.collection ? fieldFromCollection(source.collection, source.column, col.name) : undefined;
    return { name: col.name, field: field ?? newField(col.name, 'json') };
  });
}

/**
 * The schema fields of a view over `query`, as PocketBase 0.22 infers them: a column read from
 * a collection keeps its field (type and options, new id); its `id` becomes a single relation to
 * that collection; count()/total() and numeric CASTs are numbers, CAST AS text text, CAST AS
 * bool(ean) bool; anything else json. id, created and updated are not schema fields.
 */
export function inferViewSchema(db: DB, query: string, lookup: CollectionLookup, lenient = false): SchemaField[] {
  return inferColumns(db, query, lookup, lenient)
    .filter((c) => !BASE_COLUMNS.includes(c.name))
    .map((c) => c.field);
}

/**
 * The query the SQL view should be created from: wrapped so `id` is text when the query's id
 * is not (a number, a bool or an expression such as ROW_NUMBER()), as 0.22's
 * normalizeViewQueryId does; the query itself otherwise.
 */
export function normalizeViewQuery(db: DB, query: string, lookup: CollectionLookup, lenient = false): string {
  const columns = inferColumns(db, query, lookup, lenient);
  const text = query.trim().replace(/;+\s*$/, '');
  const id = columns.find((c) => c.name === 'id');
  if (id && !['json', 'number', 'bool'].includes(id.field.type)) return text;
  const list = columns.map((c) => (c.name === 'id' ? 'cast(`id` as text) `id`' : quoteBacktick(c.name)));
  return `SELECT ${list.join(',')} FROM (${text})`;
}

const quoteBacktick = (name: string) => '`' + name.replace(/`/g, '``') + '`';

const NUMERIC_CASTS = ['real', 'integer', 'int', 'decimal', 'numeric'];

/** count()/total() → number; CAST(... AS type) → number, text or bool; otherwise undefined. */
function expressionType(expr: Token[]): FieldType | undefined {
  const head = expr[0]?.kind === 'word' ? expr[0].text.toLowerCase() : '';
  if ((head === 'count' || head === 'total') && expr[1]?.text === '(') return 'number';
  if (head !== 'cast' || expr[1]?.text !== '(' || expr[expr.length - 1]?.text !== ')') return undefined;
  // the whole expression must be the one CAST: its `(` closes at the last token
  if (expr.findIndex((t, i) => i > 1 && t.text === ')' && t.depth === expr[1].depth) !== expr.length - 1) return undefined;
  const asAt = expr.map((t) => t.kind === 'word' && t.text.toLowerCase() === 'as' && t.depth === expr[1].depth + 1).lastIndexOf(true);
  const type = asAt > 0 ? expr[asAt + 1]?.text.toLowerCase() : '';
  if (NUMERIC_CASTS.includes(type)) return 'number';
  if (type === 'text') return 'text';
  if (type === 'bool' || type === 'boolean') return 'bool';
  return undefined;
}

/** The field a column `name` of `collection` yields in a view, named `alias`. */
function fieldFromCollection(collection: Collection, name: string, alias: string): SchemaField | undefined {
  const lower = name.toLowerCase();
  const original = collection.schema.find((f) => f.name.toLowerCase() === lower);
  if (original) {
    return {
      system: original.system,
      id: newFieldId(),
      name: alias,
      type: original.type,
      required: original.required,
      presentable: original.presentable ?? false,
      unique: original.unique ?? false,
      options: structuredClone(original.options ?? {}),
    };
  }
  if (lower === 'id') {
    return newField(alias, 'relation', { collectionId: collection.id, cascadeDelete: false, minSelect: null, maxSelect: 1, displayFields: null });
  }
  if (lower === 'created' || lower === 'updated') return newField(alias, 'date');
  if (collection.type === 'auth') {
    if (lower === 'username') return newField(alias, 'text');
    if (lower === 'email') return newField(alias, 'email');
    if (lower === 'verified' || lower === 'emailvisibility') return newField(alias, 'bool');
  }
  return undefined;
}

/** The options PocketBase 0.22 serialises for a fresh field of each type (json: view default maxSize 1). */
const viewFieldOptions = (type: FieldType): Record<string, unknown> => fieldDefinition(type).viewOptions?.() ?? defaultOptions(type);

function newField(name: string, type: FieldType, options: Record<string, unknown> = viewFieldOptions(type)): SchemaField {
  return { system: false, id: newFieldId(), name, type, required: false, presentable: false, unique: false, options };
}
