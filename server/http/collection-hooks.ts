// 0.22's hooks around the collections API (apis/collection.go): onCollectionsListRequest,
// onCollectionViewRequest, onCollection{Before,After}{Create,Update,Delete}Request,
// onCollections{Before,After}ImportRequest, and the model hooks of the collection writes
// (onModel*, tag `_collections`), in 0.22's order. e.collection(s) and e.model are Collection
// models; a before hook's changes are what is saved (0.22's Dao checks them no further than a
// migration's save, service.ts mode 'dao'). A model hook's error fails the write with the route's
// message; an import runs its model hooks per write before its transaction (import.ts), so a
// failing one leaves every collection as it was.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { collectionJson } from '../collections/normalize';
import { findCollection } from '../collections/store';
import { checkCollectionDelete, CREATE_FAILED, deleteCollection, DELETE_FAILED, previewCollection, saveCollection, UPDATE_FAILED } from '../collections/service';
import { applyImportPlan, importedCollections, importWriteFailure, planImport, readImport, replaceImported, type ImportPlan } from '../collections/import';
import { ApiError } from '../core/errors';
import { runModelHook } from '../hooks/model-hook';
import { collectionWire } from '../hooks/models-wire';
import { RequestHooks } from './request-hooks';

/** The model hooks' tag for collections (0.22's table name). */
const TABLE = '_collections';

type Json = Record<string, unknown>;

const jsonOf = (c: Collection): Json => collectionJson(c) as unknown as Json;

/** A collection as an event field: a tagged snapshot the executor builds into 0.22's Collection. */
const wire = (json: Json, isNew = false) => collectionWire(json, isNew);

/** The collection JSON a handler left in an event field (a Collection it read or set, or a plain object); null when none. */
function leftJson(value: unknown): Json | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const tagged = value as { __model?: unknown; json?: unknown };
  if (tagged.__model === 'collection') return tagged.json as Json;
  return tagged.__model === undefined ? (value as Json) : null;
}

/** JSON with its keys sorted: whether a handler changed a model, whatever order its class writes keys in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** What a handler left in place of `sent`, when it differs; null when it left it as it was. */
function changed(sent: Json, value: unknown): Json | null {
  const json = leftJson(value);
  return json && canonical(json) !== canonical(sent) ? json : null;
}

const hasModelHook = (ctx: AppContext, name: string): boolean => !!ctx.hooks?.has(name, [TABLE]);

/** GET /api/collections: onCollectionsListRequest (e.collections, e.result); the answer is e.result's page with e.collections. */
export async function listWithHooks(ctx: AppContext, req: FastifyRequest, page: Json, items: Collection[]): Promise<Json> {
  const hooks = new RequestHooks(ctx, req);
  if (!hooks.has('onCollectionsListRequest')) return { ...page, items };
  const sent = items.map(jsonOf);
  const left = await hooks.run('onCollectionsListRequest', { collections: sent.map((c) => wire(c)), result: page });
  hooks.answerIfWritten();
  const list = Array.isArray(left?.collections) ? left.collections.map(leftJson).filter((c): c is Json => c !== null) : sent;
  const result = left?.result && typeof left.result === 'object' && !Array.isArray(left.result) ? (left.result as Json) : {};
  return { ...page, ...result, items: list };
}

/** GET /api/collections/:collection: onCollectionViewRequest; the answer is e.collection. */
export async function viewWithHooks(ctx: AppContext, req: FastifyRequest, collection: Collection): Promise<Json> {
  const hooks = new RequestHooks(ctx, req);
  const json = jsonOf(collection);
  if (!hooks.has('onCollectionViewRequest')) return json;
  const left = await hooks.run('onCollectionViewRequest', { collection: wire(json) });
  hooks.answerIfWritten();
  return leftJson(left?.collection) ?? json;
}

/**
 * POST /api/collections and PATCH /api/collections/:collection: the form's checks, then
 * onCollectionBefore<action>Request → onModelBefore<action> → the save → onModelAfter<action> →
 * onCollectionAfter<action>Request; the answer is e.collection.
 */
export async function upsertWithHooks(ctx: AppContext, req: FastifyRequest, body: unknown, existing: Collection | null): Promise<Json> {
  const action = existing ? 'Update' : 'Create';
  const failMessage = existing ? UPDATE_FAILED : CREATE_FAILED;
  const existingId = existing?.id ?? null;
  const hooks = new RequestHooks(ctx, req);
  const beforeRequest = `onCollectionBefore${action}Request`;
  const beforeModel = `onModelBefore${action}`;
  return hooks.guard(async () => {
    let current: Json;
    let written = true;
    if (!hooks.has(beforeRequest) && !hasModelHook(ctx, beforeModel)) {
      current = jsonOf(saveCollection(ctx, body, existingId));
    } else {
      current = jsonOf(previewCollection(ctx, body, existingId));
      const left = await hooks.run(beforeRequest, { collection: wire(current, !existing) });
      current = leftJson(left?.collection) ?? current;
      if (hasModelHook(ctx, beforeModel)) {
        const run = await runModelHook(ctx, beforeModel, TABLE, wire(current, !existing), failMessage);
        current = leftJson(run.model) ?? current;
        written = run.proceed;
      }
      // (a false from the model hook skips the write, as 0.22's Dao skips it)
      if (written) current = jsonOf(saveCollection(ctx, current, existingId, 'dao'));
    }
    if (written && hasModelHook(ctx, `onModelAfter${action}`)) await runModelHook(ctx, `onModelAfter${action}`, TABLE, wire(current), failMessage);
    const left = await hooks.run(`onCollectionAfter${action}Request`, { collection: wire(current, !written && !existing) });
    hooks.answerIfWritten();
    return leftJson(left?.collection) ?? current;
  });
}

