// `$dbx`: pocketbase/dbx v1.10's expressions (exp, hashExp, not, and, or, in, notIn, like, orLike,
// notLike, orNotLike, exists, notExists, between, notBetween), each with `build(db, params)` giving
// dbx's SQL text with `{:pN}` placeholders and filling `params`, as 0.22's tests pin it
// ("`a`={:p0} AND `b` IS NULL"). They reach the database only through the Dao
// (`findRecordsByExpr`): crossing to the main thread as `{sql, params}`, bound there, never
// spliced into the text.
import { namespace } from '../../../migrations/js-unsupported';

type Params = Record<string, unknown>;

const EXPRESSION = Symbol.for('outpost.dbx.expression');

interface Expression {
  readonly [EXPRESSION]: true;
  build(db?: unknown, params?: Params): string;
}

/** The shape an expression crosses the channel in (server/migrations/js-dao-records.ts runs it). */
interface ExpressionWire {
  sql: string;
  params: Params;
}

const isExpression = (v: unknown): v is Expression => !!v && typeof v === 'object' && (v as { [EXPRESSION]?: unknown })[EXPRESSION] === true;

/** dbx's QuoteColumnName for SQLite: `a` and `t`.`a`; left alone with "(", "{{", "[[" or a backtick. */
function quoteColumn(name: string): string {
  if (name.includes('(') || name.includes('{{') || name.includes('[[')) return name;
  const quote = (s: string) => (s.includes('`') || s === '*' ? s : `\`${s}\``);
  const at = name.lastIndexOf('.');
  if (at < 0) return quote(name);
  const table = name.slice(0, at).split('.').map((p) => (p.includes('`') ? p : `\`${p}\``)).join('.');
  return `${table}.${quote(name.slice(at + 1))}`;
}

const paramsOf = (p: unknown): Params => (p && typeof p === 'object' ? (p as Params) : {});
const nextName = (params: Params) => `p${Object.keys(params).length}`;

abstract class Base implements Expression {
  readonly [EXPRESSION] = true as const;
  abstract sql(params: Params): string;
  build(_db?: unknown, params?: unknown): string {
    return this.sql(paramsOf(params));
  }
}

class Exp extends Base {
  constructor(
    readonly e: string,
    readonly params: Params | null,
  ) {
    super();
  }
  sql(params: Params): string {
    if (this.params) Object.assign(params, this.params);
    return this.e;
  }
}

const buildOf = (e: unknown, params: Params): string => (isExpression(e) ? (e as Base).sql(params) : '');

class InExp extends Base {
  constructor(
    readonly col: string,
    readonly values: unknown[],
    readonly not: boolean,
  ) {
    super();
  }
  sql(params: Params): string {
    if (!this.values.length) return this.not ? '' : '0=1';
    const values = this.values.map((v) => {
      if (v === null || v === undefined) return 'NULL';
      if (isExpression(v)) return buildOf(v, params);
      const name = nextName(params);
      params[name] = v;
      return `{:${name}}`;
    });
    const col = quoteColumn(this.col);
    if (values.length === 1) return `${col}${this.not ? '<>' : '='}${values[0]}`;
    return `${col} ${this.not ? 'NOT IN' : 'IN'} (${values.join(', ')})`;
  }
}

class HashExp extends Base {
  constructor(readonly data: Params) {
    super();
  }
  sql(params: Params): string {
    const parts: string[] = [];
    for (const name of Object.keys(this.data).sort()) {
      const value = this.data[name];
      if (value === null || value === undefined) parts.push(`${quoteColumn(name)} IS NULL`);
      else if (isExpression(value)) {
        const sql = buildOf(value, params);
        if (sql) parts.push(`(${sql})`);
      } else if (Array.isArray(value)) {
        const sql = new InExp(name, value, false).sql(params);
        if (sql) parts.push(sql);
      } else {
        const pn = nextName(params);
        params[pn] = value;
        parts.push(`${quoteColumn(name)}={:${pn}}`);
      }
    }
    return parts.join(' AND ');
  }
}

class NotExp extends Base {
  constructor(readonly e: unknown) {
    super();
  }
  sql(params: Params): string {
    const sql = buildOf(this.e, params);
    return sql ? `NOT (${sql})` : '';
  }
}

class AndOrExp extends Base {
  constructor(
    readonly exps: unknown[],
    readonly op: 'AND' | 'OR',
  ) {
    super();
  }
  sql(params: Params): string {
    const parts = this.exps.map((e) => (e === null || e === undefined ? '' : buildOf(e, params))).filter((s) => s !== '');
    if (parts.length === 1) return parts[0];
    if (!parts.length) return '';
    return `(${parts.join(`) ${this.op} (`)})`;
  }
}

