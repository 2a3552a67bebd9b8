// /api/collections (PocketBase 0.22): admin-only list, view, create, update, delete and import,
// with 0.22's hooks around each (collection-hooks.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { runListQuery } from '../query/list';
import { collectionFromRow, collectionJson } from '../collections/normalize';
import { findCollection } from '../collections/store';
import { LOAD_FAILED } from '../collections/form';
import { forbidden, notFound } from '../core/errors';
import type { Sql } from '../query/sql';
import { scopedAccess } from './permissions';
import { requireRoleReach } from './collection-reach';
import { readBody, type FormSpec } from './form-bind';
import { requireAdmin } from './guards';
import { deleteWithHooks, importWithHooks, listWithHooks, upsertWithHooks, viewWithHooks } from './collection-hooks';

/** 0.22's collection upsert form: schema and options only through JSON (or `@jsonPayload`). */
const UPSERT_FORM: FormSpec = {
  id: 'string',
  type: 'string',
  name: 'string',
  system: 'bool',
  schema: 'json',
  indexes: 'strings',
  listRule: 'string',
  viewRule: 'string',
  createRule: 'string',
  updateRule: 'string',
  deleteRule: 'string',
  options: 'json',
};
const IMPORT_FORM: FormSpec = { collections: 'json', deleteMissing: 'bool' };

export function registerCollections(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/collections', async (req) => {
    requireAdmin(req);
    const { page, perPage, totalItems, totalPages, items } = await runListQuery(ctx.reads, {
      table: '_collections',
      baseWhere: seenCollections(ctx, req),
      // 0.22's collection list resolves exactly these fields in filter and sort.
      columns: {
        id: '"_collections"."id"',
        created: '"_collections"."created"',
        updated: '"_collections"."updated"',
        name: '"_collections"."name"',
        system: '"_collections"."system"',
        type: '"_collections"."type"',
      },
      query: req.query as Record<string, unknown>,
      map: (row) => collectionJson(collectionFromRow(row)),
    });
    return listWithHooks(ctx, req, { page, perPage, totalItems, totalPages }, items);
  });

  app.get('/api/collections/:collection', async (req) => {
    requireAdmin(req);
    const collection = mustFind(ctx, req);
    if (!(scopedAccess(req)?.sees(collection) ?? true)) throw forbidden();
    return viewWithHooks(ctx, req, collection);
  });

  app.post('/api/collections', async (req) => {
    requireAdmin(req);
    const form = readBody(req, UPSERT_FORM, LOAD_FAILED);
    requireRoleReach(ctx, req, form, null);
    return upsertWithHooks(ctx, req, form, null);
  });

  app.patch('/api/collections/:collection', async (req) => {
    requireAdmin(req);
    const existing = mustFind(ctx, req);
    const form = readBody(req, UPSERT_FORM, LOAD_FAILED);
    requireRoleReach(ctx, req, form, existing);
    return upsertWithHooks(ctx, req, form, existing);
  });

  app.delete('/api/collections/:collection', async (req, reply) => {
    requireAdmin(req);
    await deleteWithHooks(ctx, req, mustFind(ctx, req));
    return reply.status(204).send();
  });

  app.put('/api/collections/import', async (req, reply) => {
    requireAdmin(req);
    await importWithHooks(ctx, req, readBody(req, IMPORT_FORM, LOAD_FAILED));
    return reply.status(204).send();
  });
}

function mustFind(ctx: AppContext, req: FastifyRequest) {
  const key = (req.params as { collection?: string }).collection ?? '';
  const found = key ? findCollection(ctx, key) : undefined;
  if (!found) throw notFound();
  return found;
}

/** A scoped admin lists the collections its role sees (any grant on them); everyone else all. */
function seenCollections(ctx: AppContext, req: FastifyRequest): Sql | undefined {
  const access = scopedAccess(req);
  if (!access) return undefined;
  const ids = ctx.collections.cached().list.filter((c) => access.sees(c)).map((c) => c.id);
  return ids.length ? { sql: `"_collections"."id" IN (${ids.map(() => '?').join(', ')})`, params: ids } : { sql: '0', params: [] };
}

