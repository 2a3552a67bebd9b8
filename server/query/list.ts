// PocketBase's paged list (tools/search/provider.go, 0.22): page/perPage/sort/filter/skipTotal
// from the raw query string, one filtered SELECT and (unless skipped) one COUNT.
import { ReadQueryError, shapeOf, type ReadPool, type ReadQuery } from '../db/database';
import { ApiError } from '../core/errors';
import { FilterError, FilterLimitError } from './filter-ast';
import { compileFilter } from './filter-compiler';
import { createSimpleResolver, type FieldResolver } from './field-resolver';
import { compileSort, parseSort } from './sort';
import { joinSql, quoteIdent, type Sql } from './sql';

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 500;

export interface ListResult<T = unknown> {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: T[];
}

export interface ListQueryOptions<T> {
  table: string;
  /** filter/sort field name → SQL column expression (trusted, from code). */
  columns: Record<string, string>;
  /** Columns whose dotted sub-paths (`data.auth`) resolve through json_extract. */
  jsonColumns?: string[];
  /** The raw request query (Fastify's req.query). */
  query: Record<string, unknown>;
  map?: (row: Record<string, unknown>) => T;
  /** Always-applied condition (e.g. a collection rule), ANDed with the user filter. */
  baseWhere?: Sql;
  /** Replaces the resolver built from columns/jsonColumns (records, rules). */
  resolver?: FieldResolver;
  /** SELECT list; default `"table".*`. */
  select?: string;
  /** Column counted DISTINCT for totalItems; default `"table".id` when `id` is a column, else `*`. */
  countColumn?: string;
  /** Whether `rowid` may be used in sort/filter (false for views and WITHOUT ROWID tables). Default true. */
  rowid?: boolean;
  /** The largest page (default MAX_PER_PAGE, PocketBase's 500). */
  maxPerPage?: number;
  /** Whether SQLite reads the rows of `sql` in their ORDER BY order from an index (no sort of whole rows). */
  sortsFromIndex?: (sql: string, params: readonly unknown[]) => boolean;
}

const GENERIC_MESSAGE = 'Something went wrong while processing your request.';

/** A list query compiled: its page parameters and the statements to run (the page, then the count). */
export interface ListPlan {
  page: number;
  perPage: number;
  skipTotal: boolean;
  /** Whether the page's offset is a safe integer (else no page statement runs: no items). */
  paged: boolean;
  queries: readonly ReadQuery[];
  /**
   * The same statements with the page read directly, kept when `queries` look the page's rows up
   * late: the better choice while few rows match (below LATE_LOOKUP_FROM), as `matched` says.
   */
  direct?: readonly ReadQuery[];
  /** The key the read pool keeps the plan's cost under, whichever form runs (database.ts ReadOptions.shape). */
  shape: string;
  /** How many rows matched when the plan last ran with its total (a hint shared by the requests of a kept plan). */
  matched?: number;
}

/**
 * From this many matching rows the late row look-up pays: below it the look-up's IN list and second
 * sort cost more than sorting whole rows (200 records sorted by a number: 149 µs against 90 µs, half
 * of a small list request; 20,000 narrow or wide rows: direct still as fast or faster).
 */
export const LATE_LOOKUP_FROM = 10_000;

/** Runs a PocketBase-style list query; bad input throws ApiError 400 (detail in `details`). */
export async function runListQuery<T = Record<string, unknown>>(reads: ReadPool, options: ListQueryOptions<T>): Promise<ListResult<T>> {
  return runListPlan(reads, planListQuery(options), options.map);
}

/**
 * What planListQuery reads of the request query, as one string: two queries with the same key
 * compile to the same plan for the same resolver state (callers that cache plans key on it).
 */
export function listPlanKey(query: Record<string, unknown>): string {
  return JSON.stringify([query.skipTotal, query.page, query.perPage, query.filter, query.sort].map(first));
}