const DEFAULT_LIKE_ESCAPE = ['\\', '\\\\', '%', '\\%', '_', '\\_'];

class LikeExp extends Base {
  left = true;
  right = true;
  escapes = DEFAULT_LIKE_ESCAPE;

  constructor(
    readonly col: string,
    readonly values: string[],
    readonly like: 'LIKE' | 'NOT LIKE',
    readonly or: boolean,
  ) {
    super();
  }
  /** Whether to add the "%" wildcard on the left and on the right of each value. */
  match(left: unknown, right: unknown): this {
    this.left = Boolean(left);
    this.right = Boolean(right);
    return this;
  }
  /** Pairs of (special character, its escaped form). */
  escape(...chars: unknown[]): this {
    this.escapes = chars.map(String);
    return this;
  }
  sql(params: Params): string {
    if (!this.values.length) return '';
    if (this.escapes.length % 2 !== 0) throw new Error('LikeExp.Escape must be a slice of even number of strings');
    const col = quoteColumn(this.col);
    const parts = this.values.map((raw) => {
      const name = nextName(params);
      let value = raw;
      for (let i = 0; i < this.escapes.length; i += 2) value = value.split(this.escapes[i]).join(this.escapes[i + 1]);
      params[name] = `${this.left ? '%' : ''}${value}${this.right ? '%' : ''}`;
      return `${col} ${this.like} {:${name}}`;
    });
    return parts.join(this.or ? ' OR ' : ' AND ');
  }
}

class ExistsExp extends Base {
  constructor(
    readonly e: unknown,
    readonly not: boolean,
  ) {
    super();
  }
  sql(params: Params): string {
    const sql = buildOf(this.e, params);
    if (!sql) return this.not ? '' : '0=1';
    return `${this.not ? 'NOT EXISTS' : 'EXISTS'} (${sql})`;
  }
}

class BetweenExp extends Base {
  constructor(
    readonly col: string,
    readonly from: unknown,
    readonly to: unknown,
    readonly not: boolean,
  ) {
    super();
  }
  sql(params: Params): string {
    const n1 = nextName(params);
    const n2 = `p${Object.keys(params).length + 1}`;
    params[n1] = this.from;
    params[n2] = this.to;
    return `${quoteColumn(this.col)} ${this.not ? 'NOT BETWEEN' : 'BETWEEN'} {:${n1}} AND {:${n2}}`;
  }
}

/** Expressions as they cross to the main thread, built with one params map (dbx's numbering). */
export function expressionsToWire(values: unknown[]): unknown[] {
  const params: Params = {};
  return values.map((v) => (isExpression(v) ? ({ sql: (v as Base).sql(params), params } satisfies ExpressionWire) : v));
}

const col = (c: unknown) => String(c ?? '');
const strings = (values: unknown[]) => values.map((v) => String(v ?? ''));

export function dbxNamespace(): object {
  return namespace('$dbx', {
    exp: (e: unknown, params?: unknown) => new Exp(String(e ?? ''), params && typeof params === 'object' ? (params as Params) : null),
    hashExp: (data: unknown) => new HashExp(paramsOf(data)),
    not: (e: unknown) => new NotExp(e),
    and: (...exps: unknown[]) => new AndOrExp(exps, 'AND'),
    or: (...exps: unknown[]) => new AndOrExp(exps, 'OR'),
    in: (c: unknown, ...values: unknown[]) => new InExp(col(c), values, false),
    notIn: (c: unknown, ...values: unknown[]) => new InExp(col(c), values, true),
    like: (c: unknown, ...values: unknown[]) => new LikeExp(col(c), strings(values), 'LIKE', false),
    notLike: (c: unknown, ...values: unknown[]) => new LikeExp(col(c), strings(values), 'NOT LIKE', false),
    orLike: (c: unknown, ...values: unknown[]) => new LikeExp(col(c), strings(values), 'LIKE', true),
    orNotLike: (c: unknown, ...values: unknown[]) => new LikeExp(col(c), strings(values), 'NOT LIKE', true),
    exists: (e: unknown) => new ExistsExp(e, false),
    notExists: (e: unknown) => new ExistsExp(e, true),
    between: (c: unknown, from: unknown, to: unknown) => new BetweenExp(col(c), from, to, false),
    notBetween: (c: unknown, from: unknown, to: unknown) => new BetweenExp(col(c), from, to, true),
  });
}
