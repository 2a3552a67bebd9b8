// A copy of PocketBase 0.22.12's own test pb_data opens unchanged, and a new data dir gets the
// same layout PocketBase would create.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, FIXTURE_PASSWORD, http, startServer, tempDir, type TestServer } from '../helpers/server';

// Pre-signed tokens from the fixture README (valid until 2039).
const ADMIN_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MjIwODk4NTI2MX0.M1m--VOqGyv0d23eeUc0r9xE8ZzHaYVmVFw1VZW6gT8';
const USER_TOKEN =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';
// Same claims as ADMIN_TOKEN but already expired (from PocketBase's own tests).
const EXPIRED_ADMIN_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsInR5cGUiOiJhZG1pbiIsImV4cCI6MTY0MDk5MTY2MX0.I7w8iktkleQvC7_UIRpD7rNzcU4OnF7i7SFIUu6lD_4';

type MasterRow = { type: string; name: string; tbl_name: string; sql: string | null };

function readDb<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const masterOf = (file: string) =>
  readDb(file, (db) => db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as MasterRow[]);

/** A private copy of the fixture's data.db (never opened in place), to compare against. */
let referenceDb: string;

beforeAll(() => {
  const dir = tempDir('outpost-fixture-ref-');
  fs.cpSync(FIXTURE_DIR, path.join(dir, 'pb_data'), { recursive: true });
  referenceDb = path.join(dir, 'pb_data', 'data.db');
});

afterAll(() => {
  fs.rmSync(path.dirname(path.dirname(referenceDb)), { recursive: true, force: true });
});

describe('a copy of the 0.22.12 fixture', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer({ fixture: true });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('lets the fixture admin sign in with its password', async () => {
    const auth = await srv.client().admins.authWithPassword('test@example.com', FIXTURE_PASSWORD);
    expect(auth.admin.id).toBe('sywbhecnh46rhm0');
    expect((await http(srv.url, 'GET', '/api/admins', { token: auth.token })).status).toBe(200);
    // The other two fixture admins (bcrypt $2a$13$ hashes) verify too.
    for (const email of ['test2@example.com', 'test3@example.com']) {
      const res = await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password: FIXTURE_PASSWORD } });
      expect(res.status, email).toBe(200);
    }
  });

  it('accepts the pre-signed admin token, with or without "Bearer "', async () => {
    for (const token of [ADMIN_TOKEN, `Bearer ${ADMIN_TOKEN}`]) {
      const res = await http(srv.url, 'GET', '/api/admins', { token });
      expect(res.status).toBe(200);
      expect(res.body.totalItems).toBe(3);
      expect(res.body.items.map((a: { id: string }) => a.id).sort()).toEqual(['9q2trqumvlyr3bd', 'sbmbsdb40jyxf7h', 'sywbhecnh46rhm0']);
      expect(JSON.stringify(res.body)).not.toMatch(/tokenKey|passwordHash/);
    }
    const view = await http(srv.url, 'GET', '/api/admins/sbmbsdb40jyxf7h', { token: ADMIN_TOKEN });
    expect(view.body).toEqual({
      id: 'sbmbsdb40jyxf7h',
      created: '2022-10-10 11:22:27.982Z',
      updated: '2022-10-10 11:22:31.096Z',
      avatar: 2,
      email: 'test2@example.com',
    });
  });

  it('refuses the expired admin token and the users token on admin routes', async () => {
    expect((await http(srv.url, 'GET', '/api/admins', { token: EXPIRED_ADMIN_TOKEN })).status).toBe(401);
    expect((await http(srv.url, 'POST', '/api/admins/auth-refresh', { token: USER_TOKEN })).status).toBe(401);
  });

  it('resolves the pre-signed users token to its auth record', async () => {
    const { resolveAuthToken } = await import('../../server/http/auth');
    const auth = resolveAuthToken(srv.app.ctx, srv.app.ctx.settings.get(), USER_TOKEN);
    expect(auth.kind).toBe('authRecord');
    expect(auth.collectionId).toBe('_pb_users_auth_');
    expect(auth.record).toMatchObject({ id: '4q1xlclmfloku33', email: 'test@example.com' });
    expect(auth.record).not.toHaveProperty('passwordHash');
  });

  it('returns the fixture settings redacted', async () => {
    const res = await http(srv.url, 'GET', '/api/settings', { token: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body.meta.appName).toBe('acme_test');
    expect(res.body.gitlabAuth).toMatchObject({ enabled: true, clientId: 'test_id', clientSecret: '******', authUrl: 'https://example.com' });
    expect(res.body.googleAuth.clientSecret).toBe('');
    expect(res.body.adminAuthToken).toEqual({ secret: '******', duration: 1209600 });
    expect(res.body.adminFileToken.duration).toBe(180);
    // Keys the stored row lacks come from the defaults.
    expect(res.body.backups).toMatchObject({ cron: '', cronMaxKeep: 3 });
    expect(res.body.logs).toEqual({ maxDays: 5, minLevel: 0, logIp: true });
    expect(JSON.stringify(res.body)).not.toMatch(/test_secret|MyN3nDlzmHnuCjd35vb6cyIdqNr7Os0PmgiPVDMxmbFToSpBvS/);
  });

  it('changed no table DDL, migration or settings row by opening it', async () => {
    const file = path.join(srv.dataDir, 'data.db');
    expect(masterOf(file)).toEqual(masterOf(referenceDb));
    const rows = (f: string) =>
      readDb(f, (db) => ({
        migrations: db.prepare('SELECT * FROM _migrations ORDER BY file').all(),
        params: db.prepare('SELECT * FROM _params ORDER BY id').all(),
        collections: db.prepare('SELECT * FROM _collections ORDER BY id').all(),
      }));
    expect(rows(file)).toEqual(rows(referenceDb));
  });
});

