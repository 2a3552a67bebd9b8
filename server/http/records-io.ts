// Outpost-only endpoints for the dashboard's records import and export, for admins. PocketBase 0.22
// answers both with 404, and the dashboard then uses the plain records API instead.
//
// GET /api/collections/:collection/records-ids?filter=&sort= — the ids of every record the list
// would give for that filter and sort, in order, from one query under the read budget (at most
// MAX_EXPORT_IDS; `complete` says whether all fit). An export then fetches records by ids instead
// of paging, which would sort the whole collection again for every page of 500.
//
// POST /api/collections/:collection/records-by-ids?expand= {ids} — the records of up to
// MAX_IDS_PER_FETCH ids, in the order given (ids gone meanwhile are left out), as the list gives
// them (with expand). An export fetches the ids of records-ids this way: the list would need a
// filter of one `id='…'` term per record, whose parsing cost more than reading the records.
//
// POST /api/collections/:collection/records-import — up to MAX_IMPORT_ITEMS records in one request. Each item is saved as its own create or update would save it, in its
// own transaction (a failing item never leaves a half-written record, and does not stop the
// others); the answer lists one result per item, in order: {status: 200, id} or the item's error
// envelope {status, message, data}. Items run one after another (other requests are answered
// in between), so the writer is never held longer than by one record.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { collectionLookup, findCollection, refusedViewReason } from '../collections/store';
import { runListQuery } from '../query/list';
import { bind, quoteIdent as q, raw, sql } from '../query/sql';
import { createRecordResolver } from '../query/record-resolver';
import { recordFromRow } from '../records/model';
import { requestInfoOf } from '../records/rules';
import { findRowById } from '../records/store';
import { createRecord, updateExistingRecord } from '../records/upsert';
import type { RecordData } from '../../src/fields/record-values';
import { adminOnly, ApiError, badRequest, forbidden, notFound } from '../core/errors';
import { parseJsonBody } from '../core/json';
import { readBody } from './form-bind';
import { enrich, output } from './records';
import { scopedAccess } from './permissions';

const LOAD_FAILED = 'Failed to load the submitted data due to invalid formatting.';
const MAX_IMPORT_ITEMS = 500;
const MAX_EXPORT_IDS = 500_000;
const MAX_IDS_PER_FETCH = 500;
/** A batch gives the event loop back at least this often. */
const YIELD_EVERY_MS = 10;

type ItemResult = { status: 200; id: string } | { status: number; message: string; data: unknown };

interface ImportItem {
  /** Update the record with this id (absent: create). */
  update?: string;
  data: RecordData;
}

function readItems(body: unknown): ImportItem[] {
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_IMPORT_ITEMS) {
    throw badRequest(`Expected "items": an array of 1 to ${MAX_IMPORT_ITEMS} records.`);
  }
  return items.map((item) => {
    const { update, data } = (item ?? {}) as { update?: unknown; data?: unknown };
    if (!data || typeof data !== 'object' || Array.isArray(data) || (update !== undefined && (typeof update !== 'string' || update === ''))) {
      throw badRequest('Each item needs "data" (an object) and an optional "update" (a record id).');
    }
    return { update: update as string | undefined, data: { ...(data as RecordData) } };
  });
}

async function saveItem(ctx: AppContext, req: FastifyRequest, collectionId: string, item: ImportItem): Promise<ItemResult> {
  try {
    // looked up again per item: a collection changed or deleted mid-import fails the rest cleanly
    const collection = findCollection(ctx, collectionId);
    if (!collection) throw notFound();
    const input = { data: item.data, uploads: new Map(), info: requestInfoOf(ctx, req, item.data) };
    if (item.update === undefined) return { status: 200, id: String((await createRecord(ctx, collection, input)).data.id) };
    const row = findRowById(ctx, collection, item.update);
    if (!row) throw notFound();
    return { status: 200, id: String((await updateExistingRecord(ctx, recordFromRow(collection, row), input, true)).data.id) };
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, message: err.message, data: err.data };
    console.error('[records-import] item failed', err);
    return { status: 400, message: 'Something went wrong while processing your request.', data: {} };
  }
}

