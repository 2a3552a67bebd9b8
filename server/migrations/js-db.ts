// The `db` a migration receives (0.22's dbx.Builder) and `new DynamicModel(shape)` / `arrayOf(m)`:
// raw SQL through `db.newQuery(sql).bind({...}).execute() / .one(model) / .all(list)`, with dbx's
// `{:name}` placeholders and `{{table}}` / `[[column]]` quoting, and dbx's `select(...)` query
// builder (./js-select.ts). The other builder methods (insert, createTable, ...) are not offered
// and say so when called.
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { invalidateCollections } from '../collections/store';
import { strict } from './js-unsupported';
import { withStringLiterals } from '../db/dqs';
import { SelectQuery, type BuiltQuery } from './js-select';

type Row = Record<string, unknown>;
/** (Symbol.for: a hook executor's arrayOf lists carry the same key.) */
const TEMPLATE = Symbol.for('outpost.arrayOf');

/** The model `arrayOf(model)` made a list for (undefined for any other value). */
export const templateOf = (list: unknown): unknown => (Array.isArray(list) ? (list as unknown as { [TEMPLATE]?: unknown })[TEMPLATE] : undefined);

export class DynamicModel {
  constructor(shape?: unknown) {
    if (typeof shape !== 'object' || shape === null || !Object.keys(shape).length) throw new Error('[DynamicModel] missing shape data');
    Object.assign(this, JSON.parse(JSON.stringify(shape)));
  }
}

/** `arrayOf(model)`: an empty list `query.all()` fills with copies of `model`. */
export function arrayOf(model: unknown): unknown[] {
  const list: unknown[] = [];
  Object.defineProperty(list, TEMPLATE, { value: model });
  return list;
}

const quoteName = (name: string) => name.split('.').map((p) => `\`${p.replace(/`/g, '``')}\``).join('.');

/** dbx's SQL dialect → SQLite's: quoted names and named parameters. */
function dbxToSqlite(sql: string): string {
  return sql
    .replace(/\{\{([^}]+)\}\}/g, (_, n: string) => quoteName(n.trim()))
    .replace(/\[\[([^\]]+)\]\]/g, (_, n: string) => quoteName(n.trim()))
    .replace(/\{:(\w+)\}/g, ':$1');
}

function fill(target: Row, row: Row): void {
  for (const key of Object.keys(target)) {
    if (!(key in row)) continue;
    const v = row[key];
    const shape = target[key];
    if (typeof shape === 'number') target[key] = Number(v ?? 0);
    else if (typeof shape === 'boolean') target[key] = v === 1 || v === true || v === '1' || v === 'true';
    else if (typeof shape === 'string') target[key] = v === null || v === undefined ? '' : String(v);
    else if (typeof v === 'string' && shape !== null && typeof shape === 'object') {
      try {
        target[key] = JSON.parse(v);
      } catch {
        target[key] = v;
      }
    } else target[key] = v;
  }
}

export interface DbBuilder {
  newQuery(sql: string): object;
}

export function createDbBuilder(ctx: AppContext, db: DB): DbBuilder {
  const newQuery = (raw: string) => {
    let sql = dbxToSqlite(String(raw));
    let params: Row = {};
    // 0.22's SQLite reads "text" as a string where it names no column (../db/dqs.ts)
    const statement = () => {
      const prepared = withStringLiterals(sql, (text) => db.prepare(text));
      sql = prepared.sql;
      return prepared.result;
    };
    /** The bound values the statement names (none: no argument at all, as better-sqlite3 wants). */
    const used = (): [Row] | [] => {
      const names = new Set([...sql.matchAll(/:(\w+)/g)].map((m) => m[1]));
      const values = Object.entries(params).filter(([k]) => names.has(k));
      return values.length ? [Object.fromEntries(values.map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v]))] : [];
    };
    const query: Row = {
      bind(p: unknown) {
        params = { ...params, ...(typeof p === 'object' && p !== null ? (p as Row) : {}) };
        return proxy;
      },
      execute() {
        const r = statement().run(...used());
        // raw SQL may have touched _collections: the Dao reads them afresh
        invalidateCollections(ctx);
        return { rowsAffected: () => r.changes, lastInsertId: () => Number(r.lastInsertRowid) };
      },
      one(target: unknown) {
        const stmt = statement();
        const row = (stmt.reader ? stmt.get(...used()) : undefined) as Row | undefined;
        if (!row) throw new Error('sql: no rows in result set');
        if (typeof target === 'object' && target !== null) fill(target as Row, row);
        return target;
      },
      all(target: unknown) {
        const rows = statement().all(...used()) as Row[];
        if (!Array.isArray(target)) return rows;
        const template = (target as unknown as { [TEMPLATE]?: unknown })[TEMPLATE];
        target.length = 0;
        for (const row of rows) {
          const item = template && typeof template === 'object' ? Object.assign(Object.create(Object.getPrototypeOf(template) as object) as Row, JSON.parse(JSON.stringify(template))) : {};
          if (template) fill(item as Row, row);
          else Object.assign(item, row);
          target.push(item);
        }
        return target;
      },
    };
    const proxy = strict('db.newQuery(...)', query);
    return proxy;
  };
  const run = (op: 'one' | 'all', q: BuiltQuery, target: unknown) => (newQuery(q.sql) as unknown as { bind(p: Row): Record<typeof op, (t: unknown) => unknown> }).bind(q.params)[op](target);
  const select = (...cols: unknown[]) => new SelectQuery(run).select(...cols);
  return strict('db', { newQuery, select });
}
