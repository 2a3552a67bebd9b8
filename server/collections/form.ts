// Reads a collection create/update body the way PocketBase 0.22 binds it into its upsert form:
// keys left out keep the stored value (on create, the defaults), `null` clears a rule, options
// merge into the stored options (Go decodes JSON objects into the existing map), the schema and
// indexes are replaced. A value of the wrong JSON type fails the whole request, as c.Bind does.
import { ApiError } from '../core/errors';
import { newCollection } from '../../src/lib/collections/payload';
import { RULE_NAMES } from '../../src/lib/collections/types';
import type { Collection, CollectionType, SchemaField } from './model';
import { collectionJson, decodeCollectionOptions, decodeField } from './normalize';
import { newFieldId } from './ddl';
import type { FieldDecodeIssues } from './validate';
import { isObject } from '../../src/lib/json';

export const LOAD_FAILED = 'Failed to load the submitted data due to invalid formatting.';

export interface BoundCollection {
  collection: Collection;
  /** The id asked for on create ('' when none). */
  requestedId: string;
  fieldIssues: FieldDecodeIssues[];
  invalidOptions: string[];
}

function loadError(detail: string): ApiError {
  return new ApiError(400, LOAD_FAILED, {}, detail);
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw loadError(`invalid type for "${key}"`);
  return v;
}

/** Decodes a schema list: fields without an id get one; a repeated id replaces the earlier field. */
export function bindSchema(raw: unknown[]): { schema: SchemaField[]; issues: FieldDecodeIssues[] } {
  const schema: SchemaField[] = [];
  const issues: FieldDecodeIssues[] = [];
  for (const item of raw) {
    if (!isObject(item)) throw loadError('invalid schema field');
    const decoded = decodeField(item);
    if (decoded.field.id === '') decoded.field.id = newFieldId();
    const issue = { unknownType: decoded.unknownType, invalidOptions: decoded.invalidOptions };
    const at = schema.findIndex((f) => f.id === decoded.field.id);
    if (decoded.unknownType) {
      // 0.22 drops a field of an unknown type silently (with the field it replaced by id)
      if (at >= 0) {
        schema.splice(at, 1);
        issues.splice(at, 1);
      }
      continue;
    }
    if (at >= 0) {
      schema[at] = decoded.field;
      issues[at] = issue;
    } else {
      schema.push(decoded.field);
      issues.push(issue);
    }
  }
  return { schema, issues };
}

export function bindCollectionForm(body: unknown, existing: Collection | null): BoundCollection {
  if (body === undefined || body === null) body = {};
  if (!isObject(body)) throw loadError('the body is not an object');

  const base: Collection = existing ? collectionJson(existing) : newCollection<SchemaField>('base');
  // A view's schema always comes from its query, never from the form.
  if (base.type === 'view') base.schema = [];

  const requestedId = optionalString(body, 'id') ?? '';
  if (existing) base.id = requestedId === '' ? existing.id : requestedId;

  const type = optionalString(body, 'type');
  if (type !== undefined) base.type = type as CollectionType;
  const name = optionalString(body, 'name');
  if (name !== undefined) base.name = name;

  if (body.system !== undefined && body.system !== null) {
    if (typeof body.system !== 'boolean') throw loadError('invalid type for "system"');
    base.system = body.system;
  }

  let issues: FieldDecodeIssues[] = base.schema.map(() => ({ unknownType: false, invalidOptions: [] }));
  if (body.schema !== undefined) {
    if (body.schema !== null && !Array.isArray(body.schema)) throw loadError('invalid type for "schema"');
    const bound = bindSchema(body.schema ?? []);
    base.schema = bound.schema;
    issues = bound.issues;
  }

  if (body.indexes !== undefined) {
    if (body.indexes !== null && !(Array.isArray(body.indexes) && body.indexes.every((i) => typeof i === 'string'))) {
      throw loadError('invalid type for "indexes"');
    }
    base.indexes = [...((body.indexes as string[] | null) ?? [])];
  }

  for (const rule of RULE_NAMES) {
    const v = body[rule];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string') throw loadError(`invalid type for "${rule}"`);
    base[rule] = v;
  }

  let rawOptions: unknown = base.options;
  if (body.options !== undefined) {
    if (body.options !== null && !isObject(body.options)) throw loadError('invalid type for "options"');
    rawOptions = body.options === null ? {} : { ...base.options, ...body.options };
  }
  const optionsType: CollectionType = ['auth', 'view'].includes(base.type) ? base.type : 'base';
  const decoded = decodeCollectionOptions(optionsType, rawOptions);
  base.options = decoded.options;

  return { collection: base, requestedId, fieldIssues: issues, invalidOptions: decoded.invalid };
}