/** Compiles a list query (no database work but sortsFromIndex); bad input throws ApiError 400. */
export function planListQuery<T>(options: ListQueryOptions<T>): ListPlan {
  const table = quoteIdent(options.table);
  const q = options.query;
  const skipTotal = parseGoBool(first(q.skipTotal), 'skipTotal') ?? false;
  let page = parseGoInt(first(q.page), 'page') ?? 1;
  let perPage = parseGoInt(first(q.perPage), 'perPage') ?? DEFAULT_PER_PAGE;
  if (page <= 0) page = 1;
  if (perPage <= 0) perPage = DEFAULT_PER_PAGE;
  else if (perPage > (options.maxPerPage ?? MAX_PER_PAGE)) perPage = options.maxPerPage ?? MAX_PER_PAGE;

  const resolver = options.resolver ?? createSimpleResolver({ columns: withRowid(options), jsonColumns: options.jsonColumns });

  const conditions: Sql[] = [];
  if (options.baseWhere && options.baseWhere.sql.trim()) conditions.push(wrap(options.baseWhere));
  let order: Sql | null = null;
  try {
    const filter = first(q.filter);
    if (filter) conditions.push(wrap(compileFilter(filter, resolver)));
    const sort = first(q.sort);
    if (sort) order = compileSort(parseSort(sort), resolver);
  } catch (err) {
    if (err instanceof FilterLimitError) throw new ApiError(400, `Invalid filter - ${err.message}.`, {}, err.message);
    if (err instanceof FilterError) throw new ApiError(400, GENERIC_MESSAGE, {}, err.message);
    throw err;
  }

  const joins = resolver.joins?.() ?? [];
  const from = joinSql([{ sql: table, params: [] }, ...joins], ' ');
  const where = conditions.length ? joinSql(conditions, ' AND ') : null;
  const whereSql = where ? ` WHERE ${where.sql}` : '';
  const whereParams = where?.params ?? [];
  const distinct = joins.length > 0 ? 'DISTINCT ' : '';

  // the page and the count run as one batch on one pooled connection, under one budget
  const queries: ReadQuery[] = [];
  let direct: ReadQuery[] | undefined;
  const offset = perPage * (page - 1);
  if (Number.isSafeInteger(offset)) {
    const select = options.select ?? `${table}.*`;
    const orderSql = order ? ` ORDER BY ${order.sql}` : '';
    const pageParams = [...from.params, ...whereParams, ...(order?.params ?? []), perPage, offset];
    const pageSql = `SELECT ${distinct}${select} FROM ${from.sql}${whereSql}${orderSql} LIMIT ? OFFSET ?`;
    if (order && joins.length === 0 && options.rowid !== false && !order.sql.includes('RANDOM()') && !options.sortsFromIndex?.(pageSql, pageParams)) {
      // Late row look-up: the sort picks the page's rowids, then only those rows are read whole.
      // Sorting whole rows made SQLite copy every candidate row into its sorter: `-created` over
      // 100,000 records without an index took 67 ms, this 22 ms. When an index gives the order
      // (sortsFromIndex), the page is read directly: the look-up cost 0.07-0.16 ms more there.
      // The outer ORDER BY repeats the sort over the page's rows (deterministic: RANDOM() is left out).
      // `_rowid_`, as PocketBase forbids it as a field name (a field may be called `rowid`).
      queries.push({
        sql: `SELECT ${select} FROM ${table} WHERE ${table}._rowid_ IN (SELECT ${table}._rowid_ FROM ${from.sql}${whereSql}${orderSql} LIMIT ? OFFSET ?)${orderSql}`,
        params: [...pageParams, ...order.params],
      });
      direct = [{ sql: pageSql, params: pageParams }];
    } else {
      queries.push({ sql: pageSql, params: pageParams });
    }
  }
  if (!skipTotal) {
    const countCol = options.countColumn ?? (Object.hasOwn(options.columns, 'id') ? `${table}.id` : null);
    // DISTINCT only matters when joins can repeat a row; without joins it would make SQLite build
    // a temp b-tree over every matching id (30x slower on large collections).
    const countExpr = countCol && joins.length > 0 ? `COUNT(DISTINCT ${countCol})` : 'COUNT(*)';
    const count: ReadQuery = { sql: `SELECT ${countExpr} FROM ${from.sql}${whereSql}`, params: [...from.params, ...whereParams], mode: 'pluck' };
    queries.push(count);
    direct?.push(count);
  }
  return { page, perPage, skipTotal, paged: Number.isSafeInteger(offset), queries, direct, shape: shapeOf(queries) };
}

/** Runs a compiled list query; SQL the database refuses is the 400 PocketBase answers. */
export async function runListPlan<T = Record<string, unknown>>(reads: ReadPool, plan: ListPlan, map?: (row: Record<string, unknown>) => T): Promise<ListResult<T>> {
  const { page, perPage, skipTotal } = plan;
  let results: unknown[];
  // (the first run of a plan looks up late: it is the safe choice while the size is unknown)
  const queries = plan.direct && plan.matched !== undefined && plan.matched < LATE_LOOKUP_FROM ? plan.direct : plan.queries;
  try {
    results = await reads.batch([...queries], { shape: plan.shape });
  } catch (err) {
    // e.g. a json path or a view the SQL cannot evaluate: a bad request, as in PocketBase
    if (err instanceof ReadQueryError) throw new ApiError(400, GENERIC_MESSAGE, {}, err.message);
    throw err;
  }
  const rows = (plan.paged ? results.shift() : []) as Record<string, unknown>[];
  let totalItems = -1;
  let totalPages = -1;
  if (!skipTotal) {
    totalItems = Number(results.shift());
    totalPages = Math.ceil(totalItems / perPage);
    plan.matched = totalItems;
  }
  const items = map ? rows.map(map) : (rows as T[]);
  return { page, perPage, totalItems, totalPages, items };
}

function withRowid<T>(options: ListQueryOptions<T>): Record<string, string> {
  if (options.rowid === false || Object.hasOwn(options.columns, 'rowid')) return options.columns;
  return { ...options.columns, rowid: `${quoteIdent(options.table)}.rowid` };
}

const wrap = (s: Sql): Sql => ({ sql: `(${s.sql})`, params: s.params });

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v === null) return undefined;
  return String(v);
}

/** Go's strconv.Atoi: optional sign and digits only; "" means unset. */
function parseGoInt(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(n)) {
    throw new ApiError(400, GENERIC_MESSAGE, {}, `strconv.Atoi: parsing ${JSON.stringify(raw)}: invalid ${name}`);
  }
  return n;
}

/** Go's strconv.ParseBool. */
function parseGoBool(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
  throw new ApiError(400, GENERIC_MESSAGE, {}, `strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid ${name}`);
}
