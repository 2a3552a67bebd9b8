// Outpost's migration templates against files written out by hand from 0.22's templates.go
// (tests/helpers/pb022-migrations*.ts): the same collections give the same bytes.
import { describe, expect, it } from 'vitest';
import { diffTemplate, snapshotTemplate } from '../../server/migrations/templates';
import type { Collection } from '../../server/collections/model';
import { CREATED_POSTS, CREATED_TMP, DELETED_TMP, SNAPSHOT, UPDATED_POSTS } from '../helpers/pb022-migrations';
import { CREATED_MEMBERS, UPDATED_MEMBERS } from '../helpers/pb022-migrations-auth';

/** The collection JSON a 0.22 create template holds. */
function collectionIn(file: string): Collection {
  const start = file.indexOf('new Collection(') + 'new Collection('.length;
  const end = file.indexOf(');\n', start);
  return JSON.parse(file.slice(start, end)) as Collection;
}

describe("0.22's JS migration templates", () => {
  it('create and delete', () => {
    expect(diffTemplate(collectionIn(CREATED_POSTS), null)).toBe(CREATED_POSTS);
    expect(diffTemplate(collectionIn(CREATED_TMP), null)).toBe(CREATED_TMP);
    expect(diffTemplate(null, collectionIn(DELETED_TMP))).toBe(DELETED_TMP);
  });

  it('a diff: rules, a field added, a field changed', () => {
    const old = collectionIn(CREATED_POSTS);
    const next = structuredClone(old);
    next.listRule = '';
    next.viewRule = 'title != ""';
    next.schema[0] = { ...next.schema[0], presentable: true, options: { min: null, max: 300, pattern: '' } };
    next.schema.push({ system: false, id: 'f3views0', name: 'views', type: 'number', required: false, presentable: false, unique: false, options: { min: null, max: null, noDecimal: true } });
    expect(diffTemplate(next, old)).toBe(UPDATED_POSTS);
    expect(diffTemplate(old, structuredClone(old))).toBeNull();
  });

  it('a diff: a rename and new auth options', () => {
    const old = collectionIn(CREATED_MEMBERS);
    const next = { ...structuredClone(old), name: 'people', options: { ...old.options, allowOAuth2Auth: false, minPasswordLength: 10, requireEmail: true } };
    expect(diffTemplate(next, old)).toBe(UPDATED_MEMBERS);
  });

  it('the collections snapshot', () => {
    const start = SNAPSHOT.indexOf('const snapshot = ') + 'const snapshot = '.length;
    const list = JSON.parse(SNAPSHOT.slice(start, SNAPSHOT.indexOf('];\n', start) + 1)) as Collection[];
    expect(snapshotTemplate(list)).toBe(SNAPSHOT);
  });
});
