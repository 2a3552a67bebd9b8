// pb_migrations as PocketBase 0.22 writes and runs them: files in 0.22's template format applied at
// start on a copy of the 0.22 fixture and on an empty pb_data (the schema, records, settings and
// admin they make seen through the API; `_migrations` rows as 0.22 records them; a file the
// fixture already lists is not run again), and bad input (a throw, an unsupported call left
// uncaught, a syntax error, a runaway loop): each refused
// with a message naming the file, and pb_data left exactly as it was.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { FIXTURE_DIR, http, startServer, tempDir, type TestServer } from '../helpers/server';
import { CREATED_POSTS, CREATED_TMP, DELETED_TMP, POSTS_ID, SEED, SNAPSHOT, UPDATED_POSTS } from '../helpers/pb022-migrations';
import { CREATED_MEMBERS, CREATED_NICKS_VIEW, SEED_PEOPLE, UPDATED_MEMBERS } from '../helpers/pb022-migrations-auth';

const SET: Record<string, string> = {
  '1714557601_created_posts.js': CREATED_POSTS,
  '1714557602_updated_posts.js': UPDATED_POSTS,
  '1714557603_created_tmp.js': CREATED_TMP,
  '1714557604_deleted_tmp.js': DELETED_TMP,
  '1714557605_seed.js': SEED,
};

let srv: TestServer | null = null;
afterEach(async () => {
  await srv?.close();
  srv = null;
});

/** The temp folders this file made (migrations, fixture copies). */
const made: string[] = [];
const scratch = (prefix: string): string => {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function migrationsDir(files: Record<string, string>): string {
  const dir = path.join(scratch('outpost-mig-'), 'pb_migrations');
  fs.mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function fixtureCopy(): string {
  const dataDir = path.join(scratch('outpost-mig-data-'), 'pb_data');
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  for (const f of ['data.db', 'logs.db']) fs.chmodSync(path.join(dataDir, f), 0o644);
  return dataDir;
}

/** What a failed run must leave unchanged: every table's schema and the system tables' rows. */
function state(dataDir: string): string {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    const read = (sql: string) => db.prepare(sql).all();
    return JSON.stringify({
      master: read('SELECT type, name, sql FROM sqlite_master ORDER BY name'),
      collections: read('SELECT * FROM _collections ORDER BY id'),
      migrations: read('SELECT * FROM _migrations ORDER BY file'),
      admins: read('SELECT id, email FROM _admins ORDER BY id'),
      params: read('SELECT * FROM _params ORDER BY id'),
    });
  } finally {
    db.close();
  }
}

function migrationRows(dataDir: string): Array<{ file: string; applied: number }> {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    return db.prepare('SELECT file, applied FROM _migrations ORDER BY file').all() as Array<{ file: string; applied: number }>;
  } finally {
    db.close();
  }
}