describe('a new data dir', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(async () => {
    await srv?.close();
  });

  const file = () => path.join(srv.dataDir, 'data.db');

  it('has the system tables with the same DDL as a 0.22 data.db', () => {
    const fresh = new Map(masterOf(file()).map((r) => [r.name, r]));
    const reference = masterOf(referenceDb);
    const system = ['_migrations', '_admins', '_collections', '_params', '_externalAuths'];
    for (const row of reference.filter((r) => system.includes(r.tbl_name))) {
      expect(fresh.get(row.name), row.name).toEqual(row);
    }
  });

  it('marks the 13 Go app migrations of 0.22.12 as applied', () => {
    const applied = readDb(file(), (db) => db.prepare('SELECT file FROM _migrations ORDER BY file').all() as { file: string }[]);
    const expected = readDb(
      referenceDb,
      (db) => db.prepare("SELECT file FROM _migrations WHERE file LIKE '%.go' AND file != '1691747912_resave_views.go' ORDER BY file").all() as {
        file: string;
      }[],
    );
    expect(applied).toHaveLength(13);
    expect(applied).toEqual(expected);
  });

  it('has the default users auth collection and table', () => {
    const collection = readDb(file(), (db) => db.prepare("SELECT * FROM _collections WHERE id = '_pb_users_auth_'").get()) as Record<string, unknown>;
    expect(collection).toMatchObject({
      name: 'users',
      type: 'auth',
      system: 0,
      listRule: 'id = @request.auth.id',
      viewRule: 'id = @request.auth.id',
      createRule: '',
      updateRule: 'id = @request.auth.id',
      deleteRule: 'id = @request.auth.id',
      indexes: '[]',
    });
    const schema = JSON.parse(String(collection.schema));
    expect(schema.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(['name:text', 'avatar:file']);
    expect(JSON.parse(String(collection.options))).toMatchObject({
      allowEmailAuth: true,
      allowOAuth2Auth: true,
      allowUsernameAuth: true,
      minPasswordLength: 8,
      requireEmail: false,
      onlyVerified: false,
    });

    // The fixture's users table minus the two fields its tests added (file, rel).
    const ref = masterOf(referenceDb).filter((r) => r.tbl_name === 'users' && !r.name.endsWith('_created_idx'));
    const refUsers = ref.map((r) =>
      r.type === 'table' ? { ...r, sql: r.sql!.replace(', "file" TEXT DEFAULT \'\', "rel" TEXT DEFAULT \'\'', '') } : r,
    );
    const freshUsers = masterOf(file()).filter((r) => r.tbl_name === 'users');
    expect(freshUsers).toEqual(refUsers);
  });

  it('stores default settings with persistent random token secrets, and stays put on reopen', async () => {
    const stored = readDb(file(), (db) => db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string });
    const parsed = JSON.parse(stored.value);
    expect(parsed.adminAuthToken.secret).toMatch(/^[A-Za-z0-9]{50}$/);
    expect(parsed.meta.appName).toBe('Acme');

    const { initDataLayout } = await import('../../server/db/layout');
    const before = masterOf(file());
    initDataLayout(srv.app.db);
    expect(masterOf(file())).toEqual(before);
    expect(readDb(file(), (db) => (db.prepare('SELECT count(*) AS n FROM _migrations').get() as { n: number }).n)).toBe(13);
  });
});
