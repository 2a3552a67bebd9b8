// Views must not publish secrets: a view query may not read _admins, _params, _externalAuths,
// _migrations, sqlite_* tables, nor passwordHash / tokenKey of auth collections — however the read
// is written — and a stored view that does is refused at load (logged), never served.
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
  const refused: Array<[string, string]> = [
    ['SELECT id, email, passwordHash, tokenKey FROM _admins', 'the table "_admins"'],
    ['SELECT id, key, value FROM _params', 'the table "_params"'],
    ['SELECT id, provider, providerId FROM _externalAuths', 'the table "_externalAuths"'],
    ['SELECT (ROW_NUMBER() OVER()) AS id, file FROM _migrations', 'the table "_migrations"'],
    ['SELECT name AS id, sql FROM sqlite_master', 'the table "sqlite_schema"'],
    ['SELECT name AS id FROM sqlite_schema', 'the table "sqlite_schema"'],
    ['SELECT id, passwordHash FROM users', 'the column "passwordHash" of "users"'],
    ['SELECT u.id, u.tokenKey AS tk FROM users u', 'the column "tokenKey" of "users"'],
    ['SELECT id, hex(tokenKey) AS t FROM users', 'the column "tokenKey" of "users"'],
    ['SELECT id, (SELECT passwordHash FROM users LIMIT 1) AS x FROM demo1', 'the column "passwordHash" of "users"'],
    ["SELECT id FROM users WHERE substr(passwordHash, 1, 1) = '$'", 'the column "passwordHash" of "users"'],
    // answered from the unique index on tokenKey alone (a covering index read)
    ["SELECT id FROM users WHERE tokenKey > ''", 'the column "tokenKey" of "users"'],
    ['SELECT id FROM users ORDER BY tokenKey', 'the column "tokenKey" of "users"'],
    ['WITH a AS (SELECT * FROM _admins) SELECT id, email FROM a', 'the table "_admins"'],
    ['SELECT id, x FROM (SELECT id, passwordHash AS x FROM clients)', 'the column "passwordHash" of "clients"'],
    ['SELECT d.id FROM demo1 d JOIN _admins a ON a.id = d.id', 'the table "_admins"'],
  ];

  it.each(refused)('refuses %s naming %s', async (query, what) => {
    const res = await createView('secret_view', query);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toBe('Failed to create the collection.');
    expect(res.body.data.options.query.code).toBe('validation_invalid_view_query');
    expect(res.body.data.options.query.message).toContain(`may not read ${what}`);
  });

  it('accepts views over public columns, also of auth collections and other views', async () => {
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
    expect(upd.body.data.options.query.message).toContain('may not read the column "tokenKey" of "users"');
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
      body: { name: 'leak', type: 'view', listRule: '', viewRule: '', options: { query: 'SELECT id, email FROM _admins' } },
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
        '[views] the view collection "leak" is refused and not served: the view may not read the table "_admins"',
      );
      const base = await app.listen('127.0.0.1', 0);
      const list = await http(base, 'GET', '/api/collections/leak/records');
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ code: 400, message: 'This view collection is not served: the view may not read the table "_admins".', data: {} });
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
