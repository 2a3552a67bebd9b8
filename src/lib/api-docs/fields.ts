// The parts of the API docs that come from a collection's fields: an example record built from
// the schema, each field's type and constraints in words, and the request body of create/update.
// Pure TypeScript (no React): the docs overlay renders it and unit tests read it.
import { fieldDefinition } from '../../fields/registry';
import type { CollectionModel, SchemaField } from '../collections/types';
import type { Words } from './doc-page';

export interface DocParam {
  name: string;
  type: string;
  required?: boolean;
  description: string;
}

type Lookup = (id: string) => { name: string } | undefined;

const EXAMPLE_DATE = '2022-01-01 10:00:00.123Z';

const live = (c: Pick<CollectionModel, 'schema'>) => (c.schema ?? []).filter((f) => !f.toDelete && f.name);

/** An example value of a field, as the API would return it (its type's docs example). */
export function exampleValue(field: SchemaField): unknown {
  return fieldDefinition(field.type).docs.example({ ...field, options: field.options ?? {} });
}

/** The record a read endpoint returns, built from the schema (keys alphabetical, like the API). */
export function exampleRecord(collection: CollectionModel): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: 'RECORD_ID',
    collectionId: collection.id,
    collectionName: collection.name,
  };
  if (collection.type !== 'view') {
    out.created = EXAMPLE_DATE;
    out.updated = EXAMPLE_DATE;
  }
  if (collection.type === 'auth') {
    out.username = 'username123';
    out.email = 'test@example.com';
    out.emailVisibility = false;
    out.verified = true;
  }
  for (const f of live(collection)) out[f.name] = exampleValue(f);
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
}

/** A field's type as a client sends and reads it. */
const typeLabel = (field: SchemaField): string => fieldDefinition(field.type).docs.typeLabel({ ...field, options: field.options ?? {} });

/** The field's options in words: limits, allowed values, targets. */
export function fieldDescription(field: SchemaField, lookup: Lookup, words: Words): string {
  const parts = fieldDefinition(field.type).docs.describe?.({ ...field, options: field.options ?? {} }, lookup) ?? [];
  const text = parts.map((p) => words(p.key, p.values)).join('; ');
  return text ? text[0].toUpperCase() + text.slice(1) + '.' : '';
}

/** The fields a read endpoint returns. */
export function responseFields(collection: CollectionModel, lookup: Lookup, words: Words): DocParam[] {
  const out: DocParam[] = [
    { name: 'id', type: 'String', description: words('apiDocs.field.id') },
    { name: 'collectionId', type: 'String', description: words('apiDocs.field.always', { value: collection.id }) },
    { name: 'collectionName', type: 'String', description: words('apiDocs.field.always', { value: collection.name }) },
  ];
  if (collection.type !== 'view') {
    out.push({ name: 'created', type: 'String (date)', description: words('apiDocs.field.created') });
    out.push({ name: 'updated', type: 'String (date)', description: words('apiDocs.field.updated') });
  }
  if (collection.type === 'auth') {
    out.push(
      { name: 'username', type: 'String', description: words('apiDocs.field.username') },
      { name: 'email', type: 'String (email)', description: words('apiDocs.field.email') },
      { name: 'emailVisibility', type: 'Boolean', description: words('apiDocs.field.emailVisibility') },
      { name: 'verified', type: 'Boolean', description: words('apiDocs.field.verified') },
    );
  }
  for (const f of live(collection)) out.push({ name: f.name, type: typeLabel(f), description: fieldDescription(f, lookup, words) });
  return out;
}

/** The body of create (isNew) or update: auth fields first, then the schema fields. */
export function bodyParams(collection: CollectionModel, isNew: boolean, lookup: Lookup, words: Words): DocParam[] {
  const out: DocParam[] = [];
  if (isNew) out.push({ name: 'id', type: 'String', description: words('apiDocs.body.id') });
  if (collection.type === 'auth') {
    const o = collection.options ?? {};
    const minPass = Number(o.minPasswordLength) || 8;
    out.push(
      { name: 'username', type: 'String', description: words('apiDocs.body.username') },
      { name: 'email', type: 'String (email)', required: isNew && !!o.requireEmail, description: isNew ? words('apiDocs.accountEmail') : words('apiDocs.body.emailUpdate') },
      { name: 'emailVisibility', type: 'Boolean', description: words('apiDocs.body.emailVisibility') },
      { name: 'oldPassword', type: 'String', description: words('apiDocs.body.oldPassword') },
      { name: 'password', type: 'String', required: isNew, description: words('apiDocs.body.password', { min: minPass }) },
      { name: 'passwordConfirm', type: 'String', required: isNew, description: words('apiDocs.samePassword') },
      { name: 'verified', type: 'Boolean', description: words('apiDocs.body.verified') },
    );
    if (isNew) out.splice(out.findIndex((p) => p.name === 'oldPassword'), 1);
  }
  for (const f of live(collection)) {
    out.push({ name: f.name, type: typeLabel(f), required: isNew && f.required, description: fieldDescription(f, lookup, words) });
  }
  return out;
}

/** A create/update body example (files left out: they go as multipart). */
export function exampleBody(collection: CollectionModel, isNew: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (collection.type === 'auth') {
    out.username = 'username123';
    out.email = 'test@example.com';
    out.emailVisibility = true;
    if (!isNew) out.oldPassword = '12345678';
    out.password = '12345678';
    out.passwordConfirm = '12345678';
  }
  for (const f of live(collection)) if (!fieldDefinition(f.type).uploads) out[f.name] = exampleValue(f);
  return out;
}

/** The names of the collection's file fields (sent as multipart/form-data). */
export const fileFields = (collection: CollectionModel) => live(collection).filter((f) => fieldDefinition(f.type).uploads).map((f) => f.name);
