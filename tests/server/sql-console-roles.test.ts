// The SQL console for an admin with a role (issues 36 and 37), against the built server: a role
// without the console's area gets 403; a role with it reads only the tables of collections whose
// records it lists, whatever hides the table (a join, a subquery, a CTE, a view, a plan), and only
// the pragmas that name such a collection or read no table. A full admin reads them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { fullAndScopedAdmins, giveNewRole } from '../helpers/roles';
import type { Area, CollectionGrant } from '../../src/lib/roles';

let srv: TestServer;
let full = '';
let scoped = '';
let scopedId = '';
const api = (method: string, url: string, token: string, body?: unknown) => http(srv.url, method, url, { token, body });

/** A new role given to the scoped admin; its id. */
const scopedRole = (areas: Area[], collections: CollectionGrant[]) => giveNewRole(srv.url, full, scopedId, areas, collections);

/** Runs a statement in the console: the status and, for a 200, the rows; else the error's code. */
async function run(token: string, sql: string): Promise<{ status: number; rows?: unknown[][]; code?: string; message?: string }> {
  const res = await fetch(`${srv.url}/api/outpost/sql`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ sql }) });
  const text = await res.text();
  if (res.status !== 200) {
    const body = JSON.parse(text) as { message: string; data: { sql?: { code: string } } };
    return { status: res.status, code: body.data.sql?.code, message: body.message };
  }
  const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { rows?: unknown[][]; error?: unknown });
  expect(lines.find((l) => l.error), sql).toBeUndefined();
  return { status: 200, rows: lines.flatMap((l) => l.rows ?? []) };
}

beforeAll(async () => {
  srv = await startServer();
  ({ full, scoped, scopedId } = await fullAndScopedAdmins(srv.url));
  expect((await api('POST', '/api/collections', full, { name: 'posts', schema: [{ name: 'title', type: 'text' }] })).status).toBe(200);
  expect((await api('POST', '/api/collections', full, { name: 'secret', schema: [{ name: 'code', type: 'text' }] })).status).toBe(200);
  const view = await api('POST', '/api/collections', full, { name: 'secret_view', type: 'view', options: { query: 'SELECT id, code FROM secret' } });
  expect(view.status, JSON.stringify(view.body)).toBe(200);
  await api('POST', '/api/collections/posts/records', full, { title: 'hello' });
  await api('POST', '/api/collections/secret/records', full, { code: 'xyzzy' });
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

describe('the SQL console for an admin with a role', () => {
  it('is refused (403) to a role without its area', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    expect((await run(scoped, 'SELECT 1')).status).toBe(403);
  });

  it('reads the collections the role reads, and nothing else however the table is reached', async () => {
    await scopedRole(['sqlConsole'], [{ collection: 'posts', read: true }]);
    expect(await run(scoped, 'SELECT title FROM posts')).toEqual({ status: 200, rows: [['hello']] });
    expect((await run(scoped, 'SELECT 1 + 1')).rows).toEqual([[2]]);
    expect((await run(scoped, 'EXPLAIN QUERY PLAN SELECT * FROM posts')).status).toBe(200);
    expect((await run(scoped, 'PRAGMA table_info(posts)')).status).toBe(200);
    expect((await run(scoped, 'PRAGMA user_version')).status).toBe(200);
    for (const sql of [
      'SELECT code FROM secret',
      'SELECT * FROM secret_view',
      'SELECT p.title, (SELECT code FROM secret) FROM posts p',
      'WITH s AS (SELECT code FROM secret) SELECT * FROM posts, s',
      'SELECT title FROM posts UNION SELECT code FROM secret',
      'EXPLAIN QUERY PLAN SELECT * FROM secret',
      'SELECT id, email FROM _admins',
      'SELECT * FROM _outpostRoles',
      'SELECT name FROM sqlite_schema',
      'SELECT id FROM users',
      'PRAGMA table_info(secret)',
      'PRAGMA index_list("_admins")',
      'PRAGMA table_list',
      'PRAGMA integrity_check',
    ]) {
      const res = await run(scoped, sql);
      expect(res.status, sql).toBe(400);
      expect(res.code, sql).toBe('sql_role');
    }
    expect((await run(scoped, 'SELECT code FROM secret')).message).toBe('Your role may not read "secret": the console reads only the collections whose records your role lists.');
  });

  it("a role reading every collection ('*') still reads no system table; a full admin reads them", async () => {
    await scopedRole(['sqlConsole'], [{ collection: '*', read: true }]);
    expect((await run(scoped, 'SELECT code FROM secret')).rows).toEqual([['xyzzy']]);
    expect((await run(scoped, 'SELECT code FROM secret_view')).rows).toEqual([['xyzzy']]);
    expect((await run(scoped, 'SELECT id, email FROM _admins')).code).toBe('sql_role');
    expect((await run(full, 'SELECT email FROM _admins ORDER BY email')).rows).toEqual([['full@example.com'], ['scoped@example.com']]);
    expect((await run(full, 'SELECT code FROM secret')).rows).toEqual([['xyzzy']]);
  });
});
