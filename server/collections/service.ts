// Create, update and delete of one collection: bind, validate, then write the `_collections` row
// and apply the table/view changes in one IMMEDIATE transaction, so a failure at any step leaves
// the database as it was. Messages and error shapes follow PocketBase 0.22's apis/collection.go.
// The API's hooks run between 0.22's checks and its write (they are asynchronous, the write is
// not): previewCollection and checkCollectionDelete are those checks alone, in a transaction that
// is rolled back.
import { auditCollection } from '../audit/changes';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { ApiError, badRequest } from '../core/errors';
import { newId } from '../services/passwords';
import { getStorage } from '../services/storage';
import { checkRule } from '../query/record-resolver';
import type { Collection } from './model';
import { bindCollectionForm } from './form';
import { buildIndex, isValidIndex, parseIndex, renameInIndex } from '../../src/lib/collections/indexes';
import { deleteCollectionRow, invalidateCollections, notifyCollectionsChanged, readCollections, writeCollectionRow, writeSchema, type CollectionLookup } from './store';
import { createRecordTable, createViewFor, dropRecordTable, IndexCreateError, updateRecordTable } from './sync';
import { validateCollection } from './validate';
import { inferViewFields, lookupOver, refreshViewCollections } from './views';
import { q } from './ddl';
import { isRelationField } from '../../src/fields/relation/field';

export const CREATE_FAILED = 'Failed to create the collection.';
export const UPDATE_FAILED = 'Failed to update the collection.';
export const DELETE_FAILED = 'Failed to delete collection due to existing dependency.';

