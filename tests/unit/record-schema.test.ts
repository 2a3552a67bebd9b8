// The generated record schema and form (src/lib/record-schema.ts, src/lib/record-form.ts): each field type's JSON Schema and UI schema,
// sample values judged by ajv (the engine's strict instance, as the server runs it, and the
// dashboard's runtime validator with the engine's messages), and the server's error mapping.
import { describe, expect, it } from 'vitest';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import { validateData } from '../../src/engine/validator';
import { parseJsonText, recordFormSchema, recordToFormData, toFormDate } from '../../src/lib/record-form';
import {
  fieldValueSchema,
  isMultiple,
  recordDataSchema,
  recordSchemaErrors,
  withoutEmptyValues,
  type RecordCollectionLike,
  type RecordFieldLike,
} from '../../src/lib/record-schema';

const f = (name: string, type: string, options: Record<string, unknown> = {}, required = false): RecordFieldLike => ({ name, type, options, required });

const collection: RecordCollectionLike = {
  id: 'c1',
  name: 'posts',
  type: 'base',
  schema: [
    f('title', 'text', { min: 2, max: 10, pattern: '^[a-z]+$' }, true),
    f('body', 'editor'),
    f('count', 'number', { min: 1, max: 100, noDecimal: true }),
    f('flag', 'bool'),
    f('mail', 'email'),
    f('link', 'url'),
    f('at', 'date', { min: '2020-01-01 00:00:00.000Z' }),
    f('one', 'select', { maxSelect: 1, values: ['a', 'b'] }),
    f('many', 'select', { maxSelect: 2, values: ['a', 'b', 'c', 'd', 'e', 'f'] }),
    f('meta', 'json', { maxSize: 100 }),
    f('cover', 'file', { maxSelect: 1, mimeTypes: ['image/png'], thumbs: ['50x50'] }),
    f('docs', 'file', { maxSelect: 3 }),
    f('tag', 'relation', { collectionId: 't', maxSelect: 1 }),
    f('tagz', 'relation', { collectionId: 't', maxSelect: 3, minSelect: 2 }),
  ],
};

const ajv = createStrictAjv({ unicodeRegExp: false, verbose: true });
const serverErrors = (data: Record<string, unknown>) => {
  const schema = recordDataSchema(collection);
  const validate = ajv.compile(schema);
  return validate(withoutEmptyValues(data)) ? {} : recordSchemaErrors(schema, validate.errors ?? []);
};

