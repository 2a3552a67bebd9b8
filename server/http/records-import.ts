// POST /api/collections/:collection/records-import — Outpost only (PocketBase 0.22 answers 404, and
// the dashboard's import then sends one request per record): up to MAX_IMPORT_ITEMS records for
// an admin in one request. Each item is saved as its own create or update would save it, in its
// own transaction (a failing item never leaves a half-written record, and does not stop the
// others); the answer lists one result per item, in order: {status: 200, id} or the item's error
// envelope {status, message, data}. Items run one after another, so the writer is never held
// longer than by one record.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { findCollection } from '../collections/store';
import { recordFromRow } from '../records/model';
import { requestInfoOf } from '../records/rules';
import { findRowById } from '../records/store';
import { createRecord, updateExistingRecord } from '../records/upsert';
import type { RecordData } from '../records/values';
import { adminOnly, ApiError, badRequest, notFound } from './errors';
import { parseJsonBody } from './json';

export const MAX_IMPORT_ITEMS = 500;

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

export function registerRecordsImport(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json']);
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
      } catch {
        done(badRequest('Failed to load the submitted data due to invalid formatting.'));
      }
    });
    scope.post<{ Params: { collection: string } }>('/api/collections/:collection/records-import', async (req) => {
      if (req.auth?.kind !== 'admin') throw adminOnly();
      const collection = findCollection(ctx, req.params.collection);
      if (!collection) throw notFound();
      if (collection.type === 'view') throw badRequest('Unsupported collection type.');
      const items = readItems(req.body);
      const results: ItemResult[] = [];
      for (const item of items) results.push(await saveItem(ctx, req, collection.id, item));
      return { items: results };
    });
  });
}
