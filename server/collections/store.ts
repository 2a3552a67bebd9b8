// The collections as the rest of the server sees them: read from `_collections`, decoded the way
// PocketBase 0.22 decodes them (see normalize.ts), cached per database and dropped whenever a
// collection changes. Listeners hear about every committed change (realtime, record caches).
//
// How record values are stored per field type is documented in ddl.ts.
import type { DB } from '../db/database';
import type { Collection } from './model';
import { collectionFromRow } from './normalize';
import { refusedViews } from './view-secrets';
import { stringifyLikeGo } from '../core/json';

/**
 * Resolves a collection by id or (case-insensitive) name; `all` lists them (rule checks use it
 * to validate @request.auth.* fields). Same shape as query/record-resolver's CollectionLookup.
 */
export type CollectionLookup = ((nameOrId: string) => Collection | undefined) & { all?: () => Collection[] };

export type CollectionChange =
  | { action: 'create' | 'update'; collection: Collection; previous?: Collection }
  | { action: 'delete'; collection: Collection }
  | { action: 'import' };

export type CollectionListener = (change: CollectionChange) => void;

interface Cache {
  list: Collection[];
  byId: Map<string, Collection>;
  byName: Map<string, Collection>;
}

interface StoreState {
  cache: Cache | null;
  listeners: Set<CollectionListener>;
}

const states = new WeakMap<DB, StoreState>();

function stateOf(db: DB): StoreState {
  let state = states.get(db);
  if (!state) {
    state = { cache: null, listeners: new Set() };
    states.set(db, state);
  }
  return state;
}

/** Reads every collection straight from the database (no cache), ordered by name. */
export function readCollections(db: DB): Collection[] {
  const rows = db.prepare('SELECT * FROM _collections ORDER BY name COLLATE NOCASE, id').all() as Record<string, unknown>[];
  return rows.map(collectionFromRow);
}

function load(db: DB): Cache {
  const state = stateOf(db);
  if (!state.cache) {
    const list = readCollections(db);
    state.cache = {
      list,
      byId: new Map(list.map((c) => [c.id, c])),
      byName: new Map(list.map((c) => [c.name.toLowerCase(), c])),
    };
  }
  return state.cache;
}

type HasDb = { db: DB };

/**
 * All collections, ordered by name. The objects are shared by every caller: treat them as
 * read-only (copy with collectionJson() before changing anything).
 */
export function getCollections(ctx: HasDb): readonly Collection[] {
  return load(ctx.db).list;
}

/** A collection by id, or by name case-insensitively (PocketBase's FindCollectionByNameOrId). */
export function findCollection(ctx: HasDb, nameOrId: string): Collection | undefined {
  const cache = load(ctx.db);
  return cache.byId.get(nameOrId) ?? cache.byName.get(nameOrId.toLowerCase());
}

/** Why a view collection is refused (it reads secrets, see view-secrets.ts), or null when served. */
export function refusedViewReason(ctx: HasDb, collection: Collection): string | null {
  if (collection.type !== 'view') return null;
  return refusedViews(ctx.db, getCollections(ctx)).get(collection.id) ?? null;
}

/** A lookup over the cached collections that are served (for rule checks and record resolvers). */
export function collectionLookup(ctx: HasDb): CollectionLookup {
  const served = (c: Collection | undefined) => (c && !refusedViewReason(ctx, c) ? c : undefined);
  return Object.assign((nameOrId: string) => served(findCollection(ctx, nameOrId)), {
    all: () => getCollections(ctx).filter((c) => served(c)),
  });
}

/** Collections whose relation fields point at `collectionId` (self-references included). */
export function findReferences(ctx: HasDb, collectionId: string): Collection[] {
  return getCollections(ctx).filter((c) =>
    c.schema.some((f) => f.type === 'relation' && f.options.collectionId === collectionId),
  );
}

/** Drops the cache; the next read reloads from the database. */
export function invalidateCollections(ctx: HasDb): void {
  stateOf(ctx.db).cache = null;
}

/** Subscribes to committed collection changes; returns the unsubscribe function. */
export function onCollectionsChange(ctx: HasDb, listener: CollectionListener): () => void {
  const state = stateOf(ctx.db);
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

/** Invalidates the cache, then tells every listener (a failing listener never breaks the caller). */
export function notifyCollectionsChanged(ctx: HasDb, change: CollectionChange): void {
  invalidateCollections(ctx);
  for (const listener of stateOf(ctx.db).listeners) {
    try {
      listener(change);
    } catch (err) {
      console.error('[collections] change listener failed:', err);
    }
  }
}

/** Inserts or replaces a collection row (JSON columns encoded as PocketBase stores them). */
export function writeCollectionRow(db: DB, c: Collection): void {
  db.prepare(
    `INSERT INTO _collections (id, system, type, name, schema, indexes, listRule, viewRule, createRule, updateRule, deleteRule, options, created, updated)
     VALUES (@id, @system, @type, @name, @schema, @indexes, @listRule, @viewRule, @createRule, @updateRule, @deleteRule, @options, @created, @updated)
     ON CONFLICT(id) DO UPDATE SET system = excluded.system, type = excluded.type, name = excluded.name, schema = excluded.schema,
       indexes = excluded.indexes, listRule = excluded.listRule, viewRule = excluded.viewRule, createRule = excluded.createRule,
       updateRule = excluded.updateRule, deleteRule = excluded.deleteRule, options = excluded.options, created = excluded.created,
       updated = excluded.updated`,
  ).run({
    id: c.id,
    system: c.system ? 1 : 0,
    type: c.type,
    name: c.name,
    schema: stringifyLikeGo(c.schema),
    indexes: stringifyLikeGo(c.indexes),
    listRule: c.listRule,
    viewRule: c.viewRule,
    createRule: c.createRule,
    updateRule: c.updateRule,
    deleteRule: c.deleteRule,
    options: stringifyLikeGo(c.options),
    created: c.created,
    updated: c.updated,
  });
}

export function deleteCollectionRow(db: DB, id: string): void {
  db.prepare('DELETE FROM _collections WHERE id = ?').run(id);
}
