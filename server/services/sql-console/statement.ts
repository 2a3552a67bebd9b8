// What the SQL console lets run, read from the statement's tokens before SQLite sees it: one
// statement, and only SELECT, WITH, EXPLAIN QUERY PLAN of those, or a read-only pragma; no ATTACH,
// no load_extension(), no parameters. This is the first of three guards: the secret columns are
// then asked of SQLite's compiled program (the check views get, view-secrets.ts), and the statement
// runs on a read-only connection of the read pool only if SQLite calls it read-only
// (db/read-stream.ts). Each guard alone would leave a gap: SQLite calls ATTACH and BEGIN
// read-only, and the tokens cannot see what a view or a CTE reads.
import { tokenize, ViewSqlError, type Token } from '../../collections/view-sql';

export type StatementKind = 'query' | 'plan' | 'pragma';

/** Why a statement is refused (the error code the API answers is `sql_<reason>`). */
export type RefusalReason =
  | 'empty'
  | 'syntax'
  | 'several_statements'
  | 'write'
  | 'attach'
  | 'load_extension'
  | 'explain'
  | 'pragma'
  | 'parameters'
  | 'secret'
  | 'not_read_only'
  | 'role';

export class StatementRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'StatementRefused';
  }
}

export interface ReadOnlyStatement {
  kind: StatementKind;
  /** The query whose reads are checked for secrets (a plan's own query); null for a pragma. */
  query: string | null;
  /** A pragma's name (lower case) and the table or index it names, if any. */
  pragma?: { name: string; argument: string | null };
}

/** Pragmas that read (table and index structure, database facts), with an argument or not. */
const PRAGMAS_WITH_ARGUMENT = new Set(['table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list', 'foreign_key_check', 'integrity_check', 'quick_check']);
const PRAGMAS_WITHOUT_ARGUMENT = new Set([
  'database_list', 'collation_list', 'function_list', 'module_list', 'pragma_list', 'compile_options', 'page_count', 'page_size', 'freelist_count',
  'schema_version', 'user_version', 'application_id', 'encoding', 'data_version',
]);
/** A pragma that tells facts of the database file or the library, and reads no table. */
export const readsNoTable = (name: string): boolean => PRAGMAS_WITHOUT_ARGUMENT.has(name);
const READ_ONLY_PRAGMAS = [...PRAGMAS_WITH_ARGUMENT, ...PRAGMAS_WITHOUT_ARGUMENT].sort();

/** First words of SQLite's other statements: they write, change the schema or the connection. */
const OTHER_STATEMENTS = new Set([
  'ALTER', 'ANALYZE', 'BEGIN', 'COMMIT', 'CREATE', 'DELETE', 'DROP', 'END', 'INSERT', 'REINDEX', 'RELEASE', 'REPLACE', 'ROLLBACK', 'SAVEPOINT', 'UPDATE', 'VACUUM', 'VALUES', 'UPSERT',
]);

const ALLOWED = 'SELECT, WITH, EXPLAIN QUERY PLAN and read-only pragmas';

const upper = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');
const isPunct = (t: Token | undefined, c: string) => t?.kind === 'punct' && t.text === c;

