// Compatibility with PocketBase 0.22: a copy of its own fixture answers GET /api/collections as
// 0.22 does, changes to it keep its data and layout, and collections built here get exactly the
// tables, columns, defaults, indexes and views 0.22 would create (written down below as facts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

const ADMIN_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';

const field = (id: string, name: string, type: string, options: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  system: false,
  id,
  name,
  type,
  required: false,
  presentable: false,
  unique: false,
  options,
  ...extra,
});

/** What 0.22.12 answers for fixture collections (stored options completed with Go zero values). */
const FIXTURE_FACTS: Record<string, unknown> = {
  users: {
    id: '_pb_users_auth_',
    created: '2022-10-10 09:49:46.145Z',
    updated: '2023-03-20 16:29:47.200Z',
    name: 'users',
    type: 'auth',
    system: false,
    schema: [
      field('users_name', 'name', 'text', { min: null, max: null, pattern: '' }),
      field('users_avatar', 'avatar', 'file', {
        mimeTypes: ['image/jpg', 'image/jpeg', 'image/png', 'image/svg+xml', 'image/gif'],
        thumbs: ['70x50', '70x50t', '70x50b', '70x50f', '0x50', '70x0'],
        maxSelect: 1,
        maxSize: 5242880,
        protected: false,
      }),
      field('xtecur3m', 'file', 'file', { mimeTypes: [], thumbs: [], maxSelect: 5, maxSize: 5242880, protected: false }),
      field('lkeigvv3', 'rel', 'relation', { collectionId: 'sz5l5z67tg7gku0', cascadeDelete: false, minSelect: null, maxSelect: 1, displayFields: null }),
    ],
    indexes: ['CREATE INDEX `__pb_users_auth__created_idx` ON `users` (`created`)'],
    listRule: null,
    viewRule: 'id = @request.auth.id',
    createRule: '',
    updateRule: 'id = @request.auth.id',
    deleteRule: 'id = @request.auth.id',
    options: {
      allowEmailAuth: true,
      allowOAuth2Auth: true,
      allowUsernameAuth: true,
      exceptEmailDomains: null,
      manageRule: null,
      minPasswordLength: 8,
      onlyEmailDomains: null,
      onlyVerified: false,
      requireEmail: false,
    },
  },
  numeric_id_view: {
    id: 'zahsr9d2mix2fvk',
    created: '2023-08-11 09:41:00.997Z',
    updated: '2023-11-20 18:26:53.169Z',
    name: 'numeric_id_view',
    type: 'view',
    system: false,
    schema: [field('vbont5fp', 'email', 'email', { exceptDomains: null, onlyDomains: null })],
    indexes: [],
    listRule: '',
    viewRule: '',
    createRule: null,
    updateRule: null,
    deleteRule: null,
    options: { query: 'select (ROW_NUMBER() OVER()) as id, email from clients' },
  },
};

