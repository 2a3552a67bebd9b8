// View collections: their schema comes from the query (inferred by view-schema.ts), and they
// follow the collections they read. After any collection change, each view's query is re-read
// from SQLite (which rewrites view SQL on table/column renames) and its schema re-inferred, as
// 0.22's resaveViewsWithChangedSchema does; a view that no longer works is left for its owner.
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import type { Collection, SchemaField } from './model';
import { fieldSignature } from './normalize';
import { newFieldId } from './ddl';
import { currentViewQuery, trimViewQuery, viewSql } from './sync';
import { readCollections, writeCollectionRow, type CollectionLookup } from './store';
import { inferViewSchema, validateViewQuery } from './view-schema';

export interface InferredView {
  schema: SchemaField[];
  /** 'column: message' style text when the query is not a valid view query. */
  error: string | null;
}

/**
 * Checks the query and infers the view's fields; ids are kept for fields that did not change.
 * `lenient` (a migration's Dao save) asks only what 0.22's Dao asks (view-schema.ts).
 */
export function inferViewFields(db: DB, query: string, lookup: CollectionLookup, previous: SchemaField[] = [], lenient = false): InferredView {
  try {
    const trimmed = trimViewQuery(query);
    if (!lenient) validateViewQuery(trimmed);
    else if (trimmed === '') throw new Error('the view query must not be empty');
    const schema = inferViewSchema(db, viewSql(db, trimmed), lookup, lenient);
    return { schema: keepFieldIds(schema, previous), error: null };
  } catch (err) {
    return { schema: [], error: err instanceof Error ? err.message : String(err) };
  }
}

/** Reuses the id of a previous field with the same name and type (stable ids across saves). */
function keepFieldIds(schema: SchemaField[], previous: SchemaField[]): SchemaField[] {
  return schema.map((f) => {
    const old = previous.find((p) => p.name === f.name && p.type === f.type);
    return { ...f, id: old ? old.id : f.id || newFieldId() };
  });
}

/** A lookup over a given list (the state a save is about to produce). */
export function lookupOver(list: readonly Collection[]): CollectionLookup {
  const find = (nameOrId: string) =>
    list.find((c) => c.id === nameOrId) ?? list.find((c) => c.name.toLowerCase() === nameOrId.toLowerCase());
  return Object.assign(find, { all: () => [...list] });
}

/** Re-syncs every view collection (but `excludeId`) with the current database. */
export function refreshViewCollections(db: DB, excludeId?: string): void {
  const all = readCollections(db);
  const lookup = lookupOver(all);
  for (const view of all) {
    if (view.type !== 'view' || view.id === excludeId) continue;
    const stored = trimViewQuery(String(view.options.query ?? ''));
    const current = currentViewQuery(db, view.name);
    // the view SQLite holds has the query's "strings" single-quoted: that is no change of the query
    const query = current === null || current === viewSql(db, stored) ? stored : current;
    const inferred = inferViewFields(db, query, lookup, view.schema);
    if (inferred.error) continue;
    const sameSchema =
      inferred.schema.length === view.schema.length && inferred.schema.every((f, i) => fieldSignature(f) === fieldSignature(view.schema[i]));
    if (query === stored && sameSchema) continue;
    writeCollectionRow(db, { ...view, schema: inferred.schema, options: { ...view.options, query }, updated: nowDateTime() });
  }
}
