// /api/collections over HTTP against the real server on a fresh data dir: CRUD of base, auth and
// view collections, schema changes applied to the table (data kept or dropped), indexes, rules,
// import, and bad input (400 with field errors, nothing changed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { findCollection, getCollections, onCollectionsChange, type CollectionChange } from '../../server/collections/store';

let srv: TestServer;
let token: string;

const api = (method: string, path: string, body?: unknown) => http(srv.url, method, path, { token, body });
const db = () => srv.app.ctx.db;
const tableSql = (name: string) =>
  (db().prepare("SELECT sql FROM sqlite_master WHERE name = ? COLLATE NOCASE").get(name) as { sql: string } | undefined)?.sql;
const columns = (table: string) => (db().prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table) as { name: string; type: string }[]).map((c) => c.name);
/** Everything that could change: the schema objects and the collection rows. */
const snapshot = () => ({
  master: db().prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all(),
  collections: db().prepare('SELECT * FROM _collections ORDER BY id').all(),
});

beforeAll(async () => {
  srv = await startServer();
  const body = { email: 'admin@example.com', password: '1234567890', passwordConfirm: '1234567890' };
  expect((await http(srv.url, 'POST', '/api/admins', { body })).status).toBe(200);
  const auth = await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: body.email, password: body.password } });
  token = auth.body.token;
});

afterAll(async () => {
  await srv?.close();
});

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

