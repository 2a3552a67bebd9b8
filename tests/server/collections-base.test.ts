// /api/collections over HTTP against the real server on a fresh data dir: admins only, and
// CRUD of base collections: every field type, schema changes applied to the table (data kept or
// dropped), indexes, deleting a referenced collection or a table a view reads.
import { describe, expect, it } from 'vitest';
import { http } from '../helpers/server';
import { api, columns, db, snapshot, srv, tableSql, withAdminServer } from '../helpers/collections-api';

withAdminServer();

describe('access', () => {
  it('answers 401 to anyone but an admin', async () => {
    for (const [method, path] of [
      ['GET', '/api/collections'],
      ['GET', '/api/collections/users'],
      ['POST', '/api/collections'],
      ['PATCH', '/api/collections/users'],
      ['DELETE', '/api/collections/users'],
      ['PUT', '/api/collections/import'],
    ]) {
      const res = await http(srv.url, method, path, method === 'GET' ? {} : { body: {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.message).toBe('The request requires valid admin authorization token to be set.');
    }
  });

  it('answers 404 for an unknown collection', async () => {
    const res = await api('GET', '/api/collections/missing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: "The requested resource wasn't found.", data: {} });
  });
});

describe('base collections', () => {
  let id = '';

  it('creates a collection with every field type and returns it in 0.22 form', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'posts',
      schema: [
        { name: 'title', type: 'text', required: true, options: { min: 2, max: 100, pattern: '^\\w' } },
        { name: 'body', type: 'editor' },
        { name: 'views', type: 'number', options: { min: 0, noDecimal: true } },
        { name: 'published', type: 'bool' },
        { name: 'contact', type: 'email', options: { onlyDomains: ['example.com'] } },
        { name: 'link', type: 'url' },
        { name: 'at', type: 'date', options: { min: '2020-01-01 00:00:00.000Z' } },
        { name: 'status', type: 'select', options: { maxSelect: 1, values: ['draft', 'live'] } },
        { name: 'tags', type: 'select', options: { maxSelect: 3, values: ['a', 'b', 'c'] } },
        { name: 'meta', type: 'json', options: { maxSize: 2000000 } },
        { name: 'cover', type: 'file', options: { maxSelect: 1, maxSize: 5242880 } },
        { name: 'gallery', type: 'file', options: { maxSelect: 5, maxSize: 5242880, thumbs: ['100x100'] } },
        { name: 'author', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
        { name: 'readers', type: 'relation', options: { collectionId: '_pb_users_auth_' } },
      ],
      listRule: '',
      viewRule: 'author = @request.auth.id',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    id = res.body.id;
    expect(id).toMatch(/^[a-z0-9]{15}$/);
    expect(Object.keys(res.body)).toEqual([
      'id', 'created', 'updated', 'name', 'type', 'system', 'schema', 'indexes',
      'listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule', 'options',
    ]);
    expect(res.body).toMatchObject({ name: 'posts', type: 'base', system: false, indexes: [], listRule: '', createRule: null, options: {} });
    const [title, , views, , contact, , at, , , , cover, , author, readers] = res.body.schema;
    expect(Object.keys(title)).toEqual(['system', 'id', 'name', 'type', 'required', 'presentable', 'unique', 'options']);
    expect(title.id).toMatch(/^[a-z0-9]{8}$/);
    expect(title.options).toEqual({ min: 2, max: 100, pattern: '^\\w' });
    expect(views.options).toEqual({ min: 0, max: null, noDecimal: true });
    expect(contact.options).toEqual({ exceptDomains: null, onlyDomains: ['example.com'] });
    expect(at.options).toEqual({ min: '2020-01-01 00:00:00.000Z', max: '' });
    expect(Object.keys(cover.options)).toEqual(['mimeTypes', 'thumbs', 'maxSelect', 'maxSize', 'protected']);
    expect(author.options).toEqual({ collectionId: '_pb_users_auth_', cascadeDelete: false, minSelect: null, maxSelect: 1, displayFields: null });
    expect(readers.options.maxSelect).toBeNull();

    const byName = await api('GET', '/api/collections/POSTS');
    expect(byName.body).toEqual(res.body);
    expect((await api('GET', `/api/collections/${id}`)).body).toEqual(res.body);
  });

  it('lists collections with filter, sort and paging like the admins list', async () => {
    const list = await api('GET', '/api/collections?sort=-name&perPage=1&page=1');
    expect(Object.keys(list.body)).toEqual(['page', 'perPage', 'totalItems', 'totalPages', 'items']);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['users']);
    expect(list.body.totalItems).toBeGreaterThanOrEqual(2);
    const filtered = await api('GET', `/api/collections?filter=${encodeURIComponent("type = 'base' && name ~ 'post'")}`);
    expect(filtered.body.items.map((c: { name: string }) => c.name)).toEqual(['posts']);
    expect((await api('GET', '/api/collections?filter=nope=1')).status).toBe(400);
  });

  it('adds, renames and deletes fields in the table, keeping or dropping data', async () => {
    db().prepare("INSERT INTO posts (id, title, views, tags, status) VALUES ('r1', 'hello', 3, '[\"a\",\"c\"]', 'live')").run();
    const current = (await api('GET', `/api/collections/${id}`)).body;
    const schema = current.schema
      .filter((f: { name: string }) => f.name !== 'body')
      .map((f: { name: string }) => (f.name === 'title' ? { ...f, name: 'heading' } : f));
    schema.push({ name: 'subtitle', type: 'text' });
    const res = await api('PATCH', `/api/collections/${id}`, { schema });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(columns('posts')).toContain('heading');
    expect(columns('posts')).toContain('subtitle');
    expect(columns('posts')).not.toContain('body');
    expect(columns('posts')).not.toContain('title');
    expect(db().prepare("SELECT heading, subtitle FROM posts WHERE id = 'r1'").get()).toEqual({ heading: 'hello', subtitle: '' });
    // renamed and added columns end up double-quoted, as SQLite writes renames (like in 0.22 tables)
    expect(tableSql('posts')).toContain(`"subtitle" TEXT DEFAULT '' NOT NULL`);
  });

  it('converts multiple to single keeping the last item, and single to multiple', async () => {
    const current = (await api('GET', `/api/collections/${id}`)).body;
    const schema = current.schema.map((f: { name: string; options: Record<string, unknown> }) =>
      f.name === 'tags' ? { ...f, options: { ...f.options, maxSelect: 1 } } : f.name === 'status' ? { ...f, options: { ...f.options, maxSelect: 2 } } : f,
    );
    const res = await api('PATCH', `/api/collections/${id}`, { schema });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(db().prepare("SELECT tags, status FROM posts WHERE id = 'r1'").get()).toEqual({ tags: 'c', status: '["live"]' });
    expect(tableSql('posts')).toContain(`"tags" TEXT DEFAULT '' NOT NULL`);
    expect(tableSql('posts')).toContain(`"status" JSON DEFAULT '[]' NOT NULL`);
  });

  it('applies option changes without touching the data', async () => {
    const current = (await api('GET', `/api/collections/${id}`)).body;
    const schema = current.schema.map((f: { name: string; options: Record<string, unknown> }) =>
      f.name === 'heading' ? { ...f, options: { ...f.options, max: 10 } } : f,
    );
    const res = await api('PATCH', `/api/collections/${id}`, { schema });
    expect(res.body.schema.find((f: { name: string }) => f.name === 'heading').options.max).toBe(10);
    expect(db().prepare("SELECT heading FROM posts WHERE id = 'r1'").get()).toEqual({ heading: 'hello' });
  });

  it('creates normalised indexes, and renames table, index and dependent view with the collection', async () => {
    let res = await api('PATCH', `/api/collections/${id}`, {
      indexes: ['create unique index idx_heading on posts (heading)', 'CREATE INDEX idx_multi ON posts (views desc, heading collate nocase)'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.indexes).toEqual([
      'CREATE UNIQUE INDEX `idx_heading` ON `posts` (`heading`)',
      'CREATE INDEX `idx_multi` ON `posts` (\n  `views` DESC,\n  `heading` COLLATE nocase\n)',
    ]);
    expect(tableSql('idx_heading')).toBe('CREATE UNIQUE INDEX `idx_heading` ON `posts` (`heading`)');
    expect(() => db().prepare("INSERT INTO posts (id, heading) VALUES ('r2', 'hello')").run()).toThrow(/UNIQUE/);

    const view = await api('POST', '/api/collections', { name: 'post_titles', type: 'view', options: { query: 'select id, heading from posts' } });
    expect(view.status, JSON.stringify(view.body)).toBe(200);

    const current = (await api('GET', `/api/collections/${id}`)).body;
    const schema = current.schema.map((f: { name: string }) => (f.name === 'heading' ? { ...f, name: 'headline' } : f));
    res = await api('PATCH', `/api/collections/${id}`, { name: 'articles', schema });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(tableSql('posts')).toBeUndefined();
    expect(tableSql('articles')).toMatch(/^CREATE TABLE "articles"/);
    expect(res.body.indexes[0]).toBe('CREATE UNIQUE INDEX `idx_heading` ON `articles` (`headline`)');
    expect(tableSql('idx_heading')).toBe('CREATE UNIQUE INDEX `idx_heading` ON `articles` (`headline`)');
    expect(db().prepare("SELECT headline FROM articles WHERE id = 'r1'").get()).toEqual({ headline: 'hello' });

    const followed = (await api('GET', '/api/collections/post_titles')).body;
    expect(followed.options.query).toBe('select id, "headline" from "articles"');
    expect(followed.schema.map((f: { name: string }) => f.name)).toEqual(['headline']);
    expect(db().prepare('SELECT * FROM post_titles').all()).toEqual([{ id: 'r1', headline: 'hello' }]);
    await api('DELETE', '/api/collections/post_titles');
  });

  it('reports an index that fails to build under indexes.{i}, changing nothing', async () => {
    const before = snapshot();
    const res = await api('PATCH', `/api/collections/${id}`, { indexes: ['CREATE INDEX idx_bad ON articles (nope)'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Failed to update the collection.');
    expect(res.body.data.indexes['0'].code).toBe('validation_invalid_index_expression');
    expect(res.body.data.indexes['0'].message).toMatch(/^Failed to create index idx_bad - no such column: nope/);
    expect(snapshot()).toEqual(before);
  });

  it('refuses to delete a referenced collection, then deletes it with its table', async () => {
    const ref = await api('POST', '/api/collections', {
      name: 'comments',
      schema: [{ name: 'article', type: 'relation', options: { collectionId: id, maxSelect: 1, cascadeDelete: true } }],
    });
    expect(ref.status, JSON.stringify(ref.body)).toBe(200);
    const [article] = ref.body.schema;
    const retarget = await api('PATCH', '/api/collections/comments', { schema: [{ ...article, options: { ...article.options, collectionId: '_pb_users_auth_' } }] });
    expect(retarget.status).toBe(400);
    expect(retarget.body.data.schema['0'].options.collectionId).toEqual({ code: 'validation_field_relation_change', message: 'The relation collection cannot be changed.' });
    const refused = await api('DELETE', `/api/collections/${id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 400, message: 'Failed to delete collection due to existing dependency.', data: {} });
    expect(tableSql('articles')).toBeDefined();

    expect((await api('DELETE', '/api/collections/comments')).status).toBe(204);
    expect(tableSql('comments')).toBeUndefined();
    expect((await api('DELETE', `/api/collections/${id}`)).status).toBe(204);
    expect(tableSql('articles')).toBeUndefined();
    expect(tableSql('idx_heading')).toBeUndefined();
    expect((await api('GET', `/api/collections/${id}`)).status).toBe(404);
  });

  it('refuses to delete a table a view reads', async () => {
    await api('POST', '/api/collections', { name: 'src', schema: [{ name: 'n', type: 'number' }] });
    await api('POST', '/api/collections', { name: 'src_view', type: 'view', options: { query: 'select id, n from src' } });
    const res = await api('DELETE', '/api/collections/src');
    expect(res.status).toBe(400);
    expect(tableSql('src')).toBeDefined();
    expect((await api('DELETE', '/api/collections/src_view')).status).toBe(204);
    expect((await api('DELETE', '/api/collections/src')).status).toBe(204);
  });
});
