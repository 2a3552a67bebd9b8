// The record form's eval-free validator (src/engine/interpret-schema.ts through rjsf's precompiled
// machinery) against ajv, the reference: the same record form schemas (every field type, auth
// accounts with password confirmation and the changePassword condition), the same documents, the
// same verdicts and the same error messages per field.
import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { interpretedValidatorFor } from '../../src/engine/rjsf-validators';
import { validateWith } from '../../src/engine/validation';
import { validateData } from '../../src/engine/validator';
import { interpretSchema } from '../../src/engine/interpret-schema';
import { recordFormSchema } from '../../src/lib/record-form';
import type { RecordCollectionLike, RecordFieldLike } from '../../src/lib/record-schema';

const f = (name: string, type: string, options: Record<string, unknown> = {}, required = false): RecordFieldLike => ({ name, type, options, required });

const base: RecordCollectionLike = {
  id: 'c1',
  name: 'posts',
  type: 'base',
  schema: [
    f('title', 'text', { min: 2, max: 10, pattern: '^[a-z]+$' }, true),
    f('body', 'editor'),
    f('count', 'number', { min: 1, max: 100, noDecimal: true }),
    f('ratio', 'number', { min: -1.5, max: 1.5 }),
    f('flag', 'bool'),
    f('mail', 'email', { exceptDomains: ['bad.com'] }),
    f('link', 'url'),
    f('at', 'date', { min: '2020-01-01 00:00:00.000Z' }),
    f('one', 'select', { maxSelect: 1, values: ['a', 'b'] }),
    f('many', 'select', { maxSelect: 2, values: ['a', 'b', 'c', 'd', 'e', 'f'] }, true),
    f('meta', 'json', { maxSize: 100 }),
    f('cover', 'file', { maxSelect: 1, mimeTypes: ['image/png'], thumbs: ['50x50'] }),
    f('docs', 'file', { maxSelect: 3 }),
    f('tag', 'relation', { collectionId: 't', maxSelect: 1 }),
    f('tagz', 'relation', { collectionId: 't', maxSelect: 3, minSelect: 2 }),
  ],
};
const auth: RecordCollectionLike = { name: 'users', type: 'auth', schema: [f('nick', 'text', { max: 5 })], options: { requireEmail: true, minPasswordLength: 8 } };

const DOCS: Record<string, unknown>[] = [
  {},
  { title: 'abc', many: ['a'] },
  { title: 'a', many: ['a', 'b', 'c'], mail: 'x', count: 0.5, ratio: 9 },
  { title: 'ABC', many: [], count: 101, link: 'not a url', one: 'z' },
  { title: 'abcdefghijklmn', many: ['a', 'a'], tagz: ['x'], docs: ['1', '2', '3', '4'], count: 'seven' },
  { title: 'ok', many: ['f'], meta: { a: [1, 2, { b: null }] }, at: '2019-01-01 00:00:00.000Z', flag: 'yes' },
  { id: 'short', title: 'ab', many: ['b'] },
  { id: 'abc.def/ghijklm', title: 'ab', many: ['b'] },
  { id: 'abcdefghijklmno', title: 'ab', many: ['b'], tagz: ['1', '2', '3', '4'], ratio: -1.5 },
  { title: 'ab', many: ['b'], mail: 'someone@bad.com', link: 'https://example.com/x?y=1' },
];
const AUTH_DOCS: Record<string, unknown>[] = [
  {},
  { username: 'abc', email: 'a@b.co', password: 'short', passwordConfirm: 'short' },
  { username: 'abc', email: 'a@b.co', password: '12345678', passwordConfirm: '12345679' },
  { username: 'a b', email: 'nope', password: '12345678', passwordConfirm: '12345678', nick: 'toolong' },
  { username: 'abc', email: 'a@b.co', password: '12345678', passwordConfirm: '12345678', verified: true, emailVisibility: false },
  { email: 'a@b.co', changePassword: true, oldPassword: '', password: '1', passwordConfirm: '' },
  { email: 'a@b.co', changePassword: false, password: '1' },
];

function compare(schema: RJSFSchema, docs: Record<string, unknown>[]) {
  const interpreted = interpretedValidatorFor(schema);
  for (const doc of docs) {
    const reference = validateData(schema, doc);
    const ours = validateWith(interpreted, schema, doc);
    expect(ours.isValid, JSON.stringify(doc)).toBe(reference.isValid);
    expect(ours.errorSchema, JSON.stringify(doc)).toEqual(reference.errorSchema);
  }
}

describe('interpreted record validator = ajv', () => {
  it('base collection, new and existing records', () => {
    compare(recordFormSchema(base, { isNew: true }).schema as RJSFSchema, DOCS);
    compare(recordFormSchema(base, { isNew: false }).schema as RJSFSchema, DOCS);
  });

  it('auth collection: account fields, password confirmation, the changePassword condition', () => {
    compare(recordFormSchema(auth, { isNew: true }).schema as RJSFSchema, AUTH_DOCS);
    compare(recordFormSchema(auth, { isNew: false }).schema as RJSFSchema, AUTH_DOCS);
  });

  it('reports failures at all (a validator that accepts everything would fail here)', () => {
    const r = validateWith(interpretedValidatorFor(recordFormSchema(base, { isNew: true }).schema as RJSFSchema), recordFormSchema(base, { isNew: true }).schema as RJSFSchema, { title: 'a' });
    expect(r.isValid).toBe(false);
    expect(r.errorSchema).toMatchObject({ title: { __errors: ['Must be at least 2 character(s).'] } });
  });
});

describe('interpretSchema keywords', () => {
  const errs = (schema: object, data: unknown) => {
    const v = interpretSchema(schema as never);
    v(data);
    return (v.errors ?? []).map((e) => `${e.instancePath}:${e.keyword}`);
  };
  it('anyOf / oneOf / not / const / uniqueItems / additionalProperties / local $ref', () => {
    expect(errs({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toEqual([':type', ':type', ':anyOf']);
    expect(errs({ anyOf: [{ type: 'string' }, { type: 'number' }] }, 1)).toEqual([]);
    expect(errs({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toEqual([':oneOf']);
    expect(errs({ not: { const: 3 } }, 3)).toEqual([':not']);
    expect(errs({ type: 'array', uniqueItems: true }, [1, { a: 1 }, { a: 1 }])).toEqual([':uniqueItems']);
    expect(errs({ type: 'object', properties: { a: {} }, additionalProperties: false }, { a: 1, b: 2 })).toEqual([':additionalProperties']);
    expect(errs({ definitions: { s: { type: 'string', minLength: 2 } }, properties: { x: { $ref: '#/definitions/s' } } }, { x: 'a' })).toEqual(['/x:minLength']);
    expect(errs({ type: 'string', minLength: 2 }, '😀')).toEqual([':minLength']); // code points, as ajv
  });
});
