// Set-up shared by the /api/collections tests (tests/server/collections-*.test.ts): one real server
// on a fresh data dir per test file (`srv`, a live binding) with an admin signed in (`token`), and
// readers of what the schema changes did to the database.
import { afterAll, beforeAll, expect } from 'vitest';
import { http, startServer, type TestServer } from './server';

export let srv: TestServer;
export let token: string;

export const api = (method: string, path: string, body?: unknown) => http(srv.url, method, path, { token, body });
export const db = () => srv.app.db;
export const tableSql = (name: string) =>
  (db().prepare("SELECT sql FROM sqlite_master WHERE name = ? COLLATE NOCASE").get(name) as { sql: string } | undefined)?.sql;
export const columns = (table: string) => (db().prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table) as { name: string; type: string }[]).map((c) => c.name);
/** Everything that could change: the schema objects and the collection rows. */
export const snapshot = () => ({
  master: db().prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all(),
  collections: db().prepare('SELECT * FROM _collections ORDER BY id').all(),
});

/** Starts `srv` with a new admin signed in (`token`) before the file's tests, stops it after. */
export function withAdminServer() {
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
}
