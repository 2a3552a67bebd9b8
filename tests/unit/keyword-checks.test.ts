// Every custom keyword means the same to ajv (the server, the build-time validators) and to the
// run-time interpreter (the dashboard's record forms and pre-save checks): one table of cases, each
// judged by both, with the same verdict and the same failing keyword, place and params; and the
// interpreter refuses a custom keyword it has no check for instead of passing it silently.
import { describe, expect, it } from 'vitest';
import type { ErrorObject } from 'ajv';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import { contextErrors } from '../../src/engine/context-errors';
import { interpretSchema } from '../../src/engine/interpret-schema';
import { CUSTOM_KEYWORD_NAMES } from '../../src/lib/schema/keywords';
import { readForm } from '../../src/lib/schema/catalog-files';
import { ANNOTATION_KEYWORDS } from '../../src/lib/schema/keyword-names';
import { KEYWORD_CHECKS, type KeywordContext } from '../../src/lib/schema/keyword-checks';

type Json = Record<string, unknown>;

const props = (properties: Json): Json => ({ type: 'object', properties });

const COLLECTIONS = [
  { id: 'users0000000001', name: 'users', type: 'auth' },
  { id: 'posts0000000001', name: 'posts', type: 'base' },
  { id: 'cheap0000000001', name: 'cheap', type: 'view' },
];
const lookup = (idOrName: string) => COLLECTIONS.find((c) => c.id === idOrName || c.name === idOrName);
const RELATION = readForm('schemas', 'fields/relation').schema;

/** [label, schema, data, context, expected to pass] */
const CASES: [string, Json, unknown, KeywordContext | undefined, boolean][] = [
  ['x-sameAs equal', props({ a: {}, b: { 'x-sameAs': 'a' } }), { a: 'x', b: 'x' }, undefined, true],
  ['x-sameAs different', props({ a: {}, b: { 'x-sameAs': 'a' } }), { a: 'x', b: 'y' }, undefined, false],
  ['x-sameAs without a parent', { 'x-sameAs': 'a' }, 'x', undefined, true],
  ['x-notEmpty 0', props({ v: { 'x-notEmpty': true } }), { v: 0 }, undefined, false],
  ['x-notEmpty ""', props({ v: { 'x-notEmpty': true } }), { v: '' }, undefined, false],
  ['x-notEmpty []', props({ v: { 'x-notEmpty': true } }), { v: [] }, undefined, false],
  ['x-notEmpty set', props({ v: { 'x-notEmpty': true } }), { v: 3 }, undefined, true],
  ['x-notEmpty null', props({ v: { 'x-notEmpty': true } }), { v: null }, undefined, true],
  ['x-notEmpty items', { type: 'array', items: { 'x-notEmpty': true } }, ['a', '', 'b', 0], undefined, false],
  ['x-minimumOf below', props({ min: {}, max: { 'x-minimumOf': 'min' } }), { min: 5, max: 2 }, undefined, false],
  ['x-minimumOf negative below 0', props({ min: {}, max: { 'x-minimumOf': 'min' } }), { min: 0, max: -1 }, undefined, false],
  ['x-minimumOf unset value', props({ min: {}, max: { 'x-minimumOf': 'min' } }), { min: 5, max: 0 }, undefined, true],
  ['x-minimumOf dates', props({ min: {}, max: { 'x-minimumOf': 'min' } }), { min: '2024-02-01', max: '2024-01-01' }, undefined, false],
  ['x-minimumOf other type', props({ min: {}, max: { 'x-minimumOf': 'min' } }), { min: 2, max: 'a' }, undefined, true],
  ['x-integerWhen decimal', props({ noDecimal: {}, v: { 'x-integerWhen': 'noDecimal' } }), { noDecimal: true, v: 1.5 }, undefined, false],
  ['x-integerWhen off', props({ noDecimal: {}, v: { 'x-integerWhen': 'noDecimal' } }), { noDecimal: false, v: 1.5 }, undefined, true],
  ['x-maximumCountOf above', props({ values: {}, n: { 'x-maximumCountOf': 'values' } }), { values: ['a', 'b'], n: 3 }, undefined, false],
  ['x-maximumCountOf no values', props({ values: {}, n: { 'x-maximumCountOf': 'values' } }), { n: 2 }, undefined, false],
  ['x-maximumCountOf within', props({ values: {}, n: { 'x-maximumCountOf': 'values' } }), { values: [], n: 1 }, undefined, true],
  ['x-unchanged changed', props({ c: { 'x-unchanged': true } }), { c: 'b' }, { previous: { c: 'a' } }, false],
  ['x-unchanged same', props({ c: { 'x-unchanged': true } }), { c: 'a' }, { previous: { c: 'a' } }, true],
  ['x-unchanged new property', props({ c: { 'x-unchanged': true } }), { c: 'b' }, { previous: {} }, true],
  ['x-unchanged without context', props({ c: { 'x-unchanged': true } }), { c: 'b' }, undefined, true],
  ['x-collectionExists missing', props({ c: { 'x-collectionExists': true } }), { c: 'nope' }, { collection: lookup }, false],
  ['x-collectionExists by name', props({ c: { 'x-collectionExists': true } }), { c: 'users' }, { collection: lookup }, false],
  ['x-collectionExists by id', props({ c: { 'x-collectionExists': true } }), { c: 'users0000000001' }, { collection: lookup }, true],
  ['x-collectionExists without context', props({ c: { 'x-collectionExists': true } }), { c: 'nope' }, undefined, true],
  ['x-notView a view', props({ c: { 'x-notView': true } }), { c: 'cheap0000000001' }, { collection: lookup, collectionType: 'base' }, false],
  ['x-notView from a view', props({ c: { 'x-notView': true } }), { c: 'cheap0000000001' }, { collection: lookup, collectionType: 'view' }, true],
  ['x-notView a base', props({ c: { 'x-notView': true } }), { c: 'posts0000000001' }, { collection: lookup, collectionType: 'auth' }, true],
  ['relation options, fine', RELATION, { collectionId: 'posts0000000001', maxSelect: 1 }, { collection: lookup, collectionType: 'base' }, true],
  ['relation options, retargeted to a view', RELATION, { collectionId: 'cheap0000000001', maxSelect: 3, minSelect: 5 }, { collection: lookup, collectionType: 'base', previous: { collectionId: 'posts0000000001' } }, false],
];

