// Schema facts the record resolver needs (PocketBase 0.22 models/schema): which names are system
// columns, which fields hold several values, and the SQL snippets that read single and multiple
// values alike (a multi field is stored as JSON array text, a single one as plain text).
import type { Collection, SchemaField } from '../collections/model';
import { quoteIdent } from './sql';
import { isMultiple } from '../../src/lib/collections/fields';
import { fieldDefinition } from '../../src/fields/registry';

const BASE_FIELD_NAMES = ['id', 'created', 'updated'] as const;
const AUTH_FIELD_NAMES = ['username', 'verified', 'emailVisibility', 'email'] as const;

/** Columns resolvable on every record of the collection besides its schema fields. */
export function systemFieldNames(collection: Collection): readonly string[] {
  return collection.type === 'auth' ? [...BASE_FIELD_NAMES, ...AUTH_FIELD_NAMES] : BASE_FIELD_NAMES;
}

/**
 * The types that may hold several values (their definitions have the single/multiple switch:
 * select, file, relation): the ones with the `:each` / `:length` modifiers.
 */
export const isArrayable = (field: SchemaField): boolean => fieldDefinition(field.type).multiple !== undefined;

export { isMultiple };

/** Field lookup by exact name, as PocketBase's GetFieldByName. */
export const findField = (collection: Collection, name: string): SchemaField | undefined =>
  collection.schema.find((f) => f.name === name);

/** `"alias"."column"`. Aliases and names come from code or the schema, never from filter text. */
export const column = (alias: string, name: string): string => `${quoteIdent(alias)}.${quoteIdent(name)}`;

/** json_each over single or multiple values alike (a plain value becomes a one-element array). */
export const jsonEach = (col: string): string =>
  `json_each(CASE WHEN json_valid(${col}) THEN ${col} ELSE json_array(${col}) END)`;

/** Element count of single or multiple values alike ('' and NULL count as 0). */
export const jsonArrayLength = (col: string): string =>
  `json_array_length(CASE WHEN json_valid(${col}) THEN ${col} ELSE ` +
  `(CASE WHEN ${col} = '' OR ${col} IS NULL THEN json_array() ELSE json_array(${col}) END) END)`;

/**
 * json_extract that also works on a value that is not valid JSON (wrapped in an object first), so
 * a json field holding a bare string still compares. `parts` are filter path segments: digits
 * become `[n]`, anything else a key with non-word characters dropped (PocketBase's Columnify), so
 * the inlined path can never close its quotes.
 */
export function jsonExtract(col: string, parts: readonly string[]): string {
  const path = '$' + parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replace(/\W/g, '')}`)).join('');
  return `(CASE WHEN json_valid(${col}) THEN json_extract(${col}, '${path}') ELSE json_extract(json_object('pb', ${col}), '$.pb') END)`;
}

const UNIQUE_INDEX = /^\s*create\s+unique\s+index\s+(?:if\s+not\s+exists\s+)?[\s\S]*?\bon\s+[`"[]?\w+[`"\]]?\s*\(([^)]*)\)/i;

/**
 * Whether `indexes` has a UNIQUE index on exactly `name` (PocketBase's HasSingleColumnUniqueIndex):
 * such a back-relation holds at most one record, so it is joined as a single value.
 */
export function hasSingleColumnUniqueIndex(name: string, indexes: readonly string[]): boolean {
  return indexes.some((idx) => {
    const m = UNIQUE_INDEX.exec(idx);
    if (!m || m[1].includes(',') || m[1].includes('(')) return false;
    const col = m[1].trim().split(/\s+/)[0].replace(/^[`"[]|[`"\]]$/g, '');
    return col.toLowerCase() === name.toLowerCase();
  });
}
