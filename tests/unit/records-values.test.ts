// Pure record helpers: value normalisation per field type, modifiers, file names.
import { describe, expect, it } from 'vitest';
import type { Collection, SchemaField } from '../../server/collections/model';
import { normalizeFileName, snakecase } from '../../server/records/files';
import { castJson } from '../../src/fields/json/field';
import { prepareValue, replaceModifiers } from '../../src/fields/record-values';
import { normalizeExpands } from '../../server/records/expand';

const field = (type: SchemaField['type'], options: Record<string, unknown> = {}): SchemaField => ({
  system: false, id: 'f', name: 'f', type, required: false, presentable: false, unique: false, options,
});

describe('prepareValue', () => {
  it('normalises like 0.22', () => {
    expect(prepareValue(field('text'), 12)).toBe('12');
    expect(prepareValue(field('number'), '1.5')).toBe(1.5);
    expect(prepareValue(field('number'), 'abc')).toBe(0);
    expect(prepareValue(field('bool'), 'true')).toBe(true);
    expect(prepareValue(field('date'), '2024-01-02')).toBe('2024-01-02 00:00:00.000Z');
    expect(prepareValue(field('date'), 'garbage')).toBe('');
    expect(prepareValue(field('select', { maxSelect: 1 }), ['a', 'b'])).toBe('b');
    expect(prepareValue(field('select', { maxSelect: 3 }), ['a', 'a', '', 'b'])).toEqual(['a', 'b']);
    expect(prepareValue(field('relation', { maxSelect: null }), 'x')).toEqual(['x']);
    expect(castJson('')).toBe('""');
    expect(castJson('[1,2]')).toBe('[1,2]');
    expect(castJson('hello')).toBe('"hello"');
    expect(castJson(null)).toBeNull();
    expect(castJson({ a: 1 })).toBe('{"a":1}');
  });
});

describe('replaceModifiers', () => {
  const c = {
    schema: [
      { ...field('number'), name: 'n' },
      { ...field('select', { maxSelect: 3, values: ['a', 'b'] }), name: 's' },
      { ...field('file', { maxSelect: 3 }), name: 'f' },
    ],
  } as unknown as Collection;
  it('resolves + and - against the current or submitted value', () => {
    expect(replaceModifiers(c, { n: 2, s: ['a'], f: [] }, { 'n+': 3, 's+': 'b' })).toEqual({ n: 5, s: ['a', 'b'] });
    expect(replaceModifiers(c, { n: 2, s: ['a'], f: [] }, { n: 10, 'n-': 4 })).toEqual({ n: 6 });
  });
  it('removes files named as field.<name> or field.<index>', () => {
    expect(replaceModifiers(c, { f: ['x.txt', 'y.txt', 'z.txt'] }, { 'f.y.txt': '', 'f.0': null })).toEqual({ f: ['z.txt'] });
  });
});

describe('file names', () => {
  it('snake cases like Go', () => {
    expect(snakecase('My Cool-Photo')).toBe('my_cool_photo');
    expect(snakecase('helloWorld')).toBe('hello_world');
  });
  it('keeps only safe characters', () => {
    for (const n of ['../../etc/passwd', 'a\u0000b.txt', '..', '/', 'x'.repeat(300) + '.png', 'evil.png/../..']) {
      const out = normalizeFileName(n, 'txt');
      expect(out).toMatch(/^[A-Za-z0-9_]+_[A-Za-z0-9]{10}(\.[\w.*+=#-]*)?$/);
      expect(out.includes('..')).toBe(false);
      expect(out.length).toBeLessThanOrEqual(100 + 11 + 21);
    }
    expect(normalizeFileName('Photo.PNG')).toMatch(/^photo_[A-Za-z0-9]{10}\.png$/);
  });
});

describe('normalizeExpands', () => {
  it('merges contained paths and trims', () => {
    expect(normalizeExpands(['a.b.c', 'a.b', '  test  ', ' ', 'test', 'x.'])).toEqual(['a.b.c', 'test', 'x']);
  });
});
