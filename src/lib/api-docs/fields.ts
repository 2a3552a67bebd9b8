// The parts of the API docs that come from a collection's fields: an example record built from
// the schema, each field's type and constraints in words, and the request body of create/update.
// Pure TypeScript (no React): the docs overlay renders it and unit tests read it.
import type { CollectionModel, SchemaField } from '../collections/types';
import { isMultiple } from '../collections/fields';
import { maxSelectOf } from '../record-schema';

export interface DocParam {
  name: string;
  type: string;
  required?: boolean;
  description: string;
}

type Lookup = (id: string) => { name: string } | undefined;

const EXAMPLE_DATE = '2022-01-01 10:00:00.123Z';

const live = (c: Pick<CollectionModel, 'schema'>) => (c.schema ?? []).filter((f) => !f.toDelete && f.name);

// PocketBase's multiple rule, as the server applies it: a relation without maxSelect holds any number
const maxSelect = (f: SchemaField) => maxSelectOf(f) ?? 1;

/** An example value of a field, as the API would return it. */
export function exampleValue(field: SchemaField): unknown {
  const values = Array.isArray(field.options?.values) ? (field.options.values as string[]) : [];
  switch (field.type) {
    case 'text':
      return 'test';
    case 'editor':
      return '<p>test</p>';
    case 'number':
      return 123;
    case 'bool':
      return true;
    case 'email':
      return 'test@example.com';
    case 'url':
      return 'https://example.com';
    case 'date':
      return EXAMPLE_DATE;
    case 'json':
      return { key: 'value' };
    case 'select':
      return isMultiple(field) ? values.slice(0, Math.min(2, maxSelect(field))) : (values[0] ?? '');
    case 'file':
      return isMultiple(field) ? ['filename_a1b2c3d4e5.jpg'] : 'filename_a1b2c3d4e5.jpg';
    case 'relation':
      return isMultiple(field) ? ['RELATION_RECORD_ID'] : 'RELATION_RECORD_ID';
    default:
      return '';
  }
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
function typeLabel(field: SchemaField): string {
  const many = isMultiple(field);
  switch (field.type) {
    case 'text':
    case 'editor':
      return 'String';
    case 'number':
      return 'Number';
    case 'bool':
      return 'Boolean';
    case 'email':
      return 'String (email)';
    case 'url':
      return 'String (URL)';
    case 'date':
      return 'String (date)';
    case 'json':
      return 'JSON';
    case 'select':
      return many ? 'Array<String>' : 'String';
    case 'file':
      return many ? 'Array<File>' : 'File';
    case 'relation':
      return many ? 'Array<String> (record ids)' : 'String (record id)';
    default:
      return field.type;
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v !== 0 ? v : null);

/** The field's options in words: limits, allowed values, targets. */
export function fieldDescription(field: SchemaField, lookup: Lookup): string {
  const o = field.options ?? {};
  const parts: string[] = [];
  switch (field.type) {
    case 'text':
    case 'editor': {
      const min = num(o.min);
      const max = num(o.max);
      if (min !== null) parts.push(`at least ${min} characters`);
      if (max !== null) parts.push(`at most ${max} characters`);
      if (typeof o.pattern === 'string' && o.pattern) parts.push(`matching /${o.pattern}/`);
      if (field.type === 'editor') parts.push('HTML');
      break;
    }
    case 'number': {
      const min = num(o.min);
      const max = num(o.max);
      if (min !== null) parts.push(`minimum ${min}`);
      if (max !== null) parts.push(`maximum ${max}`);
      if (o.noDecimal) parts.push('integers only');
      break;
    }
    case 'email':
    case 'url': {
      const only = Array.isArray(o.onlyDomains) ? (o.onlyDomains as string[]) : [];
      const except = Array.isArray(o.exceptDomains) ? (o.exceptDomains as string[]) : [];
      if (only.length) parts.push(`only the domains ${only.join(', ')}`);
      if (except.length) parts.push(`not the domains ${except.join(', ')}`);
      break;
    }
    case 'date':
      if (typeof o.min === 'string' && o.min) parts.push(`not before ${o.min}`);
      if (typeof o.max === 'string' && o.max) parts.push(`not after ${o.max}`);
      break;
    case 'select': {
      const values = Array.isArray(o.values) ? (o.values as string[]) : [];
      parts.push(`one${isMultiple(field) ? ` or more (up to ${maxSelect(field)})` : ''} of: ${values.join(', ')}`);
      break;
    }
    case 'file': {
      if (isMultiple(field)) parts.push(`up to ${maxSelect(field)} files`);
      const size = num(o.maxSize);
      if (size !== null) parts.push(`${isMultiple(field) ? 'each ' : ''}at most ${size} bytes`);
      const mimes = Array.isArray(o.mimeTypes) ? (o.mimeTypes as string[]) : [];
      if (mimes.length) parts.push(`types ${mimes.join(', ')}`);
      if (o.protected) parts.push('protected (downloads need a file token)');
      break;
    }
    case 'relation': {
      const target = lookup(String(o.collectionId ?? ''))?.name ?? String(o.collectionId ?? '');
      parts.push(`${isMultiple(field) ? 'ids of records' : 'the id of a record'} of "${target}"`);
      if (isMultiple(field) && maxSelectOf(field) !== undefined) parts.push(`up to ${maxSelect(field)}`);
      if (o.cascadeDelete) parts.push('deleted together with its target');
      break;
    }
    case 'json': {
      const size = num(o.maxSize);
      if (size !== null) parts.push(`at most ${size} bytes`);
      break;
    }
  }
  const text = parts.join('; ');
  return text ? text[0].toUpperCase() + text.slice(1) + '.' : '';
}

/** The fields a read endpoint returns. */
export function responseFields(collection: CollectionModel, lookup: Lookup): DocParam[] {
  const out: DocParam[] = [
    { name: 'id', type: 'String', description: 'The record id.' },
    { name: 'collectionId', type: 'String', description: `Always "${collection.id}".` },
    { name: 'collectionName', type: 'String', description: `Always "${collection.name}".` },
  ];
  if (collection.type !== 'view') {
    out.push({ name: 'created', type: 'String (date)', description: 'When the record was created (UTC).' });
    out.push({ name: 'updated', type: 'String (date)', description: 'When the record was last changed (UTC).' });
  }
  if (collection.type === 'auth') {
    out.push(
      { name: 'username', type: 'String', description: 'The account username.' },
      { name: 'email', type: 'String (email)', description: 'Only shown to the owner, admins, managers, or when emailVisibility is on.' },
      { name: 'emailVisibility', type: 'Boolean', description: 'Whether everyone who can see the record sees its email.' },
      { name: 'verified', type: 'Boolean', description: 'Whether the email was confirmed.' },
    );
  }
  for (const f of live(collection)) out.push({ name: f.name, type: typeLabel(f), description: fieldDescription(f, lookup) });
  return out;
}

/** The body of create (isNew) or update: auth fields first, then the schema fields. */
export function bodyParams(collection: CollectionModel, isNew: boolean, lookup: Lookup): DocParam[] {
  const out: DocParam[] = [];
  if (isNew) out.push({ name: 'id', type: 'String', description: '15 characters; generated when left out.' });
  if (collection.type === 'auth') {
    const o = collection.options ?? {};
    const minPass = Number(o.minPasswordLength) || 8;
    out.push(
      { name: 'username', type: 'String', description: 'Generated when left out on create.' },
      { name: 'email', type: 'String (email)', required: isNew && !!o.requireEmail, description: isNew ? 'The account email.' : 'Admins only; others use the email change flow.' },
      { name: 'emailVisibility', type: 'Boolean', description: 'Whether the email is visible to everyone who can see the record.' },
      {
        name: 'oldPassword',
        type: 'String',
        description: 'Required when a non-admin changes the password of its own account.',
      },
      { name: 'password', type: 'String', required: isNew, description: `At least ${minPass} characters.` },
      { name: 'passwordConfirm', type: 'String', required: isNew, description: 'The same as password.' },
      { name: 'verified', type: 'Boolean', description: 'Only admins and managers may set it.' },
    );
    if (isNew) out.splice(out.findIndex((p) => p.name === 'oldPassword'), 1);
  }
  for (const f of live(collection)) {
    out.push({ name: f.name, type: typeLabel(f), required: isNew && f.required, description: fieldDescription(f, lookup) });
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
  for (const f of live(collection)) if (f.type !== 'file') out[f.name] = exampleValue(f);
  return out;
}

/** The names of the collection's file fields (sent as multipart/form-data). */
export const fileFields = (collection: CollectionModel) => live(collection).filter((f) => f.type === 'file').map((f) => f.name);
