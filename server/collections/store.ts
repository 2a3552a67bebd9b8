// The collections as the rest of the server sees them: read from `_collections`, decoded the way
// PocketBase 0.22 decodes them (see normalize.ts), cached per app and dropped whenever a
// collection changes (the cache lives in the app's CollectionStore, built once by
// server/stores.ts). Listeners hear about every committed change (realtime, record caches).
//
// How record values are stored per field type is documented in ddl.ts.
import { transaction, type DB } from '../db/database';
import { sortsFromIndex } from '../db/sort-plan';
import { withStringLiterals } from '../db/dqs';
import type { Collection } from './model';
import { collectionFromRow } from './normalize';
import { authTableNames, refusedViews, secretReadOf, tablesReadBy } from './view-secrets';
import { stringifyLikeGo } from '../core/json';
import { isRelationField } from '../../src/fields/relation/field';

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

interface CollectionCache {
  list: Collection[];
  byId: Map<string, Collection>;
  byName: Map<string, Collection>;
}

/** Reads every collection straight from the database (no cache), ordered by name. */
export function readCollections(db: DB): Collection[] {
  const rows = db.prepare('SELECT * FROM _collections ORDER BY name COLLATE NOCASE, id').all() as Record<string, unknown>[];
  return rows.map(collectionFromRow);
}

/** The collections over the write connection: one per app (server/stores.ts), its cache inside. */
export interface CollectionStore {
  /** The cached collections (see getCollections). */
  cached(): CollectionCache;
  /** Every collection straight from the database (no cache), ordered by name. */
  readAll(): Collection[];
  /** Why each refused view is refused (view-secrets.ts), by collection id. */
  refusedViews(): Map<string, string>;
  /**
   * Why `query` (a SELECT or WITH) may not run where secrets must stay unread (a sentence naming
   * the column and table, view-secrets.ts: the check views get), or null. Compiles the query only;
   * throws SQLite's error when it does not compile.
   */
  secretReadOf(query: string): string | null;
  /** The tables `query` reads (compiles only, strings in double quotes as views allow them; throws SQLite's error). */
  tablesReadBy(query: string): string[];
  /** Whether SQLite reads the rows of `query` in their ORDER BY order from an index (db/sort-plan.ts; compiles only). */
  sortsFromIndex(query: string, params: readonly unknown[]): boolean;
  /** Drops the cache; the next read reloads from the database. */
  invalidate(): void;
  readonly listeners: Set<CollectionListener>;
}

export function createCollectionStore(db: DB): CollectionStore {
  let cache: CollectionCache | null = null;
  const store: CollectionStore = {
    cached() {
      if (!cache) {
        const list = readCollections(db);
        cache = {
          list,
          byId: new Map(list.map((c) => [c.id, c])),
          byName: new Map(list.map((c) => [c.name.toLowerCase(), c])),
        };
      }
      return cache;
    },
    readAll: () => readCollections(db),
    refusedViews: () => refusedViews(db, store.cached().list),
    secretReadOf: (query) => secretReadOf(db, query, authTableNames(db, store.cached().list)),
    tablesReadBy: (query) => withStringLiterals(query.trim().replace(/;+\s*$/, ''), (text) => tablesReadBy(db, text)).result,
    sortsFromIndex: (query, params) => sortsFromIndex(db, store.cached(), query, params),
    invalidate() {
      cache = null;
    },
    listeners: new Set(),
  };
  connections.set(store, db);
  return store;
}

/** Each store's connection, for writeSchema only (the store's interface hands out no handle). */
const connections = new WeakMap<CollectionStore, DB>();

/**
 * Runs `fn` in one IMMEDIATE transaction with the write connection: the schema changes of the
 * collections module (service.ts, import.ts: the `_collections` rows and the tables and views
 * they describe) only; ESLint keeps other modules from importing it.
 */
export function writeSchema<T>(ctx: HasCollections, fn: (db: DB) => T): T {
  const db = connections.get(ctx.collections);
  if (!db) throw new Error('collection store without a connection');
  return transaction(db, () => fn(db));
}

type HasCollections = { collections: CollectionStore };

/**
 * All collections, ordered by name. The objects are shared by every caller: treat them as
 * read-only (copy with collectionJson() before changing anything).
 */
export function getCollections(ctx: HasCollections): readonly Collection[] {
  return ctx.collections.cached().list;
}

/** A collection by id, or by name case-insensitively (PocketBase's FindCollectionByNameOrId). */
export function findCollection(ctx: HasCollections, nameOrId: string): Collection | undefined {
  const cache = ctx.collections.cached();
  return cache.byId.get(nameOrId) ?? cache.byName.get(nameOrId.toLowerCase());
}

/** Why a view collection is refused (it reads secrets, see view-secrets.ts), or null when served. */
export function refusedViewReason(ctx: HasCollections, collection: Collection): string | null {
  if (collection.type !== 'view') return null;
  return ctx.collections.refusedViews().get(collection.id) ?? null;
}

/** A lookup over the cached collections that are served (for rule checks and record resolvers). */
export function collectionLookup(ctx: HasCollections): CollectionLookup {
  const served = (c: Collection | undefined) => (c && !refusedViewReason(ctx, c) ? c : undefined);
  return Object.assign((nameOrId: string) => served(findCollection(ctx, nameOrId)), {
    all: () => getCollections(ctx).filter((c) => served(c)),
  });
}

/** Collections whose relation fields point at `collectionId` (self-references included). */
export function findReferences(ctx: HasCollections, collectionId: string): Collection[] {
  return getCollections(ctx).filter((c) =>
    c.schema.some((f) => isRelationField(f) && f.options.collectionId === collectionId),
  );
}

/** Drops the cache; the next read reloads from the database. */
export function invalidateCollections(ctx: HasCollections): void {
  ctx.collections.invalidate();
}

/** Subscribes to committed collection changes; returns the unsubscribe function. */
export function onCollectionsChange(ctx: HasCollections, listener: CollectionListener): () => void {
  const { listeners } = ctx.collections;
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Invalidates the cache, then tells every listener (a failing listener never breaks the caller). */
export function notifyCollectionsChanged(ctx: HasCollections, change: CollectionChange): void {
  invalidateCollections(ctx);
  for (const listener of ctx.collections.listeners) {
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
