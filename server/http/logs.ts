// The admin-only logs API of PocketBase 0.22 (apis/logs.go): list, hourly stats and view.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { FilterError } from '../query/filter-ast';
import { listLogs } from '../services/logs-read';
import { QueryTimeoutError } from '../db/database';
import { ApiError, badRequest, notFound } from '../core/errors';
import { requireAdmin } from './guards';

export function registerLogs(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/logs', async (req) => {
    requireAdmin(req);
    try {
      return await listLogs(ctx.logReads, req.query as Record<string, unknown>);
    } catch (err) {
      // 0.22 answers any list failure (bad filter, sort, page, or a query error) with a 400
      if (err instanceof ApiError || err instanceof QueryTimeoutError) throw err;
      throw badRequest(undefined, {}, err instanceof Error ? err.message : String(err));
    }
  });

  app.get('/api/logs/stats', async (req) => {
    requireAdmin(req);
    const raw = (req.query as Record<string, unknown>).filter;
    const filter = String((Array.isArray(raw) ? raw[0] : raw) ?? '');
    try {
      return await ctx.logs.stats(filter);
    } catch (err) {
      if (err instanceof FilterError) throw badRequest('Invalid filter format.', {}, err.message);
      throw badRequest('Failed to generate logs stats.', {}, err instanceof Error ? err.message : String(err));
    }
  });

  app.get<{ Params: { id: string } }>('/api/logs/:id', async (req) => {
    requireAdmin(req);
    const log = ctx.logs.find(req.params.id);
    if (!log) throw notFound();
    return log;
  });
}
