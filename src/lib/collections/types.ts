// The collection model as the dashboard edits it (PocketBase 0.22 wire shape plus client-only
// field properties). Pure types.

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

export interface SchemaField {
  id: string;
  name: string;
  type: FieldType;
  system: boolean;
  required: boolean;
  presentable: boolean;
  unique?: boolean;
  /** Only present when the server knows it (PocketBase 0.22 has no nullable flag). */
  nullable?: boolean;
  options: Record<string, unknown>;
  // ---- client-only (never sent) ----
  /** The name the field had when loaded (renames are detected against it). */
  originalName?: string;
  /** Marked for removal on save (restorable). */
  toDelete?: boolean;
  /** Focus and select the name input when the row mounts (new fields). */
  onMountSelect?: boolean;
  /** Stable React key (the id, or a random key for new fields). */
  _key?: string;
}

export interface CollectionModel {
  id: string;
  created: string;
  updated: string;
  name: string;
  type: CollectionType;
  system: boolean;
  schema: SchemaField[];
  indexes: string[];
  listRule: string | null;
  viewRule: string | null;
  createRule: string | null;
  updateRule: string | null;
  deleteRule: string | null;
  options: Record<string, unknown>;
}

export const RULE_NAMES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'] as const;
export type RuleName = (typeof RULE_NAMES)[number];