describe('auth collections', () => {
  it('creates an auth collection without options with every auth method off', async () => {
    const res = await api('POST', '/api/collections', { name: 'members', type: 'auth' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.options).toEqual({
      allowEmailAuth: false,
      allowOAuth2Auth: false,
      allowUsernameAuth: false,
      exceptEmailDomains: null,
      manageRule: null,
      minPasswordLength: 0,
      onlyEmailDomains: null,
      onlyVerified: false,
      requireEmail: false,
    });
    expect(columns('members').sort()).toEqual(
      ['created', 'email', 'emailVisibility', 'id', 'lastResetSentAt', 'lastVerificationSentAt', 'passwordHash', 'tokenKey', 'updated', 'username', 'verified'].sort(),
    );
    const indexes = db().prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'members' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    expect(indexes.map((i) => (i as { name: string }).name)).toEqual(
      [`_${res.body.id}_email_idx`, `_${res.body.id}_tokenKey_idx`, `_${res.body.id}_username_idx`].sort(),
    );
  });

  it('keeps the dashboard defaults and validates the auth options', async () => {
    const options = { allowEmailAuth: true, allowUsernameAuth: true, allowOAuth2Auth: true, minPasswordLength: 8, manageRule: 'id = @request.auth.id' };
    const res = await api('POST', '/api/collections', { name: 'staff', type: 'auth', options, schema: [{ name: 'nick', type: 'text' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.options).toMatchObject({ ...options, onlyVerified: false, requireEmail: false });

    const bad = await api('PATCH', '/api/collections/staff', {
      options: { minPasswordLength: 5, exceptEmailDomains: ['a.com'], onlyEmailDomains: ['b.com'], manageRule: 'nope = 1' },
      schema: [{ name: 'email', type: 'text' }, { name: 'passwordConfirm', type: 'text' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Failed to update the collection.');
    expect(bad.body.data.options).toEqual({
      exceptEmailDomains: { code: 'validation_empty', message: 'Must be blank.' },
      minPasswordLength: { code: 'validation_min_greater_equal_than_required', message: 'Must be no less than 6.' },
      onlyEmailDomains: { code: 'validation_empty', message: 'Must be blank.' },
    });
    expect(bad.body.data.schema['0'].name.code).toBe('validation_reserved_auth_field_name');
    expect(bad.body.data.schema['1'].name.code).toBe('validation_reserved_auth_field_name');

    const noLength = await api('PATCH', '/api/collections/staff', { options: { minPasswordLength: 0 } });
    expect(noLength.body.data.options.minPasswordLength.code).toBe('validation_required');
    const badManage = await api('PATCH', '/api/collections/staff', { options: { manageRule: 'nope = 1' } });
    expect(badManage.body.data.options.manageRule.code).toBe('validation_invalid_rule');
    const emptyManage = await api('PATCH', '/api/collections/staff', { options: { manageRule: '' } });
    expect(emptyManage.body.data.options).toEqual({ manageRule: { code: 'validation_nil_or_not_empty_required', message: 'Cannot be blank.' } });

    const badDomains = await api('PATCH', '/api/collections/staff', { options: { onlyEmailDomains: ['ok.com', 'not a domain', ''], minPasswordLength: 73 } });
    expect(badDomains.body.data.options).toEqual({
      minPasswordLength: { code: 'validation_max_less_equal_than_required', message: 'Must be no greater than 72.' },
      onlyEmailDomains: { 1: { code: 'validation_is_domain', message: 'Must be a valid domain.' } },
    });
    // 0 (no length) is fine while password sign-in is off
    const noPasswordAuth = await api('PATCH', '/api/collections/staff', { options: { allowEmailAuth: false, allowUsernameAuth: false, minPasswordLength: 0 } });
    expect(noPasswordAuth.status, JSON.stringify(noPasswordAuth.body)).toBe(200);
  });

  it('refuses to change the collection type', async () => {
    const res = await api('PATCH', '/api/collections/staff', { type: 'base' });
    expect(res.body.data.type.code).toBe('validation_collection_type_change');
  });
});

describe('view collections', () => {
  beforeAll(async () => {
    const res = await api('POST', '/api/collections', {
      name: 'products',
      schema: [
        { name: 'label', type: 'text' },
        { name: 'price', type: 'number' },
        { name: 'owner', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('creates the SQL view and infers the schema from the query', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'cheap',
      type: 'view',
      listRule: '',
      options: { query: 'select id, label, price, owner, count(id) as total from products group by id;' },
      schema: [{ name: 'ignored', type: 'text' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.schema.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
      'label:text', 'price:number', 'owner:relation', 'total:number',
    ]);
    expect(res.body.indexes).toEqual([]);
    expect(tableSql('cheap')).toBe('CREATE VIEW `cheap` AS SELECT * FROM (select id, label, price, owner, count(id) as total from products group by id)');
  });

  it('wraps a non-text id in a text cast, like 0.22', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'numbered',
      type: 'view',
      options: { query: 'select (ROW_NUMBER() OVER()) as id, label from products' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(tableSql('numbered')).toBe(
      'CREATE VIEW `numbered` AS SELECT * FROM (SELECT cast(`id` as text) `id`,`label` FROM (select (ROW_NUMBER() OVER()) as id, label from products))',
    );
  });

  it('accepts only list and view rules, and no indexes', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'ruled',
      type: 'view',
      createRule: '',
      deleteRule: '',
      indexes: ['create index x on ruled (label)'],
      options: { query: 'select id, label from products' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.createRule).toEqual({ code: 'validation_nil', message: 'Must be blank.' });
    expect(res.body.data.deleteRule.code).toBe('validation_nil');
    expect(res.body.data.indexes.code).toBe('validation_indexes_not_supported');
  });

  it('updates the query and name of a view, re-inferring its schema', async () => {
    const res = await api('PATCH', '/api/collections/cheap', { name: 'cheapest', options: { query: 'select id, price from products' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.schema.map((f: { name: string }) => f.name)).toEqual(['price']);
    expect(tableSql('cheap')).toBeUndefined();
    expect(tableSql('cheapest')).toBe('CREATE VIEW `cheapest` AS SELECT * FROM (select id, price from products)');
    const back = await api('PATCH', '/api/collections/cheapest', { name: 'cheap', options: { query: 'select id, label, price, owner, count(id) as total from products group by id' } });
    expect(back.status).toBe(200);
  });

  it.each([
    ['a wildcard', 'select * from products'],
    ['no id column', 'select label from products'],
    ['a syntax error', 'select id, label frm products'],
    ['a DELETE', 'delete from products'],
    ['an ATTACH', "attach database 'x.db' as x"],
    ['a PRAGMA', 'pragma table_info(products)'],
    ['stacked statements', 'select id from products; drop table products'],
    ['an unaliased expression', 'select id, price * 2 from products'],
  ])('rejects a view query with %s', async (_label, query) => {
    const before = snapshot();
    const res = await api('POST', '/api/collections', { name: 'bad_view', type: 'view', options: { query } });
    expect(res.status).toBe(400);
    expect(res.body.data.options.query.code).toBe('validation_invalid_view_query');
    expect(res.body.data.options.query.message).toMatch(/^Invalid query - /);
    expect(snapshot()).toEqual(before);
  });
});

describe('rules', () => {
  it('stores rules as given and compiles them at save time', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'notes',
      schema: [
        { name: 'text', type: 'text' },
        { name: 'owner', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
      ],
      listRule: 'owner = @request.auth.id || owner.name ~ "x"',
      viewRule: "@collection.products.label = text && @request.query.a = '1'",
      createRule: '',
      updateRule: null,
      deleteRule: '@request.data.text != ""',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ createRule: '', updateRule: null, deleteRule: '@request.data.text != ""' });
  });

  it('reports a rule that does not compile as a field error', async () => {
    const before = snapshot();
    const res = await api('PATCH', '/api/collections/notes', { listRule: 'missing = 1', viewRule: 'owner.nope = 1', updateRule: '(' });
    expect(res.status).toBe(400);
    for (const key of ['listRule', 'viewRule', 'updateRule']) {
      expect(res.body.data[key].code, key).toBe('validation_invalid_rule');
      expect(res.body.data[key].message).toMatch(/^Invalid filter rule\. Raw error: /);
    }
    expect(snapshot()).toEqual(before);
  });
});

describe('bad input', () => {
  const field = (name: string, type = 'text', options: Record<string, unknown> = {}) => ({ name, type, options });

  it.each<[string, Record<string, unknown>, string[], string]>([
    ['a name with spaces', { name: 'my posts', schema: [field('a')] }, ['name'], 'validation_match_invalid'],
    ['a duplicate name (case-insensitive)', { name: 'USERS', type: 'auth' }, ['name'], 'validation_collection_name_exists'],
    ['a system table name', { name: '_admins', schema: [field('a')] }, ['name'], 'validation_match_invalid'],
    ['an sqlite_ name', { name: 'sqlite_stat9', schema: [field('a')] }, ['name'], 'validation_invalid_name'],
    ['a _via_ name', { name: 'a_via_b', schema: [field('a')] }, ['name'], 'validation_invalid_name'],
    ['no fields on a base collection', { name: 'empty' }, ['schema'], 'validation_required'],
    ['duplicate field names', { name: 'dups', schema: [field('a'), field('A')] }, ['schema', '1', 'name'], 'validation_duplicated_field_name'],
    ['a system field name', { name: 'sys', schema: [field('created')] }, ['schema', '0', 'name'], 'validation_not_in_invalid'],
    ['a field name with spaces', { name: 'sp', schema: [field('a b')] }, ['schema', '0', 'name'], 'validation_match_invalid'],
    // 0.22 drops a field of an unknown type on decode, which leaves this schema empty
    ['only a field of an unknown type', { name: 'unk', schema: [field('a', 'money')] }, ['schema'], 'validation_required'],
    ['an invalid regex', { name: 're', schema: [field('a', 'text', { pattern: '(' })] }, ['schema', '0', 'options', 'pattern'], 'validation_invalid_regex'],
    ['a lookahead regex', { name: 're2', schema: [field('a', 'text', { pattern: '(?=a)' })] }, ['schema', '0', 'options', 'pattern'], 'validation_invalid_regex'],
    ['text min > max', { name: 'mm', schema: [field('a', 'text', { min: 5, max: 2 })] }, ['schema', '0', 'options', 'max'], 'validation_min_greater_equal_than_required'],
    ['number min > max', { name: 'nm', schema: [field('a', 'number', { min: 5, max: 2 })] }, ['schema', '0', 'options', 'max'], 'validation_min_greater_equal_than_required'],
    ['a select without values', { name: 'sel', schema: [field('a', 'select', { maxSelect: 1 })] }, ['schema', '0', 'options', 'values'], 'validation_required'],
    ['a json field without maxSize', { name: 'js', schema: [field('a', 'json')] }, ['schema', '0', 'options', 'maxSize'], 'validation_required'],
    ['options of the wrong type', { name: 'ot', schema: [field('a', 'text', { min: 'x' })] }, ['schema', '0', 'options'], 'validation_invalid_options'],
    ['a relation to a missing collection', { name: 'rm', schema: [field('a', 'relation', { collectionId: 'nope' })] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    // 0.22 looks the target up before the options' own rules: a blank or absent target does not exist either
    ['a relation without a target', { name: 'rb', schema: [field('a', 'relation', { collectionId: '' })] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    ['a relation with no collectionId', { name: 'rn', schema: [field('a', 'relation', {})] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    ['a relation to a view', { name: 'rv', schema: [field('a', 'relation', { collectionId: 'cheap' })] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    ['an invalid index statement', { name: 'ii', schema: [field('a')], indexes: ['drop table users'] }, ['indexes', '0'], 'validation_invalid_index_expression'],
    ['a bad custom id', { id: 'short', name: 'cid', schema: [field('a')] }, ['id'], 'validation_length_invalid'],
    ['an unknown type', { name: 'ut', type: 'table', schema: [field('a')] }, ['type'], 'validation_in_invalid'],
    ['a huge schema', { name: 'huge', schema: Array.from({ length: 600 }, (_, i) => field(`f${i}`)) }, ['schema'], 'validation_length_too_long'],
  ])('rejects %s with a field error and changes nothing', async (_label, body, pathParts, code) => {
    const before = snapshot();
    const res = await api('POST', '/api/collections', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    let node = res.body.data;
    for (const part of pathParts) node = node?.[part];
    expect(node?.code, JSON.stringify(res.body.data)).toBe(code);
    expect(snapshot()).toEqual(before);
  });

  it('puts an index naming another table on the collection itself, as 0.22 does', async () => {
    const res = await api('POST', '/api/collections', { name: 'itab', schema: [field('a')], indexes: ['CREATE INDEX `idx_itab_a` ON `users` (`a`)'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(db().prepare("SELECT tbl_name FROM sqlite_master WHERE name = 'idx_itab_a'").get()).toEqual({ tbl_name: 'itab' });
  });

  it('rejects a relation to a view collection as a non-view relation', async () => {
    const view = (await api('GET', '/api/collections/cheap')).body;
    const res = await api('POST', '/api/collections', { name: 'rv2', schema: [field('a', 'relation', { collectionId: view.id })] });
    expect(res.body.data.schema['0'].options.collectionId.code).toBe('validation_field_non_view_base_relation_collection');
  });

  it('answers malformed bodies with the load error', async () => {
    for (const raw of ['{', '[1]', '{"name": 5}', '{"schema": {}}', '{"indexes": [1]}']) {
      const res = await http(srv.url, 'POST', '/api/collections', { token, raw });
      expect(res.status, raw).toBe(400);
      expect(res.body.data).toEqual({});
    }
  });
});

describe('import', () => {
  const exported = async () => (await api('GET', '/api/collections?perPage=500')).body.items as Array<Record<string, any>>;

  it('extends existing schemas and creates new collections without deleteMissing', async () => {
    const all = await exported();
    const notes = all.find((c) => c.name === 'notes')!;
    const res = await api('PUT', '/api/collections/import', {
      collections: [
        { ...notes, schema: [{ name: 'extra', type: 'bool' }] },
        { name: 'imported', schema: [{ name: 'x', type: 'text' }], indexes: ['CREATE INDEX idx_imported_x ON imported (x)'] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const after = await exported();
    expect(after.find((c) => c.name === 'notes')!.schema.map((f: { name: string }) => f.name)).toEqual(['text', 'owner', 'extra']);
    expect(columns('notes')).toContain('extra');
    expect(columns('imported')).toContain('x');
    expect(tableSql('idx_imported_x')).toBeDefined();
    expect(after.length).toBe(all.length + 1);
  });

  it('deletes missing collections and fields with deleteMissing', async () => {
    const all = await exported();
    const keep = all.filter((c) => c.name !== 'imported' && !['cheap', 'numbered'].includes(c.name) && c.type !== 'view');
    const notes = keep.find((c) => c.name === 'notes')!;
    notes.schema = notes.schema.filter((f: { name: string }) => f.name !== 'extra');
    const res = await api('PUT', '/api/collections/import', { collections: keep, deleteMissing: true });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const after = await exported();
    expect(after.map((c) => c.name).sort()).toEqual(keep.map((c) => c.name).sort());
    expect(tableSql('imported')).toBeUndefined();
    expect(tableSql('cheap')).toBeUndefined();
    expect(columns('notes')).not.toContain('extra');
  });

  it('changes nothing when any collection is invalid', async () => {
    const before = snapshot();
    const all = await exported();
    const res = await api('PUT', '/api/collections/import', {
      collections: [...all, { name: 'broken', schema: [{ name: 'r', type: 'relation', options: { collectionId: 'missing' } }] }, { name: 'fine', schema: [{ name: 'x', type: 'text' }] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Failed to import the submitted collections.');
    expect(res.body.data.collections.code).toBe('collections_import_validate_failure');
    expect(res.body.data.collections.message).toMatch(/^Data validations failed for collection "broken"/);
    expect(snapshot()).toEqual(before);

    const badIndex = await api('PUT', '/api/collections/import', { collections: [{ name: 'fine', schema: [{ name: 'x', type: 'text' }], indexes: ['CREATE INDEX i ON fine (nope)'] }] });
    expect(badIndex.body.data.collections.code).toBe('collections_import_failure');
    expect(snapshot()).toEqual(before);
  });

  it('requires a collections list', async () => {
    const res = await api('PUT', '/api/collections/import', {});
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({ collections: { code: 'validation_required', message: 'Cannot be blank.' } });
  });
});

describe('store', () => {
  it('serves cached collections, invalidated and announced on every change', async () => {
    const ctx = srv.app.ctx;
    const seen: CollectionChange[] = [];
    const off = onCollectionsChange(ctx, (change) => seen.push(change));
    const before = getCollections(ctx).length;
    expect(getCollections(ctx)).toBe(getCollections(ctx));
    const res = await api('POST', '/api/collections', { name: 'Cached', schema: [{ name: 'x', type: 'text' }] });
    expect(findCollection(ctx, 'cached')?.id).toBe(res.body.id);
    expect(findCollection(ctx, res.body.id)?.name).toBe('Cached');
    expect(getCollections(ctx).length).toBe(before + 1);
    await api('DELETE', '/api/collections/cached');
    expect(findCollection(ctx, 'cached')).toBeUndefined();
    expect(seen.map((c) => c.action)).toEqual(['create', 'delete']);
    off();
  });
});
