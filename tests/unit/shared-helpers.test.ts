// The small shared helpers (src/lib/json.ts, isMultiple) that the dashboard and the server both use,
// and the call sites whose behaviour depends on them.
import { describe, expect, it } from 'vitest';
import { exampleValue, fieldDescription } from '../../src/lib/api-docs/fields';
import { isMultiple } from '../../src/lib/collections/fields';
import type { SchemaField } from '../../src/lib/collections/types';
import { deepEqual, isObject, sortKeys, sortKeysDeep } from '../../src/lib/json';
import { t } from '../../src/ui/i18n';

const field = (type: SchemaField['type'], options: Record<string, unknown>): SchemaField => ({
  system: false, id: 'f1', name: 'f', type, required: false, presentable: false, options,
});

describe('json helpers', () => {
  it('isObject means a plain object', () => {
    expect([{}, { a: 1 }].every(isObject)).toBe(true);
    expect([null, [], 'x', 1, undefined].some(isObject)).toBe(false);
  });

  it('sortKeys sorts one level, sortKeysDeep every level and inside arrays', () => {
    expect(JSON.stringify(sortKeys({ b: { d: 1, c: 2 }, a: 1 }))).toBe('{"a":1,"b":{"d":1,"c":2}}');
    expect(JSON.stringify(sortKeysDeep({ b: [{ d: 1, c: 2 }], a: 1 }))).toBe('{"a":1,"b":[{"c":2,"d":1}]}');
  });

  it('deepEqual ignores key order and undefined values, not array order or types', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, x: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: null }, { a: 0 })).toBe(false);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(deepEqual([], {})).toBe(false);
  });
});

describe('isMultiple (PocketBase 0.22)', () => {
  it('a relation without maxSelect, or above 1, holds many', () => {
    expect(isMultiple(field('relation', { maxSelect: null }))).toBe(true);
    expect(isMultiple(field('relation', {}))).toBe(true);
    expect(isMultiple(field('relation', { maxSelect: 1 }))).toBe(false);
    expect(isMultiple(field('relation', { maxSelect: 3 }))).toBe(true);
  });

  it('select and file need a numeric maxSelect above 1; other types never', () => {
    expect(isMultiple(field('select', { maxSelect: 2 }))).toBe(true);
    expect(isMultiple(field('select', { maxSelect: 1 }))).toBe(false);
    expect(isMultiple(field('file', {}))).toBe(false);
    // 0.22 decodes maxSelect as an integer: text is not a limit
    expect(isMultiple(field('select', { maxSelect: '3' }))).toBe(false);
    expect(isMultiple(field('text', { maxSelect: 3 }))).toBe(false);
  });

  it('the API docs show an unlimited relation as a list without a limit', () => {
    const unlimited = field('relation', { collectionId: 'u1', maxSelect: null });
    expect(exampleValue(unlimited)).toEqual(['RELATION_RECORD_ID']);
    expect(fieldDescription(unlimited, () => ({ name: 'users' }), t)).not.toContain('up to');
    const limited = field('relation', { collectionId: 'u1', maxSelect: 3 });
    expect(fieldDescription(limited, () => ({ name: 'users' }), t)).toContain('up to 3');
    expect(exampleValue(field('relation', { collectionId: 'u1', maxSelect: 1 }))).toBe('RELATION_RECORD_ID');
  });
});