/**
 * DELETE /api/collections/:collection: onCollectionBeforeDeleteRequest → (0.22's refusals) →
 * onModelBeforeDelete → the delete → onModelAfterDelete → onCollectionAfterDeleteRequest.
 */
export async function deleteWithHooks(ctx: AppContext, req: FastifyRequest, collection: Collection): Promise<void> {
  const hooks = new RequestHooks(ctx, req);
  await hooks.guard(async () => {
    const sent = jsonOf(collection);
    const left = await hooks.run('onCollectionBeforeDeleteRequest', { collection: wire(sent) });
    // 0.22 deletes the model the handlers left in e.collection
    const otherId = String(changed(sent, left?.collection)?.id ?? collection.id);
    const target = otherId === collection.id ? collection : (findCollection(ctx, otherId) ?? collection);
    let deleted = true;
    if (hasModelHook(ctx, 'onModelBeforeDelete')) {
      // 0.22 refuses before its model hook runs
      checkCollectionDelete(ctx, target.id);
      deleted = (await runModelHook(ctx, 'onModelBeforeDelete', TABLE, wire(jsonOf(target)), DELETE_FAILED)).proceed;
    }
    if (deleted) {
      deleteCollection(ctx, target.id);
      if (hasModelHook(ctx, 'onModelAfterDelete')) await runModelHook(ctx, 'onModelAfterDelete', TABLE, wire(jsonOf(target)), DELETE_FAILED);
    }
    await hooks.run('onCollectionAfterDeleteRequest', { collection: wire(jsonOf(target)) });
    hooks.answerIfWritten();
  });
}

/** A model hook's error inside an import, as 0.22 words a failed write of it (its first line: no stack). */
function reasonOf(err: unknown): string {
  if (!(err instanceof ApiError)) throw err;
  return String(err.details ?? err.message).split('\n')[0];
}

/** The import's model before-hooks, one per planned write in 0.22's order; a false keeps that collection as it is. */
async function beforeImportWrites(ctx: AppContext, plan: ImportPlan): Promise<void> {
  for (const step of plan.steps) {
    const name = `onModelBefore${step.action}`;
    if (!hasModelHook(ctx, name)) continue;
    // (a view's second save sees what its first one's hooks left)
    const model = step.action === 'Delete' ? step.collection : (plan.items.find((i) => i.collection.id === step.collection.id)?.collection ?? step.collection);
    const sent = jsonOf(model);
    let run;
    try {
      run = await runModelHook(ctx, name, TABLE, wire(sent, step.action === 'Create'), '');
    } catch (err) {
      throw importWriteFailure(reasonOf(err));
    }
    if (!run.proceed) plan.skipped.add(model.id);
    const json = changed(sent, run.model);
    if (json && step.action !== 'Delete') replaceImported(plan, model.id, json);
  }
}

/** The import's model after-hooks once it committed (each runs; their errors fail the request, the import stays). */
async function afterImportWrites(ctx: AppContext, plan: ImportPlan): Promise<void> {
  const reasons: string[] = [];
  for (const step of plan.steps) {
    const name = `onModelAfter${step.action}`;
    if (plan.skipped.has(step.collection.id) || !hasModelHook(ctx, name)) continue;
    const model = step.action === 'Delete' ? step.collection : (findCollection(ctx, step.collection.id) ?? step.collection);
    try {
      await runModelHook(ctx, name, TABLE, wire(jsonOf(model)), '');
    } catch (err) {
      reasons.push(reasonOf(err));
    }
  }
  if (reasons.length) throw importWriteFailure(`after transaction errors: ${reasons.join('\n')}`);
}

/**
 * PUT /api/collections/import: onCollectionsBeforeImportRequest (e.collections, which a handler
 * may change) → the model hooks of each write → the import → onCollectionsAfterImportRequest.
 */
export async function importWithHooks(ctx: AppContext, req: FastifyRequest, body: unknown): Promise<void> {
  let input = readImport(body);
  const hooks = new RequestHooks(ctx, req);
  await hooks.guard(async () => {
    if (hooks.has('onCollectionsBeforeImportRequest')) {
      const sent = importedCollections(input).map(jsonOf);
      const left = await hooks.run('onCollectionsBeforeImportRequest', { collections: sent.map((c) => wire(c, true)) });
      const list = left?.collections;
      if (Array.isArray(list) && (list.length !== sent.length || list.some((c, i) => changed(sent[i], c)))) {
        input = readImport({ collections: list.map((c) => leftJson(c) ?? c), deleteMissing: input.deleteMissing });
      }
    }
    const plan = planImport(ctx, input);
    await beforeImportWrites(ctx, plan);
    applyImportPlan(ctx, plan);
    await afterImportWrites(ctx, plan);
    if (hooks.has('onCollectionsAfterImportRequest')) {
      const saved = plan.items.map((i) => findCollection(ctx, i.collection.id)).filter((c): c is Collection => !!c);
      await hooks.run('onCollectionsAfterImportRequest', { collections: saved.map((c) => wire(jsonOf(c))) });
    }
    hooks.answerIfWritten();
  });
}
