// The collection model: PocketBase 0.22's wire shape, exactly as it is stored in `_collections`
// and returned from /api/collections (JSON key order matters: it is the wire order), and the
// shape the dashboard edits (the same plus client-only field properties). Pure types, shared by
// the dashboard and the server (server/collections/model.ts names the stored shapes).
import { FIELD_DEFINITIONS } from '../../fields/registry';

export type CollectionType = 'base' | 'auth' | 'view';

export type FieldType =
  | 'text'
  | 'editor'
  | 'number'
  | 'bool'
  | 'email'
  | 'url'
  | 'date'
  | 'select'
  | 'json'
  | 'file'
  | 'relation';

/** The field types, in PocketBase 0.22's order: the registry's (src/fields/registry.ts). */
export const FIELD_TYPE_NAMES: readonly FieldType[] = FIELD_DEFINITIONS.map((d) => d.type);

/** A schema field as PocketBase 0.22 stores and returns it. */
export interface StoredSchemaField {
  system: boolean;
  id: string;
  name: string;
  type: FieldType;
  required: boolean;
  presentable: boolean;
  /** Deprecated in 0.22 but still stored and returned. */
  unique: boolean;
  options: Record<string, unknown>;
}

/** A schema field as the dashboard edits it. */
export interface SchemaField extends Omit<StoredSchemaField, 'unique'> {
  unique?: boolean;
  /** Only present when the server knows it (PocketBase 0.22 has no nullable flag). */
  nullable?: boolean;
  // ---- client-only (never sent) ----
  /** The name the field had when loaded (renames are detected against it). */
  originalName?: string;
  /** Marked for removal on save (restorable). */
  toDelete?: boolean;
  /** Focus and select the name input when the row mounts (new fields). */
  onMountSelect?: boolean;
  /** Stable React key (the id, or a random key for new fields). */
  _key?: string;
  /**
   * The single/multiple switch as the admin set it: a select with one value switched to multiple
   * gets maxSelect 1 (to be corrected, min 2), so the switch cannot be read off maxSelect alone.
   */
  multiple?: boolean;
}

/** A collection; `F` is the field shape (the dashboard's by default, StoredSchemaField on the server). */
export interface CollectionModel<F extends StoredSchemaField | SchemaField = SchemaField> {
  id: string;
  created: string;
  updated: string;
  name: string;
  type: CollectionType;
  system: boolean;
  schema: F[];
  indexes: string[];
  listRule: string | null;
  viewRule: string | null;
  createRule: string | null;
  updateRule: string | null;
  deleteRule: string | null;
  options: Record<string, unknown>;
}

/** A collection as PocketBase 0.22 stores and returns it. */
export type StoredCollection = CollectionModel<StoredSchemaField>;

export const RULE_NAMES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'] as const;
