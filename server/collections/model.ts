// The collection model exactly as PocketBase 0.22 stores it in `_collections` and returns it
// from /api/collections (JSON key order matters: it is the wire order).

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

export const FIELD_TYPES: readonly FieldType[] = [
  'text', 'editor', 'number', 'bool', 'email', 'url', 'date', 'select', 'json', 'file', 'relation',
];

export interface SchemaField {
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

export interface AuthOptions {
  allowEmailAuth: boolean;
  allowOAuth2Auth: boolean;
  allowUsernameAuth: boolean;
  exceptEmailDomains: string[] | null;
  manageRule: string | null;
  minPasswordLength: number;
  onlyEmailDomains: string[] | null;
  onlyVerified: boolean;
  requireEmail: boolean;
}

export interface ViewOptions {
  query: string;
}

export interface Collection {
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

/** Columns every collection table has besides its schema fields. */
export const BASE_SYSTEM_COLUMNS = ['id', 'created', 'updated'] as const;
/** Extra columns of an auth collection table (PocketBase 0.22 names). */
export const AUTH_SYSTEM_COLUMNS = [
  'username', 'email', 'emailVisibility', 'verified', 'tokenKey', 'passwordHash', 'lastResetSentAt', 'lastVerificationSentAt',
] as const;