/** The statement's kind, or a StatementRefused saying why it may not run here. */
export function readOnlyStatement(sql: string): ReadOnlyStatement {
  let tokens: Token[];
  try {
    tokens = tokenize(sql);
  } catch (err) {
    if (err instanceof ViewSqlError) throw new StatementRefused('syntax', err.message);
    throw err;
  }
  // a trailing ';' (or several) ends the statement; anything after the first one is another
  const end = tokens.findIndex((t) => isPunct(t, ';'));
  if (end >= 0 && tokens.slice(end).some((t) => !isPunct(t, ';'))) {
    throw new StatementRefused('several_statements', "Only one statement can run at a time: remove what follows the first ';'.");
  }
  const body = end >= 0 ? tokens.slice(0, end) : tokens;
  if (body.length === 0) throw new StatementRefused('empty', 'Enter an SQL statement to run.');

  const first = upper(body[0]);
  if (first === 'ATTACH' || first === 'DETACH') throw new StatementRefused('attach', `${first} is not allowed: the console reads this app's database only.`);
  if (body.some((t, i) => (t.kind === 'word' || t.kind === 'quoted') && t.text.toLowerCase() === 'load_extension' && isPunct(body[i + 1], '('))) {
    throw new StatementRefused('load_extension', 'load_extension() is not allowed: the console runs no extension.');
  }
  if (body.some((t) => t.kind === 'param')) {
    throw new StatementRefused('parameters', 'Statement parameters (?, :name, @name, $name) are not supported: write the values in the statement.');
  }

  if (first === 'PRAGMA') return pragma(body);
  let kind: StatementKind = 'query';
  let query = body;
  if (first === 'EXPLAIN') {
    if (upper(body[1]) !== 'QUERY' || upper(body[2]) !== 'PLAN') {
      throw new StatementRefused('explain', 'Only EXPLAIN QUERY PLAN is available here (not the bytecode listing of EXPLAIN).');
    }
    kind = 'plan';
    query = body.slice(3);
  }
  const keyword = upper(query[0]);
  if (keyword !== 'SELECT' && keyword !== 'WITH') {
    if (kind === 'plan' && keyword) throw new StatementRefused(OTHER_STATEMENTS.has(keyword) ? 'write' : 'explain', `EXPLAIN QUERY PLAN is available for SELECT and WITH queries only, not ${keyword}.`);
    if (OTHER_STATEMENTS.has(keyword)) throw new StatementRefused('write', `Only read-only statements can run here (${ALLOWED}): ${keyword} is not one.`);
    throw new StatementRefused('syntax', `near ${JSON.stringify(query[0]?.text ?? sql.trim())}: syntax error`);
  }
  // a WITH clause may lead to an INSERT, UPDATE or DELETE (REPLACE is also a function: only REPLACE INTO)
  const write = query.find((t, i) => t.depth === 0 && (['INSERT', 'UPDATE', 'DELETE'].includes(upper(t)) || (upper(t) === 'REPLACE' && upper(query[i + 1]) === 'INTO')));
  if (write) throw new StatementRefused('write', `Only read-only statements can run here (${ALLOWED}): this one writes (${upper(write)}).`);
  return { kind, query: kind === 'plan' ? planQuery(sql) : sql };
}

/** PRAGMA [schema.]name [(argument)], for the read-only pragmas only, and never `= value`. */
function pragma(body: Token[]): ReadOnlyStatement {
  const qualified = isPunct(body[2], '.');
  const nameToken = body[qualified ? 3 : 1];
  const name = nameToken?.kind === 'word' || nameToken?.kind === 'quoted' ? nameToken.text.toLowerCase() : '';
  const rest = body.slice(qualified ? 4 : 2);
  const list = READ_ONLY_PRAGMAS.join(', ');
  if (!PRAGMAS_WITH_ARGUMENT.has(name) && !PRAGMAS_WITHOUT_ARGUMENT.has(name)) {
    throw new StatementRefused('pragma', `PRAGMA ${name || '(no name)'} is not available here. The read-only pragmas are: ${list}.`);
  }
  if (rest.some((t) => isPunct(t, '='))) throw new StatementRefused('pragma', `Pragmas can be read here, not set (PRAGMA ${name} = …).`);
  const argument = rest.length > 0;
  if (argument && (!PRAGMAS_WITH_ARGUMENT.has(name) || !isPunct(rest[0], '(') || !isPunct(rest[rest.length - 1], ')'))) {
    throw new StatementRefused('pragma', PRAGMAS_WITH_ARGUMENT.has(name) ? `PRAGMA ${name} takes its argument in parentheses: PRAGMA ${name}(…).` : `Pragmas can be read here, not set: PRAGMA ${name} takes no argument.`);
  }
  const inner = argument ? rest.slice(1, -1) : [];
  const only = inner.length === 1 && inner[0].kind !== 'punct' ? inner[0].text : null;
  return { kind: 'pragma', query: null, pragma: { name, argument: argument ? (only ?? '') : null } };
}

const SPACE = String.raw`(?:\s|--[^\n]*(?:\n|$)|/\*[\s\S]*?(?:\*/|$))`;
const PLAN_PREFIX = new RegExp(String.raw`^${SPACE}*explain${SPACE}+query${SPACE}+plan\b`, 'i');

/** The query of `EXPLAIN QUERY PLAN <query>` (comments may sit between the words). */
function planQuery(sql: string): string {
  return sql.replace(PLAN_PREFIX, '');
}
