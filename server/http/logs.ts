// The admin-only logs API of PocketBase 0.22 (apis/logs.go): list, hourly stats and view.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { FilterError } from '../query/filter-ast';
import { compileFilter } from '../query/filter-compiler';
import { createSimpleResolver } from '../query/field-resolver';
import { runListQuery } from '../query/list';
import { badRequest, notFound } from './errors';
import { requireAdmin } from './guards';

/** Filter/sort fields of the logs API; `data.*` sub-paths go through json_extract. */
const LOG_COLUMNS: Record<string, string> = {
  rowid: '`_logs`.rowid',
  id: '`_logs`.id',
  created: '`_logs`.created',
  updated: '`_logs`.updated',
  level: '`_logs`.level',
  message: '`_logs`.message',
  data: '`_logs`.data',
};
const LOG_JSON_COLUMNS = ['data'];

export interface LogModel {
  id: string;
  created: string;
  updated: string;
  data: Record<string, unknown>;
  message: string;
  level: number;
}

/** Row → API shape, in 0.22's key order (BaseModel fields, then data, message, level). */
export function toLogModel(row: Record<string, unknown>): LogModel {
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

export function registerLogs(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/logs', async (req) => {
    requireAdmin(req);
    return runListQuery(ctx.logReads, {
      table: '_logs',
      columns: LOG_COLUMNS,
      jsonColumns: LOG_JSON_COLUMNS,
      query: req.query as Record<string, unknown>,
      map: toLogModel,
    });
  });

  app.get('/api/logs/stats', async (req) => {
    requireAdmin(req);
    const raw = (req.query as Record<string, unknown>).filter;
    const filter = String((Array.isArray(raw) ? raw[0] : raw) ?? '');
    let where = { sql: '', params: [] as unknown[] };
    if (filter) {
      try {
        const compiled = compileFilter(filter, createSimpleResolver({ columns: LOG_COLUMNS, jsonColumns: LOG_JSON_COLUMNS }));
        where = { sql: ` WHERE ${compiled.sql}`, params: compiled.params };
      } catch (err) {
        if (err instanceof FilterError) throw badRequest('Invalid filter format.', {}, err.message);
        throw err;
      }
    }
    // same expression as _logs_created_hour_idx, so the index serves the grouping
    const rows = ctx.logsDb
      .prepare(
        `SELECT count(id) AS total, strftime('%Y-%m-%d %H:00:00', created) AS date FROM \`_logs\`${where.sql} GROUP BY date ORDER BY date`,
      )
      .all(...where.params) as Array<{ total: number; date: string | null }>;
    return rows.map((r) => ({ total: r.total, date: r.date ? `${r.date}.000Z` : '' }));
  });

  app.get<{ Params: { id: string } }>('/api/logs/:id', async (req) => {
    requireAdmin(req);
    const row = ctx.logsDb.prepare('SELECT * FROM `_logs` WHERE id = ? LIMIT 1').get(req.params.id) as
      | Record<string, unknown>
      | undefined;
    if (!row) throw notFound();
    return toLogModel(row);
  });
}

