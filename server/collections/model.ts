// The collection model exactly as PocketBase 0.22 stores it in `_collections` and returns it
// from /api/collections: the stored shapes of the shared model in src/lib/collections/types.ts.

export type { CollectionType, FieldType } from '../../src/lib/collections/types';
export type { StoredCollection as Collection, StoredSchemaField as SchemaField } from '../../src/lib/collections/types';
export { FIELD_TYPE_NAMES as FIELD_TYPES } from '../../src/lib/collections/types';
