// Outpost-only, for admins: GET /api/outpost/find-record/:id — which collection holds a record
// id, for the dashboard's command palette. One primary-key lookup per base and auth table, all in
// one batch on the read pool (one round trip whatever the number of collections); view
// collections, whose id is no key and whose query may be slow, go in a second batch under a short
// budget, so a slow view costs only its own answer. Answers {collectionId, collectionName, id}, or
// 404 with NOT_FOUND_RECORD, a message PocketBase never sends: the dashboard tells a missing record
// from a server without this route (PocketBase 0.22 answers 'Not Found.') by that message.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { getCollections, refusedViewReason } from '../collections/store';
import { QueryTimeoutError, type ReadQuery } from '../db/database';
import { quoteIdent as q } from '../query/sql';
import { adminOnly, ApiError } from '../core/errors';
import { scopedAccess } from './permissions';

const NOT_FOUND_RECORD = 'No record with this id in any collection.';
/** A view batch past this is dropped: the palette answers for tables rather than wait on a view. */
const VIEW_BUDGET_MS = 2_000;
/** Record ids are short; a longer value cannot be one and is not worth a query. */
const MAX_ID_LENGTH = 255;

function lookups(collections: readonly Collection[], id: string): ReadQuery[] {
  return collections.map((c) => ({ sql: `SELECT 1 FROM ${q(c.name)} WHERE ${q('id')} = ? LIMIT 1`, params: [id], mode: 'pluck' }));
}

async function firstHit(ctx: AppContext, collections: readonly Collection[], id: string, budgetMs?: number): Promise<Collection | undefined> {
  if (collections.length === 0) return undefined;
  const results = await ctx.reads.batch(lookups(collections, id), budgetMs ? { budgetMs } : undefined);
  const i = results.findIndex((r) => r !== null);
  return i < 0 ? undefined : collections[i];
}

export function registerFindRecord(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string } }>('/api/outpost/find-record/:id', async (req) => {
    if (req.auth?.kind !== 'admin') throw adminOnly();
    const id = req.params.id;
    if (!id || id.length > MAX_ID_LENGTH) throw new ApiError(404, NOT_FOUND_RECORD);
    // served collections only: a view refused for reading a secret is never queried
    // (and, for a scoped admin, only those its role reads: an id must not reveal another's records)
    const access = scopedAccess(req);
    const all = getCollections(ctx).filter((c) => !refusedViewReason(ctx, c) && (!access || access.records(c, 'read')));
    const views = all.filter((c) => c.type === 'view');
    const [table, view] = await Promise.all([
      firstHit(ctx, all.filter((c) => c.type !== 'view'), id),
      firstHit(ctx, views, id, Math.min(VIEW_BUDGET_MS, ctx.reads.budgetMs)).catch((err: unknown) => {
        // a view that errors or overruns is skipped; the tables' answer still stands
        if (err instanceof QueryTimeoutError || (err instanceof Error && err.name === 'SqliteError')) return undefined;
        throw err;
      }),
    ]);
    const hit = table ?? view;
    if (!hit) throw new ApiError(404, NOT_FOUND_RECORD);
    return { collectionId: hit.id, collectionName: hit.name, id };
  });
}
