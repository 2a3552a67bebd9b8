// Views must not publish secrets, and only secrets are refused, column by column: passwordHash and
// tokenKey of _admins and of every auth collection, _params.value, _externalAuths.providerId and
// ANALYZE's index samples — however the read is written (aliases, expressions, WHERE/ORDER BY,
// subqueries, CTEs, joins, unions, covering indexes). Everything else may be read, _admins' public
// columns included, as in PocketBase 0.22.12's own collection API tests; a stored view that reads
// a secret is refused at load (logged), never served.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../server/app';
import { openDatabase } from '../../server/db/database';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, startServer, tempDir, type TestServer } from '../helpers/server';

let srv: TestServer;

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});

afterAll(async () => {
  await srv?.close();
});

const createView = (name: string, query: string) =>
  http(srv.url, 'POST', '/api/collections', {
    token: FIXTURE_ADMIN_TOKEN,
    body: { name, type: 'view', listRule: '', viewRule: '', options: { query } },
  });

describe('creating a view that reads secrets', () => {
  const column = (name: string, table: string) => `the column "${name}" of "${table}"`;
  const refused: Array<[string, string]> = [
    ['SELECT id, email, passwordHash, tokenKey FROM _admins', column('passwordHash', '_admins')],
    ['SELECT id, passwordHash AS avatar FROM _admins', column('passwordHash', '_admins')],
    ["SELECT id FROM _admins WHERE passwordHash LIKE '$2a$%'", column('passwordHash', '_admins')],
    ['SELECT id FROM _admins ORDER BY tokenKey', column('tokenKey', '_admins')],
    ['SELECT id, email FROM _admins GROUP BY tokenKey', column('tokenKey', '_admins')],
    ['SELECT id FROM _admins UNION SELECT tokenKey FROM _admins', column('tokenKey', '_admins')],
    ['SELECT id, value FROM _params', column('value', '_params')],
    ["SELECT id, key FROM _params WHERE value LIKE '%secret%'", column('value', '_params')],
    ["SELECT json_extract(value, '$.meta.appName') AS id FROM _params", column('value', '_params')],
    ['SELECT id, provider, providerId FROM _externalAuths', column('providerId', '_externalAuths')],
    ['SELECT id, passwordHash FROM users', column('passwordHash', 'users')],
    ['SELECT u.id, u.tokenKey AS tk FROM users u', column('tokenKey', 'users')],
    ['SELECT id, hex(tokenKey) AS t FROM users', column('tokenKey', 'users')],
    ['SELECT id, (SELECT passwordHash FROM users LIMIT 1) AS x FROM demo1', column('passwordHash', 'users')],
    ["SELECT id FROM users WHERE substr(passwordHash, 1, 1) = '$'", column('passwordHash', 'users')],
    // answered from the unique index on tokenKey alone (a covering index read)
    ["SELECT id FROM users WHERE tokenKey > ''", column('tokenKey', 'users')],
    ['SELECT id FROM users ORDER BY tokenKey', column('tokenKey', 'users')],
    ['WITH a AS (SELECT * FROM _admins) SELECT id, passwordHash AS p FROM a', column('passwordHash', '_admins')],
    // a materialised CTE copies every column, secrets included
    ['WITH a AS MATERIALIZED (SELECT * FROM _admins) SELECT id, email FROM a', column('tokenKey', '_admins')],
    ['SELECT id, x FROM (SELECT id, passwordHash AS x FROM clients)', column('passwordHash', 'clients')],
    ['SELECT d.id, a.passwordHash AS h FROM demo1 d JOIN _admins a ON a.id = d.id', column('passwordHash', '_admins')],
    ['SELECT d.id FROM demo1 d JOIN _admins a ON a.tokenKey = d.text', column('tokenKey', '_admins')],
    ['SELECT id, (SELECT count(*) FROM nologin WHERE tokenKey = demo1.text) AS n FROM demo1', column('tokenKey', 'nologin')],
  ];

  it.each(refused)('refuses %s naming %s', async (query, what) => {
    const res = await createView('secret_view', query);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toBe('Failed to create the collection.');
    expect(Object.keys(res.body.data)).toEqual(['options']);
    expect(res.body.data.options.query).toEqual({ code: 'validation_invalid_view_query', message: `Invalid query - the view may not read ${what}.` });
  });

  it('refuses * over an auth table (0.22 refuses * in a view query, and a CTE copying it all is checked by column)', async () => {
    for (const [query, star] of [['SELECT * FROM _admins', '*'], ['SELECT a.* FROM users a', 'a.*']]) {
      const res = await createView('secret_view', query);
      expect(res.status).toBe(400);
      expect(res.body.data.options.query).toEqual({ code: 'validation_invalid_view_query', message: `Invalid query - ${star}: dynamic column names are not supported.` });
    }
    const cte = await createView('secret_view', 'WITH a AS MATERIALIZED (SELECT * FROM users) SELECT id, username FROM a');
    expect(cte.body.data.options.query.message).toBe('Invalid query - the view may not read the column "passwordHash" of "users".');
  });

  it("refuses ANALYZE's samples, which hold whole index keys (tokenKey values among them)", async () => {
    srv.app.db.exec('ANALYZE');
    const res = await createView('stats_view', 'SELECT (ROW_NUMBER() OVER()) AS id, idx, sample FROM sqlite_stat4');
    expect(res.status).toBe(400);
    expect(res.body.data.options.query.message).toContain(column('sample', 'sqlite_stat4'));
    const counts = await createView('stats_view', 'SELECT (ROW_NUMBER() OVER()) AS id, idx, stat FROM sqlite_stat1');
    expect(counts.status, JSON.stringify(counts.body)).toBe(200);
  });

  it('accepts views over public columns, also of _admins, the system tables, auth collections and other views', async () => {
    const accepted = [
      'SELECT id, avatar, email, created, updated, lastResetSentAt FROM _admins',
      // walks the smallest index, the one on tokenKey, reading nothing of it
      'SELECT 1 AS id FROM _admins',
      'SELECT (ROW_NUMBER() OVER()) AS id, count(*) AS n FROM _admins',
      'WITH a AS (SELECT * FROM _admins) SELECT id, email FROM a',
      'SELECT d.id, a.email FROM demo1 d LEFT JOIN _admins a ON a.id = d.id',
      'SELECT a.id FROM _admins a, _admins b',
      'SELECT id, key, created FROM _params',
      'SELECT id, recordId, provider FROM _externalAuths',
      'SELECT (ROW_NUMBER() OVER()) AS id, file, applied FROM _migrations',
      'SELECT name AS id, type, sql FROM sqlite_schema',
      'SELECT id, username, email, verified, lastResetSentAt FROM users',
    ];
    for (const [i, query] of accepted.entries()) {
      const res = await createView(`public_${i}`, query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    // served: the admins' public columns, nothing secret
    const admins = await http(srv.url, 'GET', '/api/collections/public_0/records?sort=email');
    expect(admins.status).toBe(200);
    expect(admins.body.items.map((a: { email: string }) => a.email)).toEqual(['test2@example.com', 'test3@example.com', 'test@example.com']);
    expect(Object.keys(admins.body.items[0]).sort()).toEqual(
      ['avatar', 'collectionId', 'collectionName', 'created', 'email', 'id', 'lastResetSentAt', 'updated'],
    );
    expect(JSON.stringify(admins.body)).not.toMatch(/\$2a\$|passwordHash|tokenKey/);

    const counted = await createView('user_count', 'SELECT (ROW_NUMBER() OVER()) AS id, (SELECT count(*) FROM users) AS n');
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    const ok = await createView('public_users', 'SELECT id, username, email, verified FROM users');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const nested = await createView('public_users2', 'SELECT id, username FROM public_users');
    expect(nested.status, JSON.stringify(nested.body)).toBe(200);
    const list = await http(srv.url, 'GET', '/api/collections/public_users2/records');
    expect(list.status).toBe(200);
    expect(list.body.totalItems).toBeGreaterThan(0);
    // updating a served view into a secret-reading one is refused the same way
    const upd = await http(srv.url, 'PATCH', `/api/collections/${ok.body.id}`, {
      token: FIXTURE_ADMIN_TOKEN,
      body: { options: { query: 'SELECT id, tokenKey AS t FROM users' } },
    });
    expect(upd.status).toBe(400);
    expect(upd.body.message).toBe('Failed to update the collection.');
    expect(upd.body.data.options.query.message).toContain('may not read the column "tokenKey" of "users"');
  });
});

// PocketBase 0.22.12's apis/collection_test.go, TestCollectionCreate and TestCollectionUpdate, the
// "view" scenarios: the same requests against the same fixture, with the answers they expect.
describe("0.22.12's own view collection scenarios", () => {
  it('"creating view collection": select 1 as id from _admins', async () => {
    const res = await http(srv.url, 'POST', '/api/collections', {
      token: FIXTURE_ADMIN_TOKEN,
      raw: `{
        "name":"new",
        "type":"view",
        "schema":[{"type":"text","id":"12345789","name":"ignored!@#$"}],
        "options": {
          "query": "select 1 as id from _admins"
        }
      }`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'new', type: 'view', schema: [] });
    const records = await http(srv.url, 'GET', '/api/collections/new/records', { token: FIXTURE_ADMIN_TOKEN });
    expect(records.status).toBe(200);
    expect(records.body.totalItems).toBe(3);
  });

  it('"trying to create view collection with invalid options"', async () => {
    const res = await http(srv.url, 'POST', '/api/collections', {
      token: FIXTURE_ADMIN_TOKEN,
      raw: '{"name":"new2","type":"view","schema":[{"type":"text","id":"12345789","name":"ignored!@#$"}],"options":{"query": "invalid"}}',
    });
    expect(res.status).toBe(400);
    expect(res.body.data.options.query.code).toBe('validation_invalid_view_query');
  });

  it('"updating view collection": select 2 as id, created, updated, email from _admins', async () => {
    const res = await http(srv.url, 'PATCH', '/api/collections/view2', {
      token: FIXTURE_ADMIN_TOKEN,
      raw: `{
        "name":"view2_update",
        "schema":[{"type":"text","id":"12345789","name":"ignored!@#$"}],
        "options": {
          "query": "select 2 as id, created, updated, email from _admins"
        }
      }`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'view2_update', type: 'view' });
    // the base model fields are not part of the schema; email, from a table that is no
    // collection, is a json field (0.22's defaultViewField)
    expect(res.body.schema.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([['email', 'json']]);
    const records = await http(srv.url, 'GET', '/api/collections/view2_update/records', { token: FIXTURE_ADMIN_TOKEN });
    expect(records.status).toBe(200);
    expect(records.body.items.map((r: { email: string }) => r.email).sort()).toEqual(['test2@example.com', 'test3@example.com', 'test@example.com']);
  });

  it('"trying to update view collection with invalid options"', async () => {
    const res = await http(srv.url, 'PATCH', '/api/collections/view1', {
      token: FIXTURE_ADMIN_TOKEN,
      raw: '{"schema":[{"type":"text","id":"12345789","name":"ignored!@#$"}],"options":{"query": "invalid"}}',
    });
    expect(res.status).toBe(400);
    expect(res.body.data.options.query.code).toBe('validation_invalid_view_query');
  });
});

describe('a stored view that reads secrets', () => {
  it('is refused at load with a log line and never served', async () => {
    const dataDir = path.join(tempDir(), 'pb_data');
    fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
    // an older server (or PocketBase 0.22 itself) let this view in
    const first = await createApp({ dataDir });
    const url = await first.listen('127.0.0.1', 0);
    const made = await http(url, 'POST', '/api/collections', {
      token: FIXTURE_ADMIN_TOKEN,
      body: { name: 'leak', type: 'view', listRule: '', viewRule: '', options: { query: 'SELECT id, email, tokenKey FROM _admins' } },
    });
    expect(made.status).toBe(400);
    const safe = await http(url, 'POST', '/api/collections', {
      token: FIXTURE_ADMIN_TOKEN,
      body: { name: 'leak', type: 'view', listRule: '', viewRule: '', options: { query: 'SELECT id, username FROM users' } },
    });
    expect(safe.status).toBe(200);
    await first.close();
    const bad = 'SELECT id, email, passwordHash, tokenKey FROM _admins';
    const db = openDatabase(path.join(dataDir, 'data.db'));
    db.exec(`DROP VIEW leak; CREATE VIEW leak AS ${bad}`);
    db.prepare("UPDATE _collections SET options = json_set(options, '$.query', ?) WHERE name = 'leak'").run(bad);
    db.close();

    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = await createApp({ dataDir });
    try {
      expect(errors.mock.calls.map((c) => String(c[0])).join('\n')).toContain(
        '[views] the view collection "leak" is refused and not served: the view may not read the column "passwordHash" of "_admins"',
      );
      const base = await app.listen('127.0.0.1', 0);
      const list = await http(base, 'GET', '/api/collections/leak/records');
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ code: 400, message: 'This view collection is not served: the view may not read the column "passwordHash" of "_admins".', data: {} });
      expect(JSON.stringify(list.body)).not.toContain('$2a$');
      const one = await http(base, 'GET', '/api/collections/leak/records/sywbhecnh46rhm0', { token: FIXTURE_ADMIN_TOKEN });
      expect(one.status).toBe(400);
      // nor through another collection's filter
      const viaFilter = await http(base, 'GET', `/api/collections/demo1/records?filter=${encodeURIComponent("@collection.leak.passwordHash ?~ '$'")}`, {
        token: FIXTURE_ADMIN_TOKEN,
      });
      expect(viaFilter.status).toBe(400);
      // the admin still sees it in the collections list, to fix it
      const cols = await http(base, 'GET', '/api/collections/leak', { token: FIXTURE_ADMIN_TOKEN });
      expect(cols.status).toBe(200);
    } finally {
      errors.mockRestore();
      await app.close();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });
});
