// Outpost-only, for admins: GET /api/outpost/migrations lists pb_migrations (applied and pending)
// for the dashboard's Settings › Migrations. And automigrate's report: a collection change made
// through the API runs with a migration sink (../migrations/automigrate.ts), and the answer names
// the file written in `X-Outpost-Migration` (PocketBase sends no such header; the dashboard then
// shows nothing).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { adminOnly } from '../core/errors';
import { runWithMigrationSink, type MigrationSink } from '../migrations/automigrate';
import { migrationsStatus } from '../migrations/runner';

const MIGRATION_HEADER = 'X-Outpost-Migration';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** /api/collections, /api/collections/:idOrName and /api/collections/import (not the records routes). */
const COLLECTION_ROUTE = /^\/api\/collections(\/[^/?]+)?\/?(\?|$)/;

export function registerMigrations(app: FastifyInstance, ctx: AppContext, dir: string): void {
  app.get('/api/outpost/migrations', async (req) => {
    if (req.auth?.kind !== 'admin') throw adminOnly();
    return { dir, automigrate: ctx.options.automigrate === true, items: migrationsStatus(ctx.migrations, dir) };
  });

  if (!ctx.options.automigrate) return;
  const sinks = new WeakMap<FastifyRequest, MigrationSink>();
  app.addHook('preHandler', (req, _reply, done) => {
    if (!WRITES.has(req.method) || !COLLECTION_ROUTE.test(req.url)) return done();
    const sink: MigrationSink = { written: [] };
    sinks.set(req, sink);
    runWithMigrationSink(sink, done);
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    const written = sinks.get(req)?.written;
    if (written?.length) {
      reply.header(MIGRATION_HEADER, written.join(', '));
      reply.header('Access-Control-Expose-Headers', MIGRATION_HEADER);
    }
    done(null, payload);
  });
}
