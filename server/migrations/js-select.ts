// dbx's SelectQuery (pocketbase/dbx v1.10, the version 0.22.12 uses) as `db.select(...)` and
// `Dao.recordQuery(collection)` give it to JS: the clauses are collected, then built into dbx's SQL
// (SQLite quoting with backticks, `{:pN}` placeholders numbered as dbx numbers them) and run by
// whoever made the query: a migration's db on the main thread, a hook executor over its channel.
// Values stay bound parameters: an expression ($dbx, or `{sql, params}`) adds its own. Builder
// methods Outpost lacks (model, rows, union, ...) throw an error naming them.

import { JsRecord } from './js-models';
import { strict } from './js-unsupported';

type Row = Record<string, unknown>;

export interface BuiltQuery {
  sql: string;
  params: Row;
}

/** Runs a built query for `one(target)`, `all(target)` or `column(target)` and fills the target. */
export type SelectExec = (op: 'one' | 'all', query: BuiltQuery, target: unknown) => unknown;

/** dbx's And/Or of two conditions (either may be empty). */
class Combined {
  constructor(
    readonly op: 'AND' | 'OR',
    readonly parts: unknown[],
  ) {}
}

/** An expression's SQL: a $dbx expression (`build(db, params)`), `{sql, params}`, text (dbx.NewExp), or nothing. */
function buildExpression(e: unknown, params: Row): string {
  if (e === null || e === undefined) return '';
  if (typeof e === 'string') return e;
  if (e instanceof Combined) {
    const parts = e.parts.map((p) => buildExpression(p, params)).filter((s) => s !== '');
    return parts.length === 1 ? parts[0] : parts.length ? `(${parts.join(`) ${e.op} (`)})` : '';
  }
  const x = e as { build?: unknown; sql?: unknown; params?: unknown };
  if (typeof x.build === 'function') return String((x.build as (db: unknown, p: Row) => unknown)(null, params) ?? '');
  if (typeof x.sql === 'string') {
    if (x.params && typeof x.params === 'object') Object.assign(params, x.params);
    return x.sql;
  }
  throw new Error('expected a $dbx expression');
}

const quoteSimple = (s: string) => (s.includes('`') ? s : `\`${s}\``);

/** dbx's QuoteTableName (SQLite): `t`, `schema`.`t`; left alone with "(" or "{{". */
function quoteTable(s: string): string {
  if (s.includes('(') || s.includes('{{')) return s;
  return s.split('.').map(quoteSimple).join('.');
}

/** dbx's QuoteColumnName (SQLite): `c`, `t`.`c`, `*`; left alone with "(", "{{" or "[[". */
function quoteColumn(s: string): string {
  if (s.includes('(') || s.includes('{{') || s.includes('[[')) return s;
  const at = s.lastIndexOf('.');
  const prefix = at >= 0 ? `${quoteTable(s.slice(0, at))}.` : '';
  const name = at >= 0 ? s.slice(at + 1) : s;
  return prefix + (name.includes('`') || name === '*' ? name : `\`${name}\``);
}

const ALIAS = /(?:\s+as\s+|\s+)([\w\-_.]+)$/i;
const DIRECTION = /\s+(ASC|DESC)$/i;

function withAlias(text: string, quote: (s: string) => string, asWord: boolean): string {
  const m = ALIAS.exec(text);
  if (!m) return quote(text);
  const base = text.slice(0, text.length - m[0].length);
  return `${quote(base)}${asWord ? ' AS ' : ' '}${quoteSimple(m[1])}`;
}

const strings = (values: unknown[]) => values.flat().map((v) => String(v ?? ''));

interface Join {
  type: string;
  table: string;
  on: unknown;
}

/** A SELECT being put together; the last call runs it. */
export class SelectQuery {
  #selects: string[] = [];
  #distinct = false;
  #option = '';
  #from: string[] = [];
  #where: unknown = null;
  #joins: Join[] = [];
  #orderBy: string[] = [];
  #groupBy: string[] = [];
  #having: unknown = null;
  #limit = -1;
  #offset = 0;
  #params: Row = {};
  /** What the methods return: the query behind a proxy naming the builder methods Outpost lacks. */
  readonly #self: this;

  constructor(private readonly exec: SelectExec) {
    this.#self = strict('SelectQuery', this);
    return this.#self;
  }