/** What both validators must agree on: where, which keyword, with which params. */
const shape = (errors: readonly ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .map((e) => JSON.stringify([e.instancePath, e.schemaPath, e.keyword, e.params]))
    .sort();

describe('custom keywords: ajv and the interpreter agree', () => {
  const ajv = createStrictAjv();

  it.each(CASES)('%s', (_label, schema, data, context, valid) => {
    const compiled = ajv.compile(schema);
    const interpreted = interpretSchema(schema);
    expect(compiled.call(context, data)).toBe(valid);
    expect(interpreted.call(context, data)).toBe(valid);
    expect(shape(interpreted.errors)).toEqual(shape(compiled.errors));
  });

  it('covers every custom keyword that is not an annotation', () => {
    const checked = CUSTOM_KEYWORD_NAMES.filter((k) => !ANNOTATION_KEYWORDS.includes(k));
    expect(Object.keys(KEYWORD_CHECKS).sort()).toEqual([...checked].sort());
    for (const keyword of checked) expect(CASES.some(([label]) => label.startsWith(keyword)), keyword).toBe(true);
  });
});

describe('the interpreter', () => {
  it('throws on a custom keyword it has no check for, wherever it sits', () => {
    expect(() => interpretSchema(props({ a: { 'x-somethingNew': 1 } }))).toThrow(/x-somethingNew/);
    expect(() => interpretSchema({ if: {}, then: { items: { 'x-other': true } } })).toThrow(/x-other/);
    expect(() => interpretSchema(props({ a: { 'x-messages': {}, 'x-codes': {} } }))).not.toThrow();
  });
});

describe('contextErrors (the collection editor before saving)', () => {
  it("words a relation's target errors as the API does, and only those", () => {
    const context = { collection: lookup, collectionType: 'base' };
    expect(contextErrors(RELATION, { collectionId: 'nope', maxSelect: 0 }, context)).toEqual({
      collectionId: { code: 'validation_field_invalid_relation', message: "The relation collection doesn't exist." },
    });
    expect(contextErrors(RELATION, { collectionId: 'cheap0000000001' }, context)).toEqual({
      collectionId: { code: 'validation_field_non_view_base_relation_collection', message: 'Non view collections are not allowed to have a view relation.' },
    });
    expect(contextErrors(RELATION, { collectionId: 'users0000000001' }, { ...context, previous: { collectionId: 'posts0000000001' } })).toEqual({
      collectionId: { code: 'validation_field_relation_change', message: 'The relation collection cannot be changed.' },
    });
    expect(contextErrors(RELATION, { collectionId: 'users0000000001' }, context)).toEqual({});
  });
});
