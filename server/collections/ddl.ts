// The SQL PocketBase 0.22 runs for collection tables and views, byte for byte where it matters
// (sqlite_master keeps the text, and a data dir must look the same to PocketBase).
//
// Stored record values, per field type (what the records API must read and write):
//   text, editor, email, url  TEXT DEFAULT '' NOT NULL     plain string, '' when empty
//   date                      TEXT DEFAULT '' NOT NULL     '2006-01-02 15:04:05.000Z' or ''
//   number                    NUMERIC DEFAULT 0 NOT NULL   a number, 0 when empty
//   bool                      BOOLEAN DEFAULT FALSE NOT NULL  0 / 1
//   json                      JSON DEFAULT NULL            JSON text, or NULL for null
//   select, file, relation    single (maxSelect 1; relation maxSelect 1):
//                               TEXT DEFAULT '' NOT NULL   the one value (id / file name), ''
//                             multiple (maxSelect > 1; relation maxSelect null or > 1):
//                               JSON DEFAULT '[]' NOT NULL a JSON array of strings, '[]'
// Tables created by older PocketBase versions (the fixture) may have REAL / Boolean / TEXT
// DEFAULT '' columns without NOT NULL and NULL values; readers must treat NULL as the empty value.
import type { Collection, SchemaField } from './model';
import { fieldDefinition } from '../../src/fields/registry';
import { randomString } from '../services/passwords';

/** Quotes an identifier the way PocketBase's query builder does for SQLite (backticks). */
export const q = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** The column definition of a schema field (models/schema SchemaField.ColDefinition). */
export function columnDefinition(field: Pick<SchemaField, 'type' | 'options'>): string {
  return fieldDefinition(field.type).columnDefinition(field);
}

const BASE_COLUMNS: Record<string, string> = {
  id: "TEXT PRIMARY KEY DEFAULT ('r'||lower(hex(randomblob(7)))) NOT NULL",
  created: "TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
  updated: "TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
};

const AUTH_COLUMNS: Record<string, string> = {
  username: 'TEXT NOT NULL',
  email: "TEXT DEFAULT '' NOT NULL",
  emailVisibility: 'BOOLEAN DEFAULT FALSE NOT NULL',
  verified: 'BOOLEAN DEFAULT FALSE NOT NULL',
  tokenKey: 'TEXT NOT NULL',
  passwordHash: 'TEXT NOT NULL',
  lastResetSentAt: "TEXT DEFAULT '' NOT NULL",
  lastVerificationSentAt: "TEXT DEFAULT '' NOT NULL",
};

/** Go's sort.Strings order (bytewise), which the query builder uses for CREATE TABLE columns. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** CREATE TABLE for a base/auth collection: system and schema columns sorted by name. */
export function createTableSql(c: Pick<Collection, 'name' | 'type' | 'schema'>): string {
  const cols: Record<string, string> = { ...BASE_COLUMNS, ...(c.type === 'auth' ? AUTH_COLUMNS : {}) };
  for (const f of c.schema) cols[f.name] = columnDefinition(f);
  const list = Object.keys(cols)
    .sort(byteOrder)
    .map((name) => `${q(name)} ${cols[name]}`);
  return `CREATE TABLE ${q(c.name)} (${list.join(', ')})`;
}

/** The unique indexes every auth table gets, named after the collection id. */
export function authIndexSql(c: Pick<Collection, 'id' | 'name'>): string[] {
  const t = q(c.name);
  return [
    `CREATE UNIQUE INDEX _${c.id}_username_idx ON ${t} (${q('username')})`,
    `CREATE UNIQUE INDEX _${c.id}_email_idx ON ${t} (${q('email')}) WHERE ${q('email')} != ''`,
    `CREATE UNIQUE INDEX _${c.id}_tokenKey_idx ON ${t} (${q('tokenKey')})`,
  ];
}

export const addColumnSql = (table: string, column: string, def: string) => `ALTER TABLE ${q(table)} ADD ${q(column)} ${def}`;
export const renameColumnSql = (table: string, from: string, to: string) => `ALTER TABLE ${q(table)} RENAME COLUMN ${q(from)} TO ${q(to)}`;
export const dropColumnSql = (table: string, column: string) => `ALTER TABLE ${q(table)} DROP COLUMN ${q(column)}`;
export const renameTableSql = (from: string, to: string) => `ALTER TABLE ${q(from)} RENAME TO ${q(to)}`;
export const dropTableSql = (table: string) => `DROP TABLE IF EXISTS ${q(table)}`;
export const dropViewSql = (view: string) => `DROP VIEW IF EXISTS ${q(view)}`;
export const dropIndexSql = (index: string) => `DROP INDEX IF EXISTS ${q(index)}`;

/** The view wraps the query in a second SELECT (PocketBase's guard against stacked statements). */
export const createViewSql = (name: string, query: string) => `CREATE VIEW ${q(name)} AS SELECT * FROM (${query})`;

/** The temporary column suffix PocketBase uses while adding/renaming (5 random letters/digits). */
export const tempSuffix = (): string => randomString(5);

/** A new 8-character field id, as PocketBase generates them. */
export const newFieldId = (): string => randomString(8).toLowerCase();
