// 0.22's file hooks (apis/file.go): onFileBeforeTokenRequest / onFileAfterTokenRequest around
// POST /api/files/token (e.model: the signed-in admin or auth record, or null; e.token: the token,
// which a handler may change, as it may put a model there), and onFileDownloadRequest before a
// file is served (tags: the collection's id and name; e.record, e.fileField, e.servedPath as 0.22's
// storage key, e.servedName, which a handler may change). A handler's false ends the request (200
// with no body unless one wrote a response), a response it wrote is the answer, its error is
// answered as 0.22 answers it. Nothing is prepared for a hook without handlers.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection, SchemaField } from '../collections/model';
import { collectionJson } from '../collections/normalize';
import { findCollection } from '../collections/store';
import { badRequest } from '../core/errors';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import { adminWire } from '../hooks/models-wire';
import type { HookEventWire, RecordWire, ResponseSnapshot } from '../hooks/protocol';
import { recordWire } from '../hooks/record-wire';
import { recordFromRow } from '../records/model';
import type { AdminRow } from '../services/admins';
import { HookAnswer } from './record-hooks';
import { requestSnapshot } from './hook-routes';

/** A file token's model as a hook event carries it (models-wire.ts' tagged snapshots). */
type ModelWire = ReturnType<typeof adminWire> | { __model: 'record'; record: RecordWire };

/** What the token route issued before the hooks: the model the token is for, and the token. */
export interface IssuedToken {
  model: { admin: AdminRow } | { record: Record<string, unknown>; collectionId: string } | null;
  token: string;
}

/** Whether the token hooks have any handler (for any tags): fixed for an app instance. */
export const hasFileTokenHooks = (ctx: AppContext): boolean =>
  !!ctx.hooks?.manifest.registrations.some((r) => r.kind === 'hook' && (r.name === 'onFileBeforeTokenRequest' || r.name === 'onFileAfterTokenRequest'));

function modelWire(ctx: AppContext, model: IssuedToken['model']): ModelWire | null {
  if (!model) return null;
  if ('admin' in model) return adminWire({ ...model.admin });
  const collection = findCollection(ctx, model.collectionId);
  return { __model: 'record', record: { collection: collection ? (collectionJson(collection) as unknown as Record<string, unknown>) : null, data: { ...model.record }, isNew: false } };
}

/** 0.22's BaseModelEvent tags: a record's collection id and name, another model's table. */
function tagsOf(wire: unknown): string[] {
  const m = wire as Partial<{ __model: string; record: RecordWire }> | null;
  if (m?.__model === 'admin') return ['_admins'];
  if (m?.__model === 'record') {
    const c = m.record?.collection as { id?: unknown; name?: unknown } | null | undefined;
    return c ? [String(c.id ?? ''), String(c.name ?? '')].filter(Boolean) : [];
  }
  return [];
}

async function trigger(ctx: AppContext, name: string, tags: string[], event: HookEventWire) {
  const hooks = ctx.hooks!;
  const result = await invokeSafely(() => hooks.trigger(name, tags, event), name);
  if (result.outcome === 'error') throw apiErrorOf(result.error);
  return result;
}

/** The token answer through the token hooks: `{token}`, or HookAnswer when the handlers decided it. */
export async function tokenWithHooks(ctx: AppContext, req: FastifyRequest, issued: IssuedToken): Promise<{ token: string }> {
  const hooks = ctx.hooks!;
  const request = requestSnapshot(ctx, req);
  let model: unknown = modelWire(ctx, issued.model);
  let token = issued.token;
  const apply = (fields: Record<string, unknown> | undefined) => {
    if (fields && 'model' in fields) model = fields.model;
    if (fields && typeof fields.token === 'string') token = fields.token;
  };
  // a response a handler wrote is the answer whatever follows (0.22's error handler leaves a
  // committed reply as it is)
  let written: ResponseSnapshot | null = null;
  const decided = () => new HookAnswer({ stopped: true, response: written });
  if (hooks.has('onFileBeforeTokenRequest', tagsOf(model))) {
    const before = await trigger(ctx, 'onFileBeforeTokenRequest', tagsOf(model), { request, fields: { model, token } });
    written = before.response ?? null;
    if (before.outcome === 'stop') throw decided();
    apply(before.event?.fields);
  }
  if (!model || token === '') throw written ? decided() : badRequest('Failed to generate file token.');
  if (hooks.has('onFileAfterTokenRequest', tagsOf(model))) {
    let after;
    try {
      after = await trigger(ctx, 'onFileAfterTokenRequest', tagsOf(model), { request, fields: { model, token } });
    } catch (err) {
      throw written ? decided() : err;
    }
    written ??= after.response ?? null;
    if (after.outcome === 'stop') throw decided();
    apply(after.event?.fields);
  }
  if (written) throw decided();
  return { token };
}

/** What onFileDownloadRequest left: the file to serve (0.22's storage key and name). */
export interface Served {
  servedPath: string;
  servedName: string;
}

/** onFileDownloadRequest; null when no handler runs. Throws HookAnswer when the handlers decided the answer. */
export async function downloadHook(ctx: AppContext, req: FastifyRequest, collection: Collection, row: Record<string, unknown>, field: SchemaField, served: Served): Promise<Served | null> {
  const tags = [collection.id, collection.name];
  if (!ctx.hooks?.has('onFileDownloadRequest', tags)) return null;
  const result = await trigger(ctx, 'onFileDownloadRequest', tags, {
    request: requestSnapshot(ctx, req),
    record: recordWire(recordFromRow(collection, row)),
    fields: { collection: collectionJson(collection) as unknown as Record<string, unknown>, fileField: { ...field }, ...served },
  });
  if (result.outcome === 'stop' || result.response) throw new HookAnswer({ stopped: true, response: result.response ?? null });
  const fields = result.event?.fields ?? {};
  return {
    servedPath: typeof fields.servedPath === 'string' ? fields.servedPath : served.servedPath,
    servedName: typeof fields.servedName === 'string' ? fields.servedName : served.servedName,
  };
}
