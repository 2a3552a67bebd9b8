import { describe, expect, it } from 'vitest';
import type { CollectionModel, SchemaField } from '../../src/lib/collections/types';
import {
  fileKind,
  fileTokenValid,
  fileUrl,
  hasThumb,
  hiddenColumnsKey,
  isEmptyValue,
  jsonExcerpt,
  limitList,
  listExpand,
  listFields,
  nextRecordsSort,
  parseHiddenColumns,
  plainText,
  presentableFields,
  recordColumns,
  relationChips,
  relationLabel,
  searchableFields,
  sortState,
  toList,
  truncate,
} from '../../src/lib/records/format';

function field(name: string, type: SchemaField['type'], extra: Partial<SchemaField> = {}): SchemaField {
  return { id: name + 'id', name, type, system: false, required: false, presentable: false, options: {}, ...extra };
}

function collection(type: CollectionModel['type'], schema: SchemaField[]): CollectionModel {
  return {
    id: 'c1',
    name: 'posts',
    type,
    schema,
    created: '',
    updated: '',
    system: false,
    indexes: [],
    listRule: null,
    viewRule: null,
    createRule: null,
    updateRule: null,
    deleteRule: null,
    options: {},
  };
}

describe('text', () => {
  it('truncates with an ellipsis only when cut', () => {
    expect(truncate('abc', 5)).toBe('abc');
    expect(truncate('abcdef', 3)).toBe('abc...');
    expect(truncate('abcdef', 3, false)).toBe('abc');
    expect(truncate('x'.repeat(200))).toHaveLength(153);
    expect(truncate(null)).toBe('');
    expect(truncate(12345, 2)).toBe('12...');
    // code points, not UTF-16 units
    expect(truncate('😀😀😀', 2)).toBe('😀😀...');
  });

  it('plain text of HTML drops tags, scripts and entities', () => {
    expect(plainText('<p>Hello <b>world</b></p><p>again</p>')).toBe('Hello world again');
    expect(plainText('<script>alert(1)</script>ok')).toBe('ok');
    expect(plainText('a &amp; b &lt;c&gt; &#39;d&#x27;')).toBe("a & b <c> 'd'");
    expect(plainText(null)).toBe('');
  });

  it('JSON excerpts', () => {
    expect(jsonExcerpt({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(jsonExcerpt(null)).toBe('null');
    expect(jsonExcerpt(undefined)).toBe('null');
    expect(jsonExcerpt('x'.repeat(300), 10)).toBe('"xxxxxxxxx...');
  });

  it('empty values and lists', () => {
    expect(isEmptyValue('')).toBe(true);
    expect(isEmptyValue([])).toBe(true);
    expect(isEmptyValue(null)).toBe(true);
    expect(isEmptyValue(0)).toBe(false);
    expect(isEmptyValue(false)).toBe(false);
    expect(toList('a')).toEqual(['a']);
    expect(toList(['a', '', null, 'b'])).toEqual(['a', 'b']);
    expect(toList('')).toEqual([]);
    expect(limitList([1, 2, 3, 4], 3)).toEqual({ shown: [1, 2, 3], more: 1 });
    expect(limitList([1], 3)).toEqual({ shown: [1], more: 0 });
  });
});

describe('relations', () => {
  const users = collection('auth', [field('name', 'text', { presentable: true }), field('bio', 'editor', { presentable: true }), field('age', 'number')]);

  it('presentable fields, joined; the id without any', () => {
    expect(presentableFields(users)).toEqual(['name', 'bio']);
    expect(relationLabel({ id: 'u1', name: 'Ann', bio: '<p>Hi <i>there</i></p>' }, users)).toBe('Ann, Hi there');
    expect(relationLabel({ id: 'u1', name: '', bio: '' }, users)).toBe('u1');
    expect(relationLabel({ id: 'u1', name: 'Ann' }, collection('base', []))).toBe('u1');
    expect(relationLabel({ id: 'u1', name: 'x'.repeat(100) }, users)).toBe('x'.repeat(70) + '...');
  });

  it('chips follow the ids and mark missing ones', () => {
    const rel = field('owners', 'relation', { options: { collectionId: 'u', maxSelect: null } });
    const record = { id: 'r1', owners: ['u1', 'u2', 'u3'], expand: { owners: [{ id: 'u2', name: 'Bob' }, { id: 'u1', name: 'Ann' }] } };
    expect(relationChips(record, rel, users)).toEqual([
      { id: 'u1', label: 'Ann', missing: false },
      { id: 'u2', label: 'Bob', missing: false },
      { id: 'u3', label: 'u3', missing: true },
    ]);
    const single = field('owner', 'relation', { options: { collectionId: 'u', maxSelect: 1 } });
    expect(relationChips({ id: 'r', owner: 'u1', expand: { owner: { id: 'u1', name: 'Ann' } } }, single, users)).toEqual([{ id: 'u1', label: 'Ann', missing: false }]);
    expect(relationChips({ id: 'r', owner: '' }, single, users)).toEqual([]);
  });
});

describe('files', () => {
  it('kinds and thumbs', () => {
    expect(fileKind('a.PNG')).toBe('image');
    expect(fileKind('a.mp4')).toBe('video');
    expect(fileKind('a.pdf')).toBe('document');
    expect(fileKind('a.bin')).toBe('file');
    expect(hasThumb('a.jpg')).toBe(true);
    expect(hasThumb('a.svg')).toBe(false);
  });

  it('urls with thumb and token', () => {
    expect(fileUrl('http://x/', 'c1', 'r1', 'a b.png')).toBe('http://x/api/files/c1/r1/a%20b.png');
    expect(fileUrl('http://x', 'c1', 'r1', 'a.png', { thumb: '100x100', token: 't' })).toBe('http://x/api/files/c1/r1/a.png?thumb=100x100&token=t');
  });

  it('a file token is refreshed within 10 s of expiry', () => {
    const now = 1_000_000_000_000;
    const exp = now / 1000 + 60;
    expect(fileTokenValid({ token: 't', exp }, now)).toBe(true);
    expect(fileTokenValid({ token: 't', exp }, now + 49_000)).toBe(true);
    expect(fileTokenValid({ token: 't', exp }, now + 50_000)).toBe(false);
    expect(fileTokenValid({ token: '', exp }, now)).toBe(false);
    expect(fileTokenValid(null, now)).toBe(false);
  });
});

describe('the list query', () => {
  const posts = collection('base', [
    field('title', 'text'),
    field('body', 'editor'),
    field('views', 'number'),
    field('author', 'relation', { options: { collectionId: 'u' } }),
    field('tags', 'select'),
    field('meta', 'json'),
    field('cover', 'file'),
    field('gone', 'text', { toDelete: true }),
  ]);

  it('expands every relation and excerpts editor fields and expanded records', () => {
    expect(listExpand(posts)).toBe('author');
    expect(listFields(posts)).toBe('*,body:excerpt(200),expand.author.*:excerpt(200)');
    expect(listExpand(collection('base', []))).toBe('');
    expect(listFields(collection('base', []))).toBe('*');
  });

  it('searchable fields: id, auth identity and the text-holding fields', () => {
    expect(searchableFields(posts)).toEqual(['id', 'title', 'body', 'author', 'tags', 'meta', 'cover']);
    expect(searchableFields(collection('auth', [field('name', 'text')]))).toEqual(['id', 'username', 'email', 'name']);
  });

  it('columns: id, auth columns, schema, then created/updated', () => {
    expect(recordColumns(posts).map((c) => c.name)).toEqual(['id', 'title', 'body', 'views', 'author', 'tags', 'meta', 'cover', 'created', 'updated']);
    expect(recordColumns(collection('auth', [field('name', 'text')])).map((c) => c.name)).toEqual(['id', 'username', 'email', 'name', 'verified', 'created', 'updated']);
    expect(recordColumns(collection('view', [field('total', 'number')])).map((c) => c.name)).toEqual(['id', 'total']);
    const cols = recordColumns(posts);
    expect(cols.find((c) => c.name === 'meta')?.sortable).toBe(false);
    expect(cols.find((c) => c.name === 'cover')?.sortable).toBe(false);
    expect(cols.find((c) => c.name === 'title')?.sortable).toBe(true);
  });

  it('sort header cycle and state', () => {
    expect(nextRecordsSort('-created', 'title')).toBe('-title');
    expect(nextRecordsSort('-title', 'title')).toBe('+title');
    expect(nextRecordsSort('+title', 'title')).toBe('-title');
    expect(sortState('-title', 'title')).toBe('descending');
    expect(sortState('+title,-created', 'title')).toBe('ascending');
    expect(sortState('title', 'title')).toBe('ascending');
    expect(sortState('-created', 'title')).toBe('none');
  });

  it('hidden columns storage', () => {
    expect(hiddenColumnsKey('abc')).toBe('abc@hiddenColumns');
    expect(parseHiddenColumns('["a",1,"b"]')).toEqual(['a', 'b']);
    expect(parseHiddenColumns('{')).toEqual([]);
    expect(parseHiddenColumns(null)).toEqual([]);
  });
});
