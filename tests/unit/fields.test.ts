import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/core/errors';
import { excerpt, pickFields } from '../../server/core/pick-fields';

const record = {
  id: 'r1',
  title: 'T',
  body: '<p>Hello <b>big</b>   world</p><script>alert(1)</script><div>second&amp;block</div>',
  expand: { rel: { id: 'x', name: 'N', secret: 's' }, many: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] },
};

describe('pickFields', () => {
  it('keeps only the listed paths, with alphabetical keys', () => {
    const out = pickFields({ title: 'T', id: 'r1', zeta: 1 }, 'title,id');
    expect(out).toEqual({ id: 'r1', title: 'T' });
    expect(Object.keys(out as object)).toEqual(['id', 'title']);
  });

  it('sorts keys at every depth when fields is given', () => {
    const out = pickFields({ b: { z: 1, a: 2 }, a: 1 }, '*') as Record<string, Record<string, number>>;
    expect(JSON.stringify(out)).toBe('{"a":1,"b":{"a":2,"z":1}}');
  });

  it('picks nested paths in objects and arrays of objects', () => {
    expect(pickFields(record, 'id,expand.rel.name,expand.many.id')).toEqual({
      id: 'r1',
      expand: { rel: { name: 'N' }, many: [{ id: 'a' }, { id: 'b' }] },
    });
  });

  it('* keeps every root key; a more specific path narrows that key', () => {
    const out = pickFields(record, '*,expand.rel.id') as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['body', 'expand', 'id', 'title']);
    expect(out.expand).toEqual({ rel: { id: 'x' } });
    expect(pickFields(record, 'expand.rel.*')).toEqual({ expand: { rel: { id: 'x', name: 'N', secret: 's' } } });
  });

  it('applies to the items of a list envelope, leaving the envelope', () => {
    const list = { page: 1, perPage: 30, totalItems: 2, totalPages: 1, items: [{ id: 'a', x: 1 }, { id: 'b', x: 2 }] };
    const out = pickFields(list, 'id');
    expect(JSON.stringify(out)).toBe('{"items":[{"id":"a"},{"id":"b"}],"page":1,"perPage":30,"totalItems":2,"totalPages":1}');
  });

  it('applies to top-level arrays of objects and ignores missing paths', () => {
    expect(pickFields([{ id: 'a', x: 1 }], 'id,nope.deep')).toEqual([{ id: 'a' }]);
    expect(pickFields(['a', 'b'], 'id')).toEqual(['a', 'b']);
  });

  it(':excerpt strips HTML, collapses whitespace and cuts with an optional ellipsis', () => {
    expect(pickFields(record, 'body:excerpt(100)')).toEqual({ body: 'Hello big world second&block' });
    expect(pickFields(record, 'body:excerpt(9,true)')).toEqual({ body: 'Hello big...' });
    expect(pickFields(record, 'body:excerpt(11)')).toEqual({ body: 'Hello big w' });
    expect(pickFields({ n: 5 }, 'n:excerpt(2)')).toEqual({ n: 5 });
    expect(pickFields(record, '*:excerpt(3),id')).toMatchObject({ id: 'r1', title: 'T', body: 'Hel' });
  });

  it('rejects unknown or malformed modifiers with a 400', () => {
    for (const bad of ['id:upper', 'id:excerpt', 'id:excerpt(0)', 'id:excerpt(1,2,3)', 'id:']) {
      expect(() => pickFields(record, bad), bad).toThrow(ApiError);
    }
  });
});

describe('excerpt', () => {
  it('drops excluded elements and pads block elements', () => {
    expect(excerpt('<h1>Title</h1><p>a<br>b</p><style>p{}</style><img src=x>tail', 100, false)).toBe('Title ab tail');
    expect(excerpt('<!-- hidden --><span>in</span>line &lt;3', 100, false)).toBe('inline <3');
  });

  it('never splits a multi-byte character', () => {
    expect(excerpt('ééé', 3, false)).toBe('é');
  });
});