describe('the 0.22.12 fixture', () => {
  let srv: TestServer;
  const api = (method: string, path: string, body?: unknown) => http(srv.url, method, path, { token: ADMIN_TOKEN, body });
  const db = () => srv.app.db;
  const sqlOf = (name: string) => (db().prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string } | undefined)?.sql;

  beforeAll(async () => {
    srv = await startServer({ fixture: true });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('lists its 11 collections', async () => {
    const res = await api('GET', '/api/collections?perPage=100&sort=created');
    expect(res.body.totalItems).toBe(11);
    expect(res.body.items.map((c: { name: string }) => c.name)).toEqual([
      'users', 'demo1', 'demo2', 'demo3', 'demo4', 'clients', 'nologin', 'demo5', 'view1', 'view2', 'numeric_id_view',
    ]);
  });

  it('answers GET with the keys and values 0.22 gives', async () => {
    for (const [name, expected] of Object.entries(FIXTURE_FACTS)) {
      const res = await api('GET', `/api/collections/${name}`);
      expect(res.body, name).toEqual(expected);
      expect(JSON.stringify(res.body)).toBe(JSON.stringify(expected));
    }
    const demo5 = (await api('GET', '/api/collections/demo5')).body;
    // stored without noDecimal/presentable: 0.22 fills the Go zero values in
    expect(demo5.schema.find((f: { name: string }) => f.name === 'total')).toEqual(field('kvbyzuqj', 'total', 'number', { min: null, max: null, noDecimal: false }));
    const nologin = (await api('GET', '/api/collections/nologin')).body;
    expect(nologin.system).toBe(true);
    expect(nologin.options).toEqual({
      allowEmailAuth: false,
      allowOAuth2Auth: false,
      allowUsernameAuth: false,
      exceptEmailDomains: [],
      manageRule: "@request.auth.collectionName = 'users'",
      minPasswordLength: 8,
      onlyEmailDomains: [],
      onlyVerified: false,
      requireEmail: true,
    });
    const demo2 = (await api('GET', '/api/collections/demo2')).body;
    // indexes are returned as stored; only saving normalises them
    expect(demo2.indexes).toEqual([
      'CREATE INDEX `idx_demo2_created` ON `demo2` (`created`)',
      'CREATE UNIQUE INDEX "idx_unique_demo2_title" on "demo2" ("title")',
      'CREATE INDEX "idx_demo2_active" ON "demo2" (\n"active"\n)',
    ]);
  });

  it('adds a field to an old table keeping its data and normalising its indexes', async () => {
    const demo2 = (await api('GET', '/api/collections/demo2')).body;
    const res = await api('PATCH', '/api/collections/demo2', { schema: [...demo2.schema, { name: 'note', type: 'text' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sqlOf('demo2')).toBe(
      "CREATE TABLE `demo2` (`created` TEXT DEFAULT '' NOT NULL, `id` TEXT PRIMARY KEY, `title` TEXT DEFAULT '', `updated` TEXT DEFAULT '' NOT NULL, \"active\" Boolean DEFAULT FALSE, \"note\" TEXT DEFAULT '' NOT NULL)",
    );
    expect(res.body.indexes).toEqual([
      'CREATE INDEX `idx_demo2_created` ON `demo2` (`created`)',
      'CREATE UNIQUE INDEX `idx_unique_demo2_title` ON `demo2` (`title`)',
      'CREATE INDEX `idx_demo2_active` ON `demo2` (`active`)',
    ]);
    expect(sqlOf('idx_unique_demo2_title')).toBe('CREATE UNIQUE INDEX `idx_unique_demo2_title` ON `demo2` (`title`)');
    expect(db().prepare('SELECT id, title, note FROM demo2 ORDER BY id').all()).toEqual([
      { id: '0yxhwia2amd8gec', title: 'test3', note: '' },
      { id: 'achvryl401bhse3', title: 'test2', note: '' },
      { id: 'llvuca81nly1qls', title: 'test1', note: '' },
    ]);
  });

  it('refuses to delete demo2 (users.rel points at it) or the system nologin', async () => {
    for (const name of ['demo2', 'nologin']) {
      const res = await api('DELETE', `/api/collections/${name}`);
      expect(res.status, name).toBe(400);
      expect(res.body.message).toBe('Failed to delete collection due to existing dependency.');
    }
    const renameSystem = await api('PATCH', '/api/collections/nologin', { name: 'other' });
    expect(renameSystem.body.data.name.code).toBe('validation_collection_system_name_change');
  });

  it('renames demo1 with view1 (and view2 through it) following', async () => {
    const res = await api('PATCH', '/api/collections/demo1', { name: 'demo1_renamed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.indexes).toEqual(['CREATE INDEX `_wsmn24bux7wo113_created_idx` ON `demo1_renamed` (`created`)']);
    const view1 = (await api('GET', '/api/collections/view1')).body;
    expect(view1.options.query).toBe(
      'select id, text, bool, url, select_one, select_many, file_one, file_many, number, email, datetime, json, rel_one, rel_many, created from "demo1_renamed"',
    );
    expect(db().prepare('SELECT count(*) AS n FROM view2').get()).toEqual({ n: 3 });
    expect((await api('GET', '/api/collections/view2')).body.schema.map((f: { name: string }) => f.name)).toEqual(['state', 'file_many', 'rel_many']);
  });
});

describe('a fresh data dir', () => {
  let srv: TestServer;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(srv.url, method, path, { token, body });
  const master = (tbl: string) =>
    srv.app.db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND name NOT LIKE 'sqlite_autoindex%' ORDER BY type DESC, name")
      .all(tbl);

  beforeAll(async () => {
    srv = await startServer();
    const body = { email: 'admin@example.com', password: '1234567890', passwordConfirm: '1234567890' };
    await http(srv.url, 'POST', '/api/admins', { body });
    token = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: body.email, password: body.password } })).body.token;
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('creates base, auth and view collections with the SQLite schema 0.22 creates', async () => {
    const base = await api('POST', '/api/collections', {
      id: 'everything00001',
      name: 'everything',
      schema: [
        { name: 'text_f', type: 'text' },
        { name: 'editor_f', type: 'editor' },
        { name: 'number_f', type: 'number' },
        { name: 'bool_f', type: 'bool' },
        { name: 'email_f', type: 'email' },
        { name: 'url_f', type: 'url' },
        { name: 'date_f', type: 'date' },
        { name: 'select_one', type: 'select', options: { maxSelect: 1, values: ['a'] } },
        { name: 'select_many', type: 'select', options: { maxSelect: 2, values: ['a', 'b'] } },
        { name: 'json_f', type: 'json', options: { maxSize: 100 } },
        { name: 'file_one', type: 'file', options: { maxSelect: 1, maxSize: 100 } },
        { name: 'file_many', type: 'file', options: { maxSelect: 9, maxSize: 100 } },
        { name: 'rel_one', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
        { name: 'rel_many', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: null } },
      ],
      indexes: ['CREATE UNIQUE INDEX idx_text ON everything (text_f) WHERE text_f != \'\'', 'create index idx_two on everything (number_f, date_f desc)'],
    });
    expect(base.status, JSON.stringify(base.body)).toBe(200);
    const auth = await api('POST', '/api/collections', {
      id: 'accounts0000001',
      name: 'accounts',
      type: 'auth',
      schema: [{ name: 'nick', type: 'text' }],
      options: { allowEmailAuth: true, allowUsernameAuth: true, allowOAuth2Auth: true, minPasswordLength: 8 },
    });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const view = await api('POST', '/api/collections', { name: 'everything_view', type: 'view', options: { query: 'select id, text_f, rel_one from everything' } });
    expect(view.status, JSON.stringify(view.body)).toBe(200);

    expect(master('everything')).toEqual([
      {
        type: 'table',
        name: 'everything',
        sql:
          'CREATE TABLE `everything` (' +
          [
            '`bool_f` BOOLEAN DEFAULT FALSE NOT NULL',
            "`created` TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
            "`date_f` TEXT DEFAULT '' NOT NULL",
            "`editor_f` TEXT DEFAULT '' NOT NULL",
            "`email_f` TEXT DEFAULT '' NOT NULL",
            "`file_many` JSON DEFAULT '[]' NOT NULL",
            "`file_one` TEXT DEFAULT '' NOT NULL",
            "`id` TEXT PRIMARY KEY DEFAULT ('r'||lower(hex(randomblob(7)))) NOT NULL",
            '`json_f` JSON DEFAULT NULL',
            '`number_f` NUMERIC DEFAULT 0 NOT NULL',
            "`rel_many` JSON DEFAULT '[]' NOT NULL",
            "`rel_one` TEXT DEFAULT '' NOT NULL",
            "`select_many` JSON DEFAULT '[]' NOT NULL",
            "`select_one` TEXT DEFAULT '' NOT NULL",
            "`text_f` TEXT DEFAULT '' NOT NULL",
            "`updated` TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
            "`url_f` TEXT DEFAULT '' NOT NULL",
          ].join(', ') +
          ')',
      },
      { type: 'index', name: 'idx_text', sql: "CREATE UNIQUE INDEX `idx_text` ON `everything` (`text_f`) WHERE text_f != ''" },
      { type: 'index', name: 'idx_two', sql: 'CREATE INDEX `idx_two` ON `everything` (\n  `number_f`,\n  `date_f` DESC\n)' },
    ]);

    expect(master('accounts')).toEqual([
      {
        type: 'table',
        name: 'accounts',
        sql:
          'CREATE TABLE `accounts` (' +
          [
            "`created` TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
            "`email` TEXT DEFAULT '' NOT NULL",
            '`emailVisibility` BOOLEAN DEFAULT FALSE NOT NULL',
            "`id` TEXT PRIMARY KEY DEFAULT ('r'||lower(hex(randomblob(7)))) NOT NULL",
            "`lastResetSentAt` TEXT DEFAULT '' NOT NULL",
            "`lastVerificationSentAt` TEXT DEFAULT '' NOT NULL",
            "`nick` TEXT DEFAULT '' NOT NULL",
            '`passwordHash` TEXT NOT NULL',
            '`tokenKey` TEXT NOT NULL',
            "`updated` TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%fZ')) NOT NULL",
            '`username` TEXT NOT NULL',
            '`verified` BOOLEAN DEFAULT FALSE NOT NULL',
          ].join(', ') +
          ')',
      },
      { type: 'index', name: '_accounts0000001_email_idx', sql: "CREATE UNIQUE INDEX _accounts0000001_email_idx ON `accounts` (`email`) WHERE `email` != ''" },
      { type: 'index', name: '_accounts0000001_tokenKey_idx', sql: 'CREATE UNIQUE INDEX _accounts0000001_tokenKey_idx ON `accounts` (`tokenKey`)' },
      { type: 'index', name: '_accounts0000001_username_idx', sql: 'CREATE UNIQUE INDEX _accounts0000001_username_idx ON `accounts` (`username`)' },
    ]);

    expect(master('everything_view')).toEqual([
      { type: 'view', name: 'everything_view', sql: 'CREATE VIEW `everything_view` AS SELECT * FROM (select id, text_f, rel_one from everything)' },
    ]);
    // a view column from a collection keeps its field; the view's id is not a schema field
    expect(view.body.schema.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(['text_f:text', 'rel_one:relation']);

    // the _collections rows are stored the way 0.22 stores them (JSON text, 0/1 system)
    const row = srv.app.db.prepare("SELECT * FROM _collections WHERE id = 'accounts0000001'").get() as Record<string, unknown>;
    expect(row).toMatchObject({ type: 'auth', name: 'accounts', system: 0, indexes: '[]', listRule: null });
    expect(JSON.parse(String(row.options))).toEqual(auth.body.options);
    expect(JSON.parse(String(row.schema))).toEqual(auth.body.schema);
  });

  it('stores values in those columns as 0.22 does when a row omits them', () => {
    const db = srv.app.db;
    db.prepare("INSERT INTO everything (id) VALUES ('aaaaaaaaaaaaaaa')").run();
    const row = db.prepare("SELECT * FROM everything WHERE id = 'aaaaaaaaaaaaaaa'").get() as Record<string, unknown>;
    expect(row).toMatchObject({ text_f: '', number_f: 0, bool_f: 0, json_f: null, select_one: '', select_many: '[]', file_one: '', file_many: '[]', rel_one: '', rel_many: '[]' });
    expect(String(row.created)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
