// The rows the file routes serve from (server/http/files.ts): a record of any collection type by
// id, and for a view's file the base/auth record that stores it (a view row has no storage folder).
import type { AppContext } from '../context';
import type { Collection, SchemaField } from '../collections/model';
import { getCollections } from '../collections/store';
import { findRowById } from './store';
import { isFileField } from '../../src/fields/file/field';

/** A record row by id (view ids may be numbers, so compare as text there). */
export function findFileRow(ctx: AppContext, collection: Collection, id: string): (Record<string, unknown> & { id: unknown }) | null {
  try {
    if (collection.type !== 'view') return findRowById(ctx, collection, id) as (Record<string, unknown> & { id: unknown }) | null;
    return ctx.records.findByTextId(collection, id) as (Record<string, unknown> & { id: unknown }) | null;
  } catch (err) {
    console.error(`[files] failed to read ${collection.name}/${id}:`, err instanceof Error ? err.message : err);
    return null;
  }
}

/**
 * The base/auth record a view's file belongs to: the record whose file field holds that name
 * (stored names carry a random suffix, so they identify one record).
 */
export function findViewFileOrigin(ctx: AppContext, filename: string): { collectionId: string; recordId: string } | null {
  for (const c of getCollections(ctx)) {
    if (c.type === 'view') continue;
    for (const f of c.schema as SchemaField[]) {
      if (!isFileField(f)) continue;
      try {
        const recordId = ctx.records.findIdByFile(c, f.name, filename);
        if (recordId !== null) return { collectionId: c.id, recordId };
      } catch {
        // a table out of sync with its schema: skip it
      }
    }
  }
  return null;
}
