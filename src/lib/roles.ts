// Admin roles (Outpost, issue 36): what a scoped admin may do. An admin without a role is a full
// admin, as every admin is in PocketBase 0.22; a role narrows an admin to some collections' records
// and schemas and some areas of the dashboard. Plain TypeScript shared by the server (its store
// reads a role, `accessOf` answers for every request) and the dashboard (what it shows).

/** The dashboard's areas a role may open, in the form's order. */
export const AREAS = [
  'settings',
  'mail',
  'storage',
  'backups',
  'authProviders',
  'tokens',
  'admins',
  'logs',
  'collectionsImportExport',
  'migrations',
  'sqlConsole',
] as const;
export type Area = (typeof AREAS)[number];

export type RecordAction = 'read' | 'create' | 'update' | 'delete';
type SchemaLevel = 'none' | 'view' | 'edit';

/** One line of a role: a collection (its id, or '*' for every collection) and what it grants there. */
export interface CollectionGrant {
  collection: string;
  read?: boolean;
  create?: boolean;
  update?: boolean;
  delete?: boolean;
  schema?: SchemaLevel;
}

/** The role document the form edits and the API takes (schemas/roles/role.schema.json). */
export interface RoleDoc {
  name: string;
  collections: CollectionGrant[];
  areas: Partial<Record<Area, boolean>>;
}

export interface Role extends RoleDoc {
  id: string;
  created: string;
  updated: string;
}

const ALL_COLLECTIONS = '*';

/** What a collection is known by: a grant names its id (or, written by hand, its name). */
interface CollectionRef {
  id: string;
  name: string;
}

/** What one admin may do, computed per request from its role (null: a full admin). */
export interface AdminAccess {
  full: boolean;
  role: Role | null;
  area(area: Area): boolean;
  /** The records action on `collection` (null: a collection that does not exist, judged by the '*' line). */
  records(collection: CollectionRef | null, action: RecordAction): boolean;
  /** Whether the collection's schema may be seen ('view') or changed ('edit'). */
  schema(collection: CollectionRef | null, level: 'view' | 'edit'): boolean;
  /** Whether the collection is listed for this admin at all (any grant on it, or the import area). */
  sees(collection: CollectionRef): boolean;
}

const FULL: AdminAccess = {
  full: true,
  role: null,
  area: () => true,
  records: () => true,
  schema: () => true,
  sees: () => true,
};

const SCHEMA_RANK: Record<SchemaLevel, number> = { none: 0, view: 1, edit: 2 };

/** The grant that applies to a collection: its own line wins over the '*' line. */
function grantOf(role: RoleDoc, collection: CollectionRef | null): CollectionGrant | null {
  const own = collection && role.collections.find((g) => g.collection === collection.id || g.collection === collection.name);
  return own || role.collections.find((g) => g.collection === ALL_COLLECTIONS) || null;
}

export function accessOf(role: Role | null): AdminAccess {
  if (!role) return FULL;
  const schema = (c: CollectionRef | null, level: 'view' | 'edit') => SCHEMA_RANK[grantOf(role, c)?.schema ?? 'none'] >= SCHEMA_RANK[level];
  const records = (c: CollectionRef | null, action: RecordAction) => grantOf(role, c)?.[action] === true;
  return {
    full: false,
    role,
    area: (area) => role.areas[area] === true,
    records,
    schema,
    sees: (c) => role.areas.collectionsImportExport === true || schema(c, 'view') || (['read', 'create', 'update', 'delete'] as const).some((a) => records(c, a)),
  };
}

/** Whether the API preview (the records API of the collection, drawn beside its records list) is for this admin. */
export const mayPreviewApi = (access: AdminAccess, collection: CollectionRef): boolean => access.records(collection, 'read');

/** A stored role's document, whatever the stored JSON holds (a hand edit never widens it). */
export function roleDocOf(name: string, json: unknown): RoleDoc {
  const o = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const collections = Array.isArray(o.collections) ? o.collections.filter((g): g is CollectionGrant => !!g && typeof g === 'object' && typeof (g as CollectionGrant).collection === 'string') : [];
  const areasIn = o.areas && typeof o.areas === 'object' ? (o.areas as Record<string, unknown>) : {};
  const areas: Partial<Record<Area, boolean>> = {};
  for (const a of AREAS) if (areasIn[a] === true) areas[a] = true;
  return { name, collections, areas };
}