/** A rule check bound to a candidate collection: the error text, or null when the rule compiles. */
export function ruleChecker(lookup: CollectionLookup, candidate: Collection): (rule: string) => string | null {
  return (rule) => {
    try {
      checkRule(lookup, candidate, rule);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };
}

/** How a save validates: 'form' as the API's forms, 'dao' as a migration's Dao (validate.ts). */
export type SaveMode = 'form' | 'dao';

/** A collection as the upsert form leaves it: bound and validated against the stored state, not written. */
interface Candidate {
  candidate: Collection;
  existing: Collection | null;
  lookup: CollectionLookup;
}

/** Binds `body` and validates it (0.22's form, or only what its Dao asks in mode 'dao'). */
function candidateOf(db: DB, body: unknown, existingId: string | null, mode: SaveMode): Candidate {
  const all = readCollections(db);
  const existing = existingId ? (all.find((c) => c.id === existingId) ?? null) : null;
  if (existingId && !existing) throw new ApiError(404, "The requested resource wasn't found.");

  const form = bindCollectionForm(body, existing);
  const candidate = form.collection;
  if (!existing) candidate.id = form.requestedId || newId();
  const others = all.filter((c) => c.id !== existing?.id);
  const lookup = lookupOver([candidate, ...others]);

  let viewQueryError: string | null = null;
  if (candidate.type === 'view') {
    const inferred = inferViewFields(db, String(candidate.options.query ?? ''), lookup, existing?.schema, mode === 'dao');
    candidate.schema = inferred.schema;
    viewQueryError = inferred.error;
  }

  const errors = validateCollection({
    candidate,
    existing,
    others,
    lookup,
    requestedId: existing ? candidate.id : form.requestedId,
    fieldIssues: form.fieldIssues,
    invalidOptions: form.invalidOptions,
    viewQueryError,
    checkRule: ruleChecker(lookup, candidate),
    mode,
  });
  if (Object.keys(errors).length) throw badRequest(existing ? UPDATE_FAILED : CREATE_FAILED, errors);
  candidate.created = existing ? existing.created : '';
  candidate.updated = existing ? existing.updated : '';
  candidate.indexes = candidate.type === 'view' ? [] : normalizeIndexes(candidate, existing);
  return { candidate, existing, lookup };
}

/** Validates `body` against the stored state and saves it; returns the saved collection. */
export function saveCollection(ctx: AppContext, body: unknown, existingId: string | null, mode: SaveMode = 'form'): Collection {
  let saved = null as Collection | null;
  let previous = null as Collection | null;
  try {
    writeSchema(ctx, (db) => {
      const { candidate, existing, lookup } = candidateOf(db, body, existingId, mode);
      previous = existing;
      const now = nowDateTime();
      candidate.created = existing ? existing.created : now;
      candidate.updated = now;
      applyCollection(db, candidate, existing, lookup, existing ? UPDATE_FAILED : CREATE_FAILED, mode);
      refreshViewCollections(db, candidate.id);
      saved = readCollections(db).find((c) => c.id === candidate.id) ?? candidate;
      auditCollection(ctx, existing, saved);
    });
  } catch (err) {
    invalidateCollections(ctx);
    throw err;
  }
  if (!saved) throw new Error('collection save finished without a result');
  notifyCollectionsChanged(ctx, previous ? { action: 'update', collection: saved, previous } : { action: 'create', collection: saved });
  return saved;
}

/**
 * What 0.22's upsert form hands its save (and the hooks around it): `body` bound and validated as
 * the API validates it, nothing written. Saving it later (with what hooks changed) is
 * saveCollection(…, 'dao'): 0.22's Dao checks nothing more.
 */
export function previewCollection(ctx: AppContext, body: unknown, existingId: string | null): Collection {
  return rolledBack(ctx, (db) => candidateOf(db, body, existingId, 'form').candidate);
}

/** Thrown to roll a dry run back. */
class DryRun extends Error {}

/** Runs `fn` in a schema transaction that is always rolled back (a dry run: its checks, no change). */
function rolledBack<T>(ctx: AppContext, fn: (db: DB) => T): T {
  let out: { value: T } | null = null;
  try {
    writeSchema(ctx, (db) => {
      out = { value: fn(db) };
      throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  if (!out) throw new Error('dry run finished without a result');
  return (out as { value: T }).value;
}

/**
 * Stored indexes in 0.22's normalised form, targeting the collection's (new) table, with
 * columns of renamed fields following the rename.
 */
function normalizeIndexes(c: Collection, existing: Collection | null): string[] {
  const renamed = new Map<string, string>();
  for (const old of existing?.schema ?? []) {
    const next = c.schema.find((f) => f.id === old.id);
    if (next && next.name !== old.name) renamed.set(old.name, next.name);
  }
  const columnsNow = new Set(['id', 'created', 'updated', ...c.schema.map((f) => f.name)]);
  return c.indexes.map((raw) => {
    const idx = parseIndex(raw);
    return isValidIndex(idx) ? buildIndex(renameInIndex(idx, c.name, renamed, columnsNow)) : raw;
  });
}

/** Writes the row and applies the table or view; DDL failures become 0.22's 400 answers. */
function applyCollection(db: DB, c: Collection, existing: Collection | null, lookup: CollectionLookup, failMessage: string, mode: SaveMode): void {
  try {
    writeCollectionRow(db, c);
    if (c.type === 'view') createViewFor(db, c, existing, lookup, mode === 'dao');
    else if (existing) updateRecordTable(db, c, existing);
    else createRecordTable(db, c);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof IndexCreateError) throw badRequest(failMessage, { indexes: err.errors });
    throw badRequest(failMessage, {}, err instanceof Error ? err.message : String(err));
  }
}

/** Drops the collection's table or view and row, unless something depends on it (0.22's DeleteCollection rules). */
function deleteIn(db: DB, id: string): Collection {
  const all = readCollections(db);
  const c = all.find((x) => x.id === id);
  if (!c) throw new ApiError(404, "The requested resource wasn't found.");
  if (c.system) throw badRequest(DELETE_FAILED, {}, `system collection "${c.name}" cannot be deleted`);
  const refs = all.filter((o) => o.id !== c.id && o.schema.some((f) => isRelationField(f) && f.options.collectionId === c.id));
  if (refs.length) {
    const names = refs.map((r) => r.name).join(', ');
    throw badRequest(DELETE_FAILED, {}, `the collection "${c.name}" has external relation field references (${names})`);
  }
  dropRecordTable(db, c);
  // Views reading the dropped table or view would be left broken: refuse instead.
  for (const view of all.filter((v) => v.type === 'view' && v.id !== c.id)) {
    try {
      db.prepare(`SELECT * FROM ${q(view.name)} LIMIT 0`).all();
    } catch (err) {
      throw badRequest(DELETE_FAILED, {}, `the collection has a view dependency (${view.name}) - ${String(err)}`);
    }
  }
  deleteCollectionRow(db, c.id);
  return c;
}

/**
 * Throws what deleteCollection would refuse the delete with (a dry run): 0.22 refuses before its
 * model hooks run, which Outpost runs ahead of the write.
 */
export function checkCollectionDelete(ctx: AppContext, id: string): void {
  rolledBack(ctx, (db) => deleteIn(db, id));
}

/** Deletes a collection unless something depends on it (0.22's DeleteCollection rules). */
export function deleteCollection(ctx: AppContext, id: string): void {
  let deleted = null as Collection | null;
  try {
    writeSchema(ctx, (db) => {
      deleted = deleteIn(db, id);
      auditCollection(ctx, deleted, null);
    });
  } catch (err) {
    invalidateCollections(ctx);
    throw err;
  }
  const removed = deleted;
  if (!removed) return;
  // Uploaded files live under <collectionId>/; PocketBase removes them with the collection, in the background.
  void getStorage(ctx)
    .removeCollection(removed.id)
    .catch((err: unknown) => console.error(`[collections] failed to delete the files of ${removed.name}:`, err instanceof Error ? err.message : err));
  notifyCollectionsChanged(ctx, { action: 'delete', collection: removed });
}
