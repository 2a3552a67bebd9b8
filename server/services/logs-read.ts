// Reading logs.db for the logs API (PocketBase 0.22 apis/logs.go + daos/log.go): the filter
// fields, the row → API shape, and the hourly stats. The stats are computed in time slices over
// the hour index, yielding to the event loop between slices, so a filter no index can serve
// (`message ~ 'x'` over a million rows) never blocks other requests for more than a slice; the
// counts of closed hours are kept per filter until logs are deleted.
import type { DB, ReadPool } from '../db/database';
import { compileFilter } from '../query/filter-compiler';
import { createSimpleResolver, type FieldResolver } from '../query/field-resolver';
import { runListQuery, type ListResult } from '../query/list';

/** Filter/sort fields of the logs API (0.22's logFilterFields); `data.*` goes through json_extract. */
const LOG_COLUMNS: Record<string, string> = {
  rowid: '`_logs`.rowid',
  id: '`_logs`.id',
  created: '`_logs`.created',
  updated: '`_logs`.updated',
  level: '`_logs`.level',
  message: '`_logs`.message',
  data: '`_logs`.data',
};

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The simple resolver, except that a one-level `data.key` path is written as a literal
 * `json_extract(data, '$.key')`: SQLite only matches an expression index when the expression is
 * the same, so a bound path would never use _logs_data_auth_idx or _logs_stats_idx.
 */
export function createLogsResolver(): FieldResolver {
  const simple = createSimpleResolver({ columns: LOG_COLUMNS, jsonColumns: ['data'] });
  return {
    resolve(identifier) {
      const m = /^data\.(.+)$/.exec(identifier);
      if (m && SIMPLE_KEY.test(m[1])) {
        // the key matched SIMPLE_KEY, so it cannot close the quoted path
        return { sql: `json_extract(\`_logs\`.data, '$.${m[1]}')`, params: [], noCoalesce: true };
      }
      return simple.resolve(identifier);
    },
  };
}

export interface LogModel {
  id: string;
  created: string;
  updated: string;
  data: Record<string, unknown>;
  message: string;
  level: number;
}

