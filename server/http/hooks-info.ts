// Outpost-only, for admins: GET /api/outpost/hooks describes the server's pb_hooks for the
// dashboard's Settings › Hooks: the folder, the loaded files, each registered hook with its tags
// (and whether Outpost fires it yet), the routes, routerUse's middlewares, the cron jobs with their
// next run and last result, the errors handlers ran into lately, and the last load that failed
// (../hooks/status.ts). PocketBase 0.22 has no such route (404): the page then says so.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { adminOnly } from '../core/errors';
import { lastLoadError, type HooksStatus } from '../hooks/status';

/** 0.22's --hooksPool default (the host's too). */
const DEFAULT_POOL = 25;

const NONE: Omit<HooksStatus, 'loadedAt'> = { files: [], hooks: [], routes: [], routerUse: [], crons: [], errors: [] };

export function registerHooksInfo(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/outpost/hooks', async (req) => {
    if (req.auth?.kind !== 'admin') throw adminOnly();
    const dir = ctx.options.hooksDir ? path.resolve(ctx.options.hooksDir) : null;
    const status = ctx.hooks?.status() ?? null;
    return {
      /** null: hooks are off (no --hooksDir). */
      dir,
      watch: dir !== null && ctx.options.hooksWatch === true,
      pool: ctx.options.hooksPool ?? DEFAULT_POOL,
      /** Whether hooks are loaded and running. */
      running: status !== null,
      loadedAt: status?.loadedAt ?? null,
      loadError: dir ? lastLoadError(dir) : null,
      ...(status ?? NONE),
    };
  });
}
