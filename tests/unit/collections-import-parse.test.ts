import { describe, expect, it } from 'vitest';
import { INVALID_CONFIG_MESSAGE, parseCollectionsJson, stripTimestamps, validateCollectionsList } from '../../src/lib/collections-import';

describe('collections import: parse and normalise', () => {
  it('rejects empty text, bad JSON, non-arrays, empty arrays and items without id or name', () => {
    expect(parseCollectionsJson('')).toEqual({ ok: false, empty: true, error: INVALID_CONFIG_MESSAGE });
    expect(parseCollectionsJson('   \n')).toMatchObject({ ok: false, empty: true });
    for (const text of [
      '{',
      'not json',
      '{"id":"a","name":"b"}',
      '[]',
      '"x"',
      'null',
      '[null]',
      '[1]',
      '[{"id":"a"}]',
      '[{"name":"a"}]',
      '[{"id":"","name":"a"}]',
      '[{"id":"a","name":"  "}]',
      '[{"id":1,"name":"a"}]',
      '[{"id":"a","name":"x"},{"id":"b"}]',
    ]) {
      expect(parseCollectionsJson(text), text).toEqual({ ok: false, empty: false, error: 'Invalid collections configuration.' });
    }
  });

  it('accepts a list with id and name and strips created and updated', () => {
    const r = parseCollectionsJson(
      JSON.stringify([{ id: 'c1', created: '2024-01-01 00:00:00.000Z', updated: 'x', name: 'posts', type: 'base', schema: [] }]),
    );
    expect(r).toEqual({ ok: true, collections: [{ id: 'c1', name: 'posts', type: 'base', schema: [] }] });
  });

  it('drops duplicate collections by id (the last wins, in the first position)', () => {
    const r = validateCollectionsList([
      { id: 'a', name: 'first' },
      { id: 'b', name: 'b' },
      { id: 'a', name: 'second' },
    ]);
    expect(r.ok && r.collections).toEqual([
      { id: 'a', name: 'second' },
      { id: 'b', name: 'b' },
    ]);
  });

  it('drops duplicate schema fields by id, and by name for fields without id', () => {
    const r = validateCollectionsList([
      {
        id: 'a',
        name: 'a',
        schema: [
          { id: 'f1', name: 'title', type: 'text' },
          { id: 'f2', name: 'body', type: 'editor' },
          { id: 'f1', name: 'title2', type: 'text' },
          { name: 'x', type: 'bool' },
          { name: 'x', type: 'number' },
          { name: 'y', type: 'bool' },
        ],
      },
    ]);
    expect(r.ok && r.collections[0].schema).toEqual([
      { id: 'f1', name: 'title2', type: 'text' },
      { id: 'f2', name: 'body', type: 'editor' },
      { name: 'x', type: 'number' },
      { name: 'y', type: 'bool' },
    ]);
  });

  it('leaves a non-array schema for the server to judge', () => {
    const r = validateCollectionsList([{ id: 'a', name: 'a', schema: 'nope' }]);
    expect(r.ok && r.collections[0].schema).toBe('nope');
  });

  it('does not modify its input', () => {
    const input = [{ id: 'a', name: 'a', created: 'x', schema: [{ id: 'f', name: 'f' }, { id: 'f', name: 'g' }] }];
    const copy = structuredClone(input);
    validateCollectionsList(input);
    stripTimestamps(input);
    expect(input).toEqual(copy);
  });
});
