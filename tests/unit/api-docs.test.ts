// The API docs generator (src/lib/api-docs): tabs per collection type and options, fields and
// rules taken from the collection, and examples built from the schema.
import { describe, expect, it } from 'vitest';
import { apiDocsPages, AUTH_TABS, BASE_TABS, ruleInWords } from '../../src/lib/api-docs/pages';
import { exampleRecord } from '../../src/lib/api-docs/fields';
import type { CollectionModel, SchemaField } from '../../src/lib/collections/types';
import { t } from '../../src/ui/i18n';

const field = (name: string, type: SchemaField['type'], options: Record<string, unknown> = {}, required = false): SchemaField => ({
  system: false, id: name, name, type, required, presentable: false, options,
});
const collection = (over: Partial<CollectionModel>): CollectionModel => ({
  id: 'c1', created: '', updated: '', name: 'posts', type: 'base', system: false, indexes: [],
  listRule: null, viewRule: '', createRule: '@request.auth.id != ""', updateRule: null, deleteRule: null, options: {},
  schema: [field('title', 'text', { max: 10 }, true), field('tags', 'select', { maxSelect: 2, values: ['a', 'b', 'c'] }), field('author', 'relation', { collectionId: 'u1', maxSelect: 1 })],
  ...over,
});
const ctx = { baseUrl: 'http://127.0.0.1:8090', words: t, lookup: (id: string) => (id === 'u1' ? { name: 'users' } : undefined) };

describe('api docs', () => {
  it('gives base collections the 6 tabs, views 2, auth collections 6 + 12 (minus disabled methods)', () => {
    expect(apiDocsPages(collection({}), ctx).map((p) => p.tab)).toEqual([...BASE_TABS]);
    expect(apiDocsPages(collection({ type: 'view' }), ctx).map((p) => p.tab)).toEqual(['List/Search', 'View']);
    const auth = collection({ type: 'auth', options: { allowEmailAuth: true, allowUsernameAuth: false, allowOAuth2Auth: true } });
    expect(apiDocsPages(auth, ctx).map((p) => p.tab)).toEqual([...BASE_TABS, ...AUTH_TABS]);
    const noPassword = collection({ type: 'auth', options: { allowEmailAuth: false, allowUsernameAuth: false, allowOAuth2Auth: false } });
    const tabs = apiDocsPages(noPassword, ctx).map((p) => p.tab);
    expect(tabs).not.toContain('Auth with password');
    expect(tabs).not.toContain('Auth with OAuth2');
    expect(tabs).toHaveLength(16);
  });

  it('documents fields, rules and bodies from the collection', () => {
    const pages = apiDocsPages(collection({}), ctx);
    const byId = Object.fromEntries(pages.map((p) => [p.id, p]));
    expect(byId.list.access).toBe(ruleInWords(null, t));
    expect(byId.view.access).toContain('Anyone');
    expect(byId.create.rule).toBe('@request.auth.id != ""');
    expect(byId.create.access).toContain('signed-in');
    const body = Object.fromEntries(byId.create.bodyParams.map((p) => [p.name, p]));
    expect(body.title).toMatchObject({ type: 'String', required: true, description: 'At most 10 characters.' });
    expect(body.tags.type).toBe('Array<String>');
    expect(body.tags.description).toContain('of: a, b, c');
    expect(body.author.description).toContain('"users"');
    expect(byId.update.bodyParams.every((p) => !p.required)).toBe(true);
    expect(byId.create.sdk).toContain("pb.collection('posts').create(data)");
    expect(byId.list.sdk).toContain("new PocketBase('http://127.0.0.1:8090')");
  });

  it('builds example records from the schema, with alphabetical keys like the API', () => {
    const rec = exampleRecord(collection({}));
    expect(Object.keys(rec)).toEqual([...Object.keys(rec)].sort());
    expect(rec).toMatchObject({ title: 'test', tags: ['a', 'b'], author: 'RELATION_RECORD_ID', collectionName: 'posts' });
    const auth = exampleRecord(collection({ type: 'auth' }));
    expect(auth).toHaveProperty('email');
    expect(auth).not.toHaveProperty('tokenKey');
    expect(auth).not.toHaveProperty('passwordHash');
  });
});