describe('field schemas', () => {
  it('text: lengths and pattern with PocketBase codes', () => {
    const s = fieldValueSchema(collection.schema[0]);
    expect(s).toMatchObject({ type: 'string', minLength: 2, maxLength: 10, pattern: '^[a-z]+$' });
    expect(serverErrors({ title: 'a' }).title).toEqual({ code: 'validation_min_text_constraint', message: 'Must be at least 2 character(s).' });
    expect(serverErrors({ title: 'abcdefghijkl' }).title.code).toBe('validation_max_text_constraint');
    expect(serverErrors({ title: 'ABC' }).title).toEqual({ code: 'validation_invalid_format', message: 'Invalid value format.' });
    expect(serverErrors({ title: '' }).title).toEqual({ code: 'validation_required', message: 'Missing required value.' });
    expect(serverErrors({ title: 'abc' })).toEqual({});
  });

  it('an invalid JS pattern is left to code', () => {
    expect(fieldValueSchema(f('x', 'text', { pattern: '(' })).pattern).toBeUndefined();
  });

  it('number: limits skip 0 (blank), noDecimal first', () => {
    const s = fieldValueSchema(collection.schema[2]);
    expect(s).toMatchObject({ type: 'number', if: { const: 0 }, else: { minimum: 1, maximum: 100, multipleOf: 1 } });
    expect(serverErrors({ title: 'ab', count: 1.5 }).count.code).toBe('validation_no_decimal_constraint');
    expect(serverErrors({ title: 'ab', count: 101 }).count).toEqual({ code: 'validation_max_number_constraint', message: 'Must be less than 100.000000.' });
    expect(serverErrors({ title: 'ab', count: 0 })).toEqual({});
    // the dashboard sees a typed 0 the same way
    expect(validateData(recordFormSchema(collection, { isNew: true }).schema as never, { title: 'ab', count: 0 }).isValid).toBe(true);
  });

  it('required means non-blank for every type', () => {
    const req: RecordCollectionLike = {
      name: 'req',
      type: 'base',
      schema: [f('n', 'number', {}, true), f('b', 'bool', {}, true), f('j', 'json', {}, true), f('d', 'date', {}, true), f('m', 'select', { maxSelect: 2, values: ['x'] }, true)],
    };
    const schema = recordDataSchema(req);
    const validate = ajv.compile(schema);
    expect(validate(withoutEmptyValues({ n: 0, b: false, j: null, d: '', m: [] }))).toBe(false);
    const errors = recordSchemaErrors(schema, validate.errors ?? []);
    for (const k of ['n', 'b', 'j', 'd', 'm']) expect(errors[k]).toEqual({ code: 'validation_required', message: 'Missing required value.' });
  });

  it('email shape; url and dates are left to code', () => {
    expect(serverErrors({ title: 'ab', mail: 'nope' }).mail).toEqual({ code: 'validation_invalid_email', message: 'Must be a valid email.' });
    expect(serverErrors({ title: 'ab', mail: 'a@example.com' })).toEqual({});
    expect(fieldValueSchema(f('u', 'url'))).toMatchObject({ type: 'string' });
    expect(fieldValueSchema(f('u', 'url')).format).toBeUndefined();
  });

  it('select: values and maxSelect, "Invalid value x."', () => {
    expect(fieldValueSchema(collection.schema[7])).toMatchObject({ type: 'string', enum: ['a', 'b'] });
    expect(fieldValueSchema(collection.schema[8])).toMatchObject({ type: 'array', maxItems: 2, items: { enum: ['a', 'b', 'c', 'd', 'e', 'f'] } });
    expect(serverErrors({ title: 'ab', one: 'z' }).one).toEqual({ code: 'validation_invalid_value', message: 'Invalid value z.' });
    expect(serverErrors({ title: 'ab', many: ['a', 'b', 'c'] }).many).toEqual({ code: 'validation_too_many_values', message: 'Select no more than 2.' });
  });

  it('file and relation counts', () => {
    expect(fieldValueSchema(collection.schema[10])).toMatchObject({ type: 'string' });
    expect(fieldValueSchema(collection.schema[11])).toMatchObject({ type: 'array', maxItems: 3 });
    expect(serverErrors({ title: 'ab', docs: ['a', 'b', 'c', 'd'] }).docs.code).toBe('validation_too_many_values');
    expect(serverErrors({ title: 'ab', tagz: ['x'] }).tagz).toEqual({ code: 'validation_not_enough_values', message: 'Select at least 2.' });
    expect(serverErrors({ title: 'ab', tagz: ['1', '2', '3', '4'] }).tagz.code).toBe('validation_too_many_values');
    expect(isMultiple(f('r', 'relation', { maxSelect: null }))).toBe(true);
    expect(isMultiple(f('r', 'relation', { maxSelect: 1 }))).toBe(false);
  });
});