/** Row → API shape, in 0.22's key order (BaseModel fields, then data, message, level). */
function toLogModel(row: Record<string, unknown>): LogModel {
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(String(row.data ?? '{}'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed;
  } catch {
    /* a corrupt row reads as empty data */
  }
  return {
    id: String(row.id),
    created: String(row.created),
    updated: String(row.updated),
    data,
    message: String(row.message),
    level: Number(row.level),
  };
}

export function findLog(db: DB, id: string): LogModel | null {
  const row = db.prepare('SELECT * FROM `_logs` WHERE id = ? LIMIT 1').get(id) as Record<string, unknown> | undefined;
  return row ? toLogModel(row) : null;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How long stats scans run between yields: slices start at `firstSliceHours`, then grow or shrink
 * so each takes about `targetMs`. Mutable so tests can force many small steps.
 */
export const LOGS_SCAN_TUNING = { firstSliceHours: 2, targetMs: 25 };

/**
 * GET /api/logs (0.22's search provider over `_logs`). The query runs in the read pool (off the
 * event loop, under the query budget), so a filter no index serves never blocks other requests.
 * Bad input throws the list's ApiError 400.
 */
export async function listLogs(reads: ReadPool, query: Record<string, unknown>): Promise<ListResult<LogModel>> {
  return runListQuery(reads, { table: '_logs', columns: LOG_COLUMNS, resolver: createLogsResolver(), map: toLogModel, query });
}

export interface LogsStatsItem {
  total: number;
  date: string;
}

// The expression of _logs_created_hour_idx (and the first column of _logs_stats_idx).
const HOUR = "strftime('%Y-%m-%d %H:00:00', `created`)";
const HOUR_MS = 3_600_000;

// Closed hours never change: entries are written with the time they were made (at most a few
// seconds before their batch lands) and only pruning deletes. Their counts are kept per filter,
// so reopening the page scans only the hours since; pruning drops everything kept.
const CLOSED_MARGIN_MS = 60_000;
const STATS_CACHE_FILTERS = 32;
interface StatsCacheEntry {
  /** hours before this (ms) are counted in `items` */
  closedUntil: number;
  items: LogsStatsItem[];
}
interface StatsCache {
  generation: number;
  byFilter: Map<string, StatsCacheEntry>;
}
const statsCaches = new WeakMap<DB, StatsCache>();

function statsCache(db: DB): StatsCache {
  let cache = statsCaches.get(db);
  if (!cache) statsCaches.set(db, (cache = { generation: 0, byFilter: new Map() }));
  return cache;
}

/** Forgets the kept hourly counts (call after deleting logs). */
export function invalidateLogsStats(db: DB): void {
  const cache = statsCache(db);
  cache.generation++;
  cache.byFilter.clear();
}

/**
 * Hourly totals of the logs matching `filter` (0.22 LogsStats: count per
 * strftime('%Y-%m-%d %H:00:00', created), dates as 'YYYY-MM-DD HH:00:00.000Z', oldest first).
 * Throws FilterError for a bad filter, before any query runs.
 */
export async function logsStats(db: DB, filter: string, now = Date.now()): Promise<LogsStatsItem[]> {
  const where = filter ? compileFilter(filter, createLogsResolver()) : { sql: '', params: [] as unknown[] };
  const cond = where.sql ? ` AND (${where.sql})` : '';
  // two index seeks (one query with both min and max would scan the whole index)
  const edge = (dir: 'ASC' | 'DESC') =>
    db.prepare(`SELECT ${HOUR} FROM \`_logs\` WHERE ${HOUR} IS NOT NULL ORDER BY ${HOUR} ${dir} LIMIT 1`).pluck().get() as
      | string
      | undefined;
  const bounds = { lo: edge('ASC'), hi: edge('DESC') };

  // a filter with a macro (@now, @todayStart…) means something else tomorrow: never kept
  const cache = statsCache(db);
  const cacheable = !filter.includes('@');
  const generation = cache.generation;
  const kept = cacheable ? cache.byFilter.get(filter) : undefined;
  const closedBefore = Math.floor((now - CLOSED_MARGIN_MS) / HOUR_MS) * HOUR_MS;

  const out: LogsStatsItem[] = kept ? [...kept.items] : [];
  // count(*) rather than 0.22's count(id) (id is NOT NULL): the hour indexes then answer alone
  const slice = db.prepare(
    `SELECT count(*) AS total, ${HOUR} AS date FROM \`_logs\` WHERE ${HOUR} >= ? AND ${HOUR} < ?${cond} GROUP BY date ORDER BY date`,
  );
  if (bounds.lo && bounds.hi) {
    const last = hourMs(bounds.hi) + HOUR_MS;
    let from = Math.max(hourMs(bounds.lo), kept?.closedUntil ?? -Infinity);
    const tune = LOGS_SCAN_TUNING;
    let hours = tune.firstSliceHours;
    while (from < last) {
      const to = Math.min(last, from + hours * HOUR_MS);
      const t0 = performance.now();
      const rows = slice.all(hourText(from), hourText(to), ...where.params) as Array<{ total: number; date: string }>;
      for (const r of rows) out.push({ total: r.total, date: `${r.date}.000Z` });
      const spent = performance.now() - t0;
      from = to;
      if (spent < tune.targetMs / 2) hours = Math.min(hours * 2, 24 * 366);
      else if (spent > tune.targetMs * 2 && hours > 1) hours = Math.max(1, Math.floor(hours / 2));
      if (from < last) await yieldToLoop();
    }
  }
  // nothing was deleted meanwhile: keep the closed hours for next time
  if (cacheable && cache.generation === generation && closedBefore > (kept?.closedUntil ?? -Infinity)) {
    const closedDate = hourText(closedBefore);
    cache.byFilter.delete(filter);
    cache.byFilter.set(filter, { closedUntil: closedBefore, items: out.filter((i) => `${i.date.slice(0, 19)}` < closedDate) });
    if (cache.byFilter.size > STATS_CACHE_FILTERS) cache.byFilter.delete(cache.byFilter.keys().next().value as string);
  }
  // rows whose created is not a date group under NULL, as in 0.22 (an empty date)
  const odd = db.prepare(`SELECT count(*) AS total FROM \`_logs\` WHERE ${HOUR} IS NULL${cond}`).get(...where.params) as { total: number };
  if (odd.total > 0) out.unshift({ total: odd.total, date: '' });
  return out;
}

const hourMs = (text: string) => Date.parse(text.replace(' ', 'T') + 'Z');
const hourText = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