async function adminToken(url: string, email: string, password: string): Promise<string> {
  const res = await http(url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** The migrated project seen through the API, as the files describe it. */
async function expectMigratedProject(s: TestServer): Promise<void> {
  // the admin the seed file saved can sign in
  const token = await adminToken(s.url, 'migrated@example.com', 'migrated-pass-123');
  const posts = await http(s.url, 'GET', '/api/collections/posts', { token });
  expect(posts.status).toBe(200);
  expect(posts.body.id).toBe(POSTS_ID);
  expect(posts.body.listRule).toBe('');
  expect(posts.body.viewRule).toBe('title != ""');
  expect(posts.body.indexes).toEqual(['CREATE INDEX `idx_posts_title` ON `posts` (`title`)']);
  expect(posts.body.schema.map((f: { name: string }) => f.name)).toEqual(['title', 'author', 'views']);
  const title = posts.body.schema[0];
  expect(title).toMatchObject({ id: 'f1title0', presentable: true, required: true, options: { min: null, max: 300, pattern: '' } });
  expect(posts.body.schema[2]).toMatchObject({ id: 'f3views0', type: 'number', options: { noDecimal: true } });
  expect((await http(s.url, 'GET', '/api/collections/tmp', { token })).status).toBe(404);

  const list = await http(s.url, 'GET', '/api/collections/posts/records');
  expect(list.status).toBe(200);
  expect(list.body.items).toHaveLength(1);
  expect(list.body.items[0]).toMatchObject({ title: 'Hello from a migration', views: 8, author: '' });

  const settings = await http(s.url, 'GET', '/api/settings', { token });
  expect(settings.body.meta.appName).toBe('Migrated app');
}

const CASCADE = (required: boolean) => `migrate((db) => {
  const dao = new Dao(db)
  dao.saveCollection(new Collection({ id: "authors00000001", name: "authors", type: "base", schema: [{ name: "name", type: "text" }] }))
  dao.saveCollection(new Collection({ name: "books", type: "base", listRule: "", schema: [
    { name: "title", type: "text" },
    { name: "author", type: "relation", required: ${required}, options: { collectionId: "authors00000001", cascadeDelete: ${!required}, maxSelect: 1 } },
  ] }))
  const author = new Record(dao.findCollectionByNameOrId("authors"))
  author.set("name", "Ann")
  dao.saveRecord(author)
  const book = new Record(dao.findCollectionByNameOrId("books"))
  book.set("title", "First")
  book.set("author", author.id)
  dao.saveRecord(book)
  dao.deleteRecord(author)
}, (db) => {})
`;

describe('0.22 migration files', () => {
  it('run on a copy of the 0.22 fixture, recorded as 0.22 records them, and the applied ones are not run again', async () => {
    // the fixture lists 1691746861_created_view3.js as applied: a file of that name must not run
    const dir = migrationsDir({ ...SET, '1691746861_created_view3.js': 'migrate(() => { throw new Error("ran twice"); });' });
    const before = migrationRows(FIXTURE_DIR);
    srv = await startServer({ fixture: true, options: { migrationsDir: dir } });
    await expectMigratedProject(srv);
    await srv.app.close();

    const rows = migrationRows(srv.dataDir);
    for (const row of before) expect(rows).toContainEqual(row);
    const added = rows.filter((r) => !before.some((b) => b.file === r.file));
    expect(added.map((r) => r.file)).toEqual(Object.keys(SET));
    // microseconds, increasing in file order
    for (const r of added) expect(String(r.applied)).toMatch(/^\d{16}$/);
    expect([...added.map((r) => r.applied)].sort()).toEqual(added.map((r) => r.applied));

    // a second start applies nothing
    const again = await createApp({ dataDir: srv.dataDir, migrationsDir: dir });
    await again.close();
    expect(migrationRows(srv.dataDir)).toEqual(rows);
  });

  it('run on an empty pb_data', async () => {
    srv = await startServer({ options: { migrationsDir: migrationsDir(SET) } });
    await expectMigratedProject(srv);
  });

  it("Dao.deleteRecord deletes as the API does: a cascading relation's records go too", async () => {
    srv = await startServer({ options: { migrationsDir: migrationsDir({ '1714557601_cascade.js': CASCADE(false) }) } });
    const books = await http(srv.url, 'GET', '/api/collections/books/records');
    expect(books.status).toBe(200);
    expect(books.body.totalItems).toBe(0);
  });

  it('an auth collection, a view over it, a rename with new auth options, DynamicModel queries', async () => {
    srv = await startServer({
      options: {
        migrationsDir: migrationsDir({
          '1714557610_created_members.js': CREATED_MEMBERS,
          '1714557611_created_nicks.js': CREATED_NICKS_VIEW,
          '1714557612_updated_members.js': UPDATED_MEMBERS,
          '1714557613_seed_people.js': SEED_PEOPLE,
        }),
      },
    });
    const { db } = srv.app;
    const rows = db.prepare("SELECT name, type, options FROM _collections WHERE name IN ('people', 'nicks', 'members') ORDER BY name").all() as Array<{ name: string; type: string; options: string }>;
    expect(rows.map((r) => [r.name, r.type])).toEqual([
      ['nicks', 'view'],
      ['people', 'auth'],
    ]);
    expect(JSON.parse(rows[1].options)).toMatchObject({ allowOAuth2Auth: false, minPasswordLength: 10, requireEmail: true });
    // the view follows the rename; the seed's record was deleted again by the same migration
    expect(JSON.parse(rows[0].options).query).toBe('SELECT id, nick FROM "people"');
    const methods = await http(srv.url, 'GET', '/api/collections/people/auth-methods');
    expect(methods.body).toMatchObject({ usernamePassword: true, emailPassword: true, authProviders: [] });
    expect(db.prepare('SELECT count(*) AS n FROM people').get()).toEqual({ n: 0 });
  });

  it('files 0.22 automigrate wrote within one second run in name order', async () => {
    srv = await startServer({
      options: { migrationsDir: migrationsDir({ '1714557601_created_posts.js': CREATED_POSTS, '1714557601_created_tmp.js': CREATED_TMP, '1714557601_deleted_tmp.js': DELETED_TMP }) },
    });
    const names = srv.app.db.prepare("SELECT name FROM _collections WHERE name IN ('posts', 'tmp')").all();
    expect(names).toEqual([{ name: 'posts' }]);
  });

  it("a collections snapshot (importCollections with deleteMissing) on an empty pb_data", async () => {
    srv = await startServer({ options: { migrationsDir: migrationsDir({ '1714557600_collections_snapshot.js': SNAPSHOT }) } });
    const direct = srv.app.db.prepare('SELECT name, listRule FROM _collections ORDER BY name').all();
    expect(direct).toEqual([
      { name: 'notes', listRule: 'owner = @request.auth.id' },
      { name: 'users', listRule: 'id = @request.auth.id' },
    ]);
    // the users avatar field, missing from the snapshot, is gone (deleteMissing)
    const users = srv.app.db.prepare("SELECT name FROM pragma_table_info('users')").all().map((r) => (r as { name: string }).name);
    expect(users).toContain('name');
    expect(users).not.toContain('avatar');
    const notes = srv.app.db.prepare("SELECT name FROM pragma_table_info('notes')").all().map((r) => (r as { name: string }).name);
    expect(notes).toEqual(expect.arrayContaining(['body', 'owner']));
  });
});

describe('bad input leaves pb_data as it was', () => {
  async function refused(files: Record<string, string>): Promise<{ message: string; dataDir: string }> {
    const dataDir = fixtureCopy();
    const before = state(dataDir);
    let message = '';
    try {
      const app = await createApp({ dataDir, migrationsDir: migrationsDir(files) });
      await app.close();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message, 'the start must fail').not.toBe('');
    expect(state(dataDir)).toBe(before);
    return { message, dataDir };
  }

  it('a migration that throws rolls back the whole run', async () => {
    const { message } = await refused({
      '1714557601_created_posts.js': CREATED_POSTS,
      '1714557602_boom.js': 'migrate((db) => { throw new Error("boom"); }, (db) => {});',
    });
    expect(message).toBe('Failed to apply migration 1714557602_boom.js: boom (1714557602_boom.js:1)');
  });

  it('settings, an admin and records saved before the throw are rolled back too', async () => {
    const { message } = await refused({
      '1714557601_created_posts.js': CREATED_POSTS,
      '1714557602_half.js': `migrate((db) => {
  const dao = new Dao(db);
  const settings = dao.findSettings();
  settings.meta.appName = "Half done";
  dao.saveSettings(settings);
  const admin = new Admin();
  admin.email = "half@example.com";
  admin.setPassword("half-password-1");
  dao.saveAdmin(admin);
  dao.saveRecord(new Record(dao.findCollectionByNameOrId("posts"), { title: "kept?" }));
  throw new Error("after the writes");
});`,
    });
    expect(message).toBe('Failed to apply migration 1714557602_half.js: after the writes (1714557602_half.js:11)');
  });

  it('an unsupported call that the file does not catch fails the migration, naming the call', async () => {
    const { message } = await refused({
      '1714557601_created_posts.js': CREATED_POSTS,
      '1714557602_expand.js': `migrate((db) => {
  const dao = new Dao(db);
  dao.expandRecord(null, ["author"], null);
});`,
    });
    expect(message).toMatch(/^Failed to apply migration 1714557602_expand\.js: Dao\.expandRecord\(\) is not supported by Outpost's JS migrations/);
  });

  it('an invalid collection fails with the API validation message', async () => {
    const { message } = await refused({
      '1714557601_bad.js': 'migrate((db) => { Dao(db).saveCollection(new Collection({ name: "bad name!", type: "base" })); });',
    });
    expect(message).toMatch(/^Failed to apply migration 1714557601_bad\.js: saveCollection\("bad name!"\): Failed to create the collection\. \{"name":\{"code":"validation_/);
  });

  it('Dao.deleteRecord of a record a required relation needs', async () => {
    const { message } = await refused({ '1714557601_required.js': CASCADE(true) });
    expect(message).toContain('Failed to delete record. Make sure that the record is not part of a required relation reference.');
  });

  it('a syntax error in any file', async () => {
    const { message } = await refused({
      '1714557601_created_posts.js': CREATED_POSTS,
      '1714557602_broken.js': 'migrate((db) => {\n  const x = ;\n});',
    });
    expect(message).toMatch(/^failed to run migration 1714557602_broken\.js: SyntaxError: Unexpected token ';' \(1714557602_broken\.js:2\)$/);
  });

  it('a migration that runs past its time budget is stopped', async () => {
    process.env.OUTPOST_MIGRATION_TIMEOUT_MS = '300';
    try {
      const { message } = await refused({
        '1714557601_created_posts.js': CREATED_POSTS,
        '1714557602_forever.js': 'migrate((db) => { for (;;) {} });',
      });
      expect(message).toBe('Failed to apply migration 1714557602_forever.js: it ran longer than its budget of 300 ms');
    } finally {
      delete process.env.OUTPOST_MIGRATION_TIMEOUT_MS;
    }
  });
});