  select = (...cols: unknown[]): this => this.#set(() => (this.#selects = strings(cols)));
  andSelect = (...cols: unknown[]): this => this.#set(() => this.#selects.push(...strings(cols)));
  distinct = (v: unknown): this => this.#set(() => (this.#distinct = Boolean(v)));
  selectOption = (option: unknown): this => this.#set(() => (this.#option = String(option ?? '')));
  from = (...tables: unknown[]): this => this.#set(() => (this.#from = strings(tables)));
  where = (e: unknown): this => this.#set(() => (this.#where = e));
  andWhere = (e: unknown): this => this.#set(() => (this.#where = new Combined('AND', [this.#where, e])));
  orWhere = (e: unknown): this => this.#set(() => (this.#where = new Combined('OR', [this.#where, e])));
  join = (type: unknown, table: unknown, on: unknown): this => this.#set(() => this.#joins.push({ type: String(type), table: String(table), on }));
  innerJoin = (table: unknown, on: unknown): this => this.join('INNER JOIN', table, on);
  leftJoin = (table: unknown, on: unknown): this => this.join('LEFT JOIN', table, on);
  rightJoin = (table: unknown, on: unknown): this => this.join('RIGHT JOIN', table, on);
  orderBy = (...cols: unknown[]): this => this.#set(() => (this.#orderBy = strings(cols)));
  andOrderBy = (...cols: unknown[]): this => this.#set(() => this.#orderBy.push(...strings(cols)));
  groupBy = (...cols: unknown[]): this => this.#set(() => (this.#groupBy = strings(cols)));
  andGroupBy = (...cols: unknown[]): this => this.#set(() => this.#groupBy.push(...strings(cols)));
  having = (e: unknown): this => this.#set(() => (this.#having = e));
  andHaving = (e: unknown): this => this.#set(() => (this.#having = new Combined('AND', [this.#having, e])));
  orHaving = (e: unknown): this => this.#set(() => (this.#having = new Combined('OR', [this.#having, e])));
  limit = (n: unknown): this => this.#set(() => (this.#limit = Math.trunc(Number(n))));
  offset = (n: unknown): this => this.#set(() => (this.#offset = Math.trunc(Number(n)) || 0));
  bind = (params: unknown): this => this.#set(() => (this.#params = params && typeof params === 'object' ? { ...(params as Row) } : {}));
  andBind = (params: unknown): this => this.#set(() => Object.assign(this.#params, params && typeof params === 'object' ? params : {}));

  #set(fn: () => unknown): this {
    fn();
    return this.#self;
  }

  /** dbx's SelectQuery.Build: the SQL and every value it binds. */
  build = (): BuiltQuery => {
    const params: Row = { ...this.#params };
    const cols = this.#selects.length ? this.#selects.map((c) => withAlias(c, quoteColumn, true)).join(', ') : '*';
    const clauses = [`SELECT ${this.#distinct ? 'DISTINCT ' : ''}${this.#option ? `${this.#option} ` : ''}${cols}`];
    if (this.#from.length) clauses.push(`FROM ${this.#from.map((t) => withAlias(t, quoteTable, false)).join(', ')}`);
    for (const j of this.#joins) {
      const on = buildExpression(j.on, params);
      clauses.push(`${j.type} ${withAlias(j.table, quoteTable, false)}${on ? ` ON ${on}` : ''}`);
    }
    const where = buildExpression(this.#where, params);
    if (where) clauses.push(`WHERE ${where}`);
    if (this.#groupBy.length) clauses.push(`GROUP BY ${this.#groupBy.map(quoteColumn).join(', ')}`);
    const having = buildExpression(this.#having, params);
    if (having) clauses.push(`HAVING ${having}`);
    if (this.#orderBy.length) {
      clauses.push(`ORDER BY ${this.#orderBy.map((c) => {
        const m = DIRECTION.exec(c);
        return m ? `${quoteColumn(c.slice(0, c.length - m[0].length))} ${m[1]}` : quoteColumn(c);
      }).join(', ')}`);
    }
    // most databases want a LIMIT before an OFFSET (dbx's BuildLimit)
    const limit = this.#limit < 0 && this.#offset > 0 ? '9223372036854775807' : this.#limit >= 0 ? String(this.#limit) : '';
    if (limit) clauses.push(`LIMIT ${limit}`);
    if (this.#offset > 0) clauses.push(`OFFSET ${this.#offset}`);
    return { sql: clauses.join(' '), params };
  };

  one = (target: unknown): unknown => this.exec('one', this.build(), target);
  all = (target: unknown): unknown => this.exec('all', this.build(), target);
  /** The first column of every row, into `target` (a list). */
  column = (target: unknown): unknown => {
    const rows = this.exec('all', this.build(), undefined) as Row[];
    const values = rows.map((r) => Object.values(r)[0]);
    if (!Array.isArray(target)) return values;
    target.length = 0;
    target.push(...values);
    return target;
  };
}

/** RecordQuery's table when the collection is unknown (0.22's, for easier debugging). */
const INVALID_COLLECTION = '@@__invalidCollectionModelOrIdentifier';

/** 0.22's RecordQuery: `SELECT \`name\`.* FROM \`name\`` (one/all into Records handled by `exec`). */
export function recordSelect(tableName: string | null, exec: SelectExec): SelectQuery {
  const table = tableName || INVALID_COLLECTION;
  return new SelectQuery(exec).select(`${quoteSimple(table)}.*`).from(table);
}

/** Whether a recordQuery's target takes Records: a Record, a list made with arrayOf(new Record), a plain list. */
export const wantsRecords = (target: unknown, template: unknown): boolean =>
  target instanceof JsRecord || template instanceof JsRecord || (Array.isArray(target) && template === undefined);

/** RecordQuery's one(record) / all(list): the target filled with the records as 0.22 fills it. */
export function fillRecords(op: 'one' | 'all', records: JsRecord[], target: unknown): unknown {
  if (op === 'one') {
    const first = records[0];
    if (!first) throw new Error('sql: no rows in result set');
    if (!(target instanceof JsRecord)) return first;
    target.load(first.data());
    JsRecord.attach(target, first.collection());
    target.markAsNotNew();
    return target;
  }
  if (!Array.isArray(target)) return records;
  target.length = 0;
  target.push(...records);
  return target;
}