function adminCollection(ctx: AppContext, req: FastifyRequest<{ Params: { collection: string } }>): Collection {
  if (req.auth?.kind !== 'admin') throw adminOnly();
  const collection = findCollection(ctx, req.params.collection);
  if (!collection) throw notFound();
  const refused = refusedViewReason(ctx, collection);
  if (refused) throw badRequest(`This view collection is not served: ${refused}.`);
  return collection;
}

async function recordIds(ctx: AppContext, req: FastifyRequest<{ Params: { collection: string } }>) {
  const collection = adminCollection(ctx, req);
  const query = (req.query as Record<string, unknown>) ?? {};
  const info = requestInfoOf(ctx, req);
  const result = await runListQuery<{ id: unknown }>(ctx.reads, {
    table: collection.name,
    columns: {},
    query: { filter: query.filter, sort: query.sort, page: '1', perPage: String(MAX_EXPORT_IDS + 1), skipTotal: '1' },
    resolver: createRecordResolver({ lookup: collectionLookup(ctx), collection, request: info, allowHiddenFields: true }),
    select: `${q(collection.name)}.${q('id')}`,
    rowid: collection.type !== 'view',
    maxPerPage: MAX_EXPORT_IDS + 1,
  });
  const ids = result.items.slice(0, MAX_EXPORT_IDS).map((r) => String(r.id));
  return { ids, complete: result.items.length <= MAX_EXPORT_IDS };
}

function readIds(body: unknown): string[] {
  const ids = (body as { ids?: unknown } | null)?.ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS_PER_FETCH || !ids.every((id) => typeof id === 'string' && id !== '')) {
    throw badRequest(`Expected "ids": an array of 1 to ${MAX_IDS_PER_FETCH} record ids.`);
  }
  return ids as string[];
}

async function recordsByIds(ctx: AppContext, req: FastifyRequest<{ Params: { collection: string } }>) {
  const collection = adminCollection(ctx, req);
  // forms too: ids as repeated values, items only in @jsonPayload
  const ids = readIds(readBody(req, { ids: 'strings' }, LOAD_FAILED));
  const info = requestInfoOf(ctx, req);
  const table = q(collection.name);
  const result = await runListQuery(ctx.reads, {
    table: collection.name,
    columns: {},
    query: { perPage: String(ids.length), skipTotal: '1' },
    resolver: createRecordResolver({ lookup: collectionLookup(ctx), collection, request: info, allowHiddenFields: true }),
    baseWhere: sql`${raw(`${table}.${q('id')}`)} IN (SELECT value FROM json_each(${bind(JSON.stringify(ids))}))`,
    select: `${table}.*`,
    rowid: collection.type !== 'view',
    maxPerPage: MAX_IDS_PER_FETCH,
  });
  const byId = new Map(result.items.map((row) => [String((row as { id: unknown }).id), recordFromRow(collection, row as Record<string, unknown>)]));
  const records = ids.flatMap((id) => byId.get(id) ?? []);
  await enrich(ctx, req, records, info);
  return { items: records.map((r) => output(req, info, r)) };
}

export function registerRecordsIo(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json']);
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
      } catch {
        done(badRequest(LOAD_FAILED));
      }
    });
    scope.get<{ Params: { collection: string } }>('/api/collections/:collection/records-ids', async (req) => recordIds(ctx, req));
    scope.post<{ Params: { collection: string } }>('/api/collections/:collection/records-by-ids', async (req) => recordsByIds(ctx, req));
    scope.post<{ Params: { collection: string } }>('/api/collections/:collection/records-import', async (req) => {
      const collection = adminCollection(ctx, req);
      if (collection.type === 'view') throw badRequest('Unsupported collection type.');
      // an item is a create or an update: a scoped admin's role grants both, or none is tried
      const access = scopedAccess(req);
      if (access && !(access.records(collection, 'create') && access.records(collection, 'update'))) throw forbidden();
      const items = readItems(readBody(req, { items: 'json' }, LOAD_FAILED));
      const results: ItemResult[] = [];
      let sliceStart = performance.now();
      for (const item of items) {
        results.push(await saveItem(ctx, req, collection.id, item));
        // an admin's save awaits nothing real (no rule to check): let other requests in between
        if (performance.now() - sliceStart > YIELD_EVERY_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
      return { items: results };
    });
  });
}
