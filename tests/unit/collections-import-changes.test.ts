import { describe, expect, it } from 'vitest';
import {
  collectionJson,
  deletionList,
  detectChanges,
  effectiveCollection,
  orderKeysLike,
  type ImportCollection,
} from '../../src/lib/collections-import';
import { deepEqual } from '../../src/lib/json';

const field = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  system: false,
  id,
  name,
  type: 'text',
  required: false,
  presentable: false,
  unique: false,
  options: { min: null, max: null, pattern: '' },
  ...extra,
});

const coll = (id: string, name: string, schema: unknown[], extra: Record<string, unknown> = {}): ImportCollection => ({
  id,
  name,
  type: 'base',
  system: false,
  schema,
  indexes: [],
  listRule: null,
  viewRule: null,
  createRule: null,
  updateRule: null,
  deleteRule: null,
  options: {},
  ...extra,
});

const posts = coll('p1', 'posts', [field('f1', 'title'), field('f2', 'body')]);
const tags = coll('t1', 'tags', [field('g1', 'label')]);
const existing = [posts, tags];

describe('collections import: detected changes', () => {
  it('an identical import has no changes in either mode', () => {
    const copy = structuredClone(existing);
    expect(detectChanges(existing, copy, false)).toEqual([]);
    expect(detectChanges(existing, copy, true)).toEqual([]);
  });

  it('ignores key order and keys the server fills with blanks', () => {
    const minimal = [
      { name: 'posts', id: 'p1', schema: [{ name: 'title', id: 'f1', type: 'text', options: { pattern: '', min: null, max: null } }, field('f2', 'body')] },
    ] as ImportCollection[];
    expect(detectChanges([posts], minimal, false)).toEqual([]);
  });

  it('replace mode: missing collections and fields are deleted; renames reported', () => {
    const imported = [coll('p1', 'articles', [field('f1', 'headline'), field('f3', 'slug')], { listRule: '' })];
    const changes = detectChanges(existing, imported, false);
    expect(changes.map((c) => [c.kind, c.name, c.oldName])).toEqual([
      ['deleted', 'tags', undefined],
      ['changed', 'articles', 'posts'],
    ]);
    const changed = changes[1];
    expect(changed.fields).toEqual([
      { kind: 'changed', id: 'f1', name: 'headline', oldName: 'title' },
      { kind: 'added', id: 'f3', name: 'slug' },
      { kind: 'deleted', id: 'f2', name: 'body' },
    ]);
    expect(changed.props.sort()).toEqual(['listRule', 'name']);
    expect(changed.new).toBe(imported[0]);
  });

  it('merge mode: nothing is deleted; the schema is extended like the server does', () => {
    const imported = [coll('p1', 'posts', [field('f3', 'slug'), field('f1', 'title', { required: true })])];
    const changes = detectChanges(existing, imported, true);
    expect(changes).toHaveLength(1);
    expect(changes[0].kind).toBe('changed');
    expect(changes[0].fields).toEqual([
      { kind: 'changed', id: 'f1', name: 'title' },
      { kind: 'added', id: 'f3', name: 'slug' },
    ]);
    expect((changes[0].new!.schema as Array<{ id: string }>).map((f) => f.id)).toEqual(['f1', 'f2', 'f3']);
    expect(changes[0].props).toEqual([]);
  });

  it('merge mode: a subset of fields unchanged is up to date', () => {
    const imported = [coll('p1', 'posts', [field('f2', 'body')])];
    expect(detectChanges(existing, imported, true)).toEqual([]);
    expect(detectChanges(existing, imported, false).map((c) => c.kind)).toEqual(['deleted', 'changed']);
  });

  it('new collections are added with all their fields; fields without id count as added', () => {
    const imported = [...structuredClone(existing), coll('n1', 'notes', [{ name: 'text', type: 'text' }])];
    const changes = detectChanges(existing, imported, false);
    expect(changes.map((c) => [c.kind, c.name])).toEqual([['added', 'notes']]);
    expect(changes[0].fields).toEqual([{ kind: 'added', id: '', name: 'text' }]);
    expect(changes[0].old).toBeNull();
  });

  it('a field without id in an existing collection is added', () => {
    const imported = [coll('p1', 'posts', [field('f1', 'title'), field('f2', 'body'), { name: 'extra', type: 'bool' }])];
    const [c] = detectChanges([posts], imported, false);
    expect(c.fields).toEqual([{ kind: 'added', id: '', name: 'extra' }]);
  });

  it('a reordered schema is a change of the schema property (replace mode)', () => {
    const imported = [coll('p1', 'posts', [field('f2', 'body'), field('f1', 'title')])];
    const [c] = detectChanges([posts], imported, false);
    expect(c.fields).toEqual([]);
    expect(c.props).toEqual(['schema']);
  });

  it('orders deleted, then changed, then added', () => {
    const imported = [coll('n1', 'new', []), coll('t1', 'tags', [field('g1', 'label', { required: true })])];
    expect(detectChanges(existing, imported, false).map((c) => c.kind)).toEqual(['deleted', 'changed', 'added']);
  });
});

describe('collections import: deleteMissing removal list', () => {
  it("lists whole collections as 'name.*' and fields as 'collection.field (id)'", () => {
    const imported = [coll('p1', 'posts', [field('f1', 'title')]), coll('x', 'other', [])];
    expect(deletionList(existing, imported, false)).toEqual(['posts.body (f2)', 'tags.*']);
  });

  it('is empty in merge mode or when nothing is removed', () => {
    expect(deletionList(existing, [coll('p1', 'posts', [])], true)).toEqual([]);
    expect(deletionList(existing, structuredClone(existing), false)).toEqual([]);
  });
});

describe('collections import: helpers', () => {
  it('deepEqual ignores key order and undefined values', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, x: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: null }, { a: 0 })).toBe(false);
  });

  it('effectiveCollection returns the import as is for a new collection or in replace mode', () => {
    const imp = coll('p1', 'posts', [field('f9', 'z')]);
    expect(effectiveCollection(null, imp, true)).toBe(imp);
    expect(effectiveCollection(posts, imp, false)).toBe(imp);
  });

  it('orders keys like a reference (fields matched by id) for aligned JSON', () => {
    const ref = { id: 'a', name: 'n', schema: [{ id: 'f1', name: 'x', type: 't' }] };
    const value = { schema: [{ type: 't', name: 'y', id: 'f1' }, { name: 'new', id: 'f2' }], extra: 1, name: 'n', id: 'a' };
    expect(JSON.stringify(orderKeysLike(value, ref))).toBe(
      '{"id":"a","name":"n","schema":[{"id":"f1","name":"y","type":"t"},{"name":"new","id":"f2"}],"extra":1}',
    );
    expect(collectionJson(null)).toBe('');
    expect(collectionJson(coll('a', 'b', []), null).split('\n')[1]).toBe('    "id": "a",');
  });
});

describe('collections import: missing keys', () => {
  it("a missing rule is null (admins only), so '' (everyone) is a change; a missing type is base", () => {
    const old = coll('p1', 'posts', [], { listRule: '' });
    const imported = [{ id: 'p1', name: 'posts', schema: [] }] as ImportCollection[];
    expect(detectChanges([old], imported, false)[0].props).toEqual(['listRule']);
    expect(detectChanges([coll('p1', 'posts', [])], imported, false)).toEqual([]);
    expect(detectChanges([coll('p1', 'posts', [], { type: 'auth' })], imported, false)[0].props).toEqual(['type']);
  });
});