describe('the record form', () => {
  it('lays out id, then the fields, with their widgets and options', () => {
    const { schema, uiSchema } = recordFormSchema(collection, { isNew: true });
    expect(Object.keys(schema.properties as object)).toEqual(['id', ...collection.schema.map((x) => x.name)]);
    expect(schema.required).toEqual(['title']);
    expect(uiSchema.id).toMatchObject({ 'ui:placeholder': 'Leave empty to auto generate...' });
    const ui = uiSchema as Record<string, { 'ui:widget': string; 'ui:options': Record<string, unknown>; 'ui:help'?: string }>;
    expect(Object.fromEntries(collection.schema.map((x) => [x.name, ui[x.name]['ui:widget']]))).toEqual({
      title: 'recordText',
      body: 'recordEditor',
      count: 'recordNumber',
      flag: 'toggle',
      mail: 'email',
      link: 'uri',
      at: 'recordDate',
      one: 'recordSelect',
      many: 'recordSelect',
      meta: 'recordJson',
      cover: 'recordFile',
      docs: 'recordFile',
      tag: 'recordRelation',
      tagz: 'recordRelation',
    });
    expect(ui.many['ui:options']).toMatchObject({ multiple: true, maxSelect: 2, searchable: true });
    expect(ui.one['ui:options']).toMatchObject({ multiple: false, searchable: false });
    expect(ui.many['ui:help']).toBe('Select up to 2 items.');
    expect(ui.cover['ui:options']).toMatchObject({ accept: 'image/png', thumbs: ['50x50'], maxSelect: 1 });
    expect(ui.tagz['ui:options']).toMatchObject({ collectionId: 't', multiple: true, maxSelect: 3, minSelect: 2 });
    expect(ui.at['ui:options']).toMatchObject({ min: '2020-01-01 00:00:00.000Z' });
  });

  it('validates a new record id: 15 characters, no forbidden ones; read-only on edit', () => {
    const { schema } = recordFormSchema(collection, { isNew: true });
    expect(validateData(schema as never, { id: 'short', title: 'ab' }).errorSchema).toMatchObject({ id: { __errors: ['The length must be exactly 15.'] } });
    expect(validateData(schema as never, { id: 'abc.def/ghijklm', title: 'ab' }).errorSchema).toMatchObject({ id: { __errors: ['Must be in a valid format.'] } });
    expect(validateData(schema as never, { id: 'abcdefghijklmno', title: 'ab' }).isValid).toBe(true);
    expect(validateData(schema as never, { title: 'ab' }).isValid).toBe(true);
    expect(recordFormSchema(collection, { isNew: false }).schema.properties).toMatchObject({ id: { readOnly: true } });
  });

  it('shows the same messages in the dashboard', () => {
    const { schema } = recordFormSchema(collection, { isNew: true });
    const r = validateData(schema as never, { title: 'a', many: ['a', 'b', 'c'], mail: 'x' });
    expect(r.errorSchema).toMatchObject({
      title: { __errors: ['Must be at least 2 character(s).'] },
      many: { __errors: ['Select no more than 2.'] },
      mail: { __errors: ['Must be a valid email.'] },
    });
    expect(validateData(schema as never, {}).errorSchema).toMatchObject({ title: { __errors: ['Missing required value.'] } });
  });

  it('auth collections: account fields, password on new or when changing it', () => {
    const auth: RecordCollectionLike = { name: 'users', type: 'auth', schema: [f('nick', 'text')], options: { requireEmail: true, minPasswordLength: 8 } };
    const fresh = recordFormSchema(auth, { isNew: true });
    expect(Object.keys(fresh.schema.properties as object)).toEqual(['id', 'username', 'email', 'emailVisibility', 'verified', 'password', 'passwordConfirm', 'nick']);
    expect(fresh.schema.required).toEqual(['username', 'email', 'password', 'passwordConfirm']);
    expect(validateData(fresh.schema as never, { username: 'abc', email: 'a@b.co', password: 'short', passwordConfirm: 'short' }).errorSchema).toMatchObject({
      password: { __errors: ['The length must be between 8 and 72.'] },
    });
    expect(validateData(fresh.schema as never, { username: 'abc', email: 'a@b.co', password: '12345678', passwordConfirm: '12345679' }).errorSchema).toMatchObject({
      passwordConfirm: { __errors: ["Values don't match."] },
    });
    const edit = recordFormSchema(auth, { isNew: false });
    expect((edit.uiSchema.username as Record<string, unknown>)['ui:placeholder']).toBe('Leave empty to auto generate...');
    expect(edit.schema.required).toEqual(['email']);
    expect(validateData(edit.schema as never, { email: 'a@b.co' }).isValid).toBe(true);
    expect(validateData(edit.schema as never, { email: 'a@b.co', changePassword: true }).isValid).toBe(false);
  });
});

describe('values', () => {
  it('record → form data: dates cut to 19 characters, JSON as text, lists by maxSelect', () => {
    const data = recordToFormData(collection, {
      id: 'r1',
      title: 'x',
      count: 3,
      at: '2024-05-06 12:30:00.000Z',
      meta: { a: 1 },
      one: 'b',
      many: ['a'],
      docs: ['f.png'],
      tagz: ['t1', 't2'],
    });
    expect(data).toMatchObject({ id: 'r1', title: 'x', count: 3, at: '2024-05-06 12:30:00', meta: '{\n  "a": 1\n}', one: 'b', many: ['a'], docs: ['f.png'], cover: '', tagz: ['t1', 't2'], flag: false });
    expect(recordToFormData(collection, null)).toMatchObject({ id: '', title: '', meta: '', many: [], tag: '' });
    expect(toFormDate('2024-01-02T03:04:05.678Z')).toBe('2024-01-02 03:04:05');
  });

  it('JSON text parses (empty is null) or reports the parse message', () => {
    expect(parseJsonText('')).toEqual({ ok: true, value: null });
    expect(parseJsonText('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    const bad = parseJsonText('{"a":');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/SyntaxError/);
  });
});
