// Automigrate round trip: collection changes made through the API write the JS files 0.22's
// migratecmd writes (names, template, `_migrations` rows, the X-Outpost-Migration header), and
// `outpost migrate up` on a fresh pb_data with those files gives the same collections through the API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { http, startServer, tempDir, type TestServer } from '../helpers/server';
import { runCli } from '../helpers/cli';

let srv: TestServer;
let token = '';
let dir = '';

const api = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token, body });

beforeAll(async () => {
  dir = path.join(tempDir('outpost-auto-'), 'pb_migrations');
  srv = await startServer({ options: { migrationsDir: dir, automigrate: true } });
  const body = { email: 'admin@example.com', password: '1234567890', passwordConfirm: '1234567890' };
  expect((await http(srv.url, 'POST', '/api/admins', { body })).status).toBe(200);
  token = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: body.email, password: body.password } })).body.token;
});

afterAll(async () => {
  await srv?.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

const files = () => fs.readdirSync(dir).sort();
const header = (res: { headers: Headers }) => res.headers.get('x-outpost-migration');
const applied = () => (srv.app.db.prepare("SELECT file, applied FROM _migrations WHERE file LIKE '%.js' ORDER BY file").all() as Array<{ file: string; applied: number }>);

/** Collections as the API lists them, without the times a re-run sets anew. */
async function collectionsOf(url: string, auth: string) {
  const res = await http(url, 'GET', '/api/collections?perPage=200&sort=name', { token: auth });
  expect(res.status).toBe(200);
  return (res.body.items as Array<Record<string, unknown>>).map(({ created: _c, updated: _u, ...rest }) => rest);
}

describe('automigrate', () => {
  it('writes 0.22 create / update / delete / snapshot files and answers their names', async () => {
    const created = await api('POST', '/api/collections', {
      name: 'articles',
      type: 'base',
      schema: [
        { name: 'title', type: 'text', required: true, options: { max: 120 } },
        { name: 'author', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
      ],
      listRule: '',
      indexes: ['CREATE INDEX `idx_articles_title` ON `articles` (`title`)'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const first = header(created);
    expect(first).toMatch(/^\d{10}_created_articles\.js$/);
    expect(files()).toEqual([first]);
    expect(created.headers.get('access-control-expose-headers')).toContain('X-Outpost-Migration');

    // the file is 0.22's create template around the collection as the API answered it
    const text = fs.readFileSync(path.join(dir, first as string), 'utf8');
    const json = JSON.stringify(created.body, null, 2).split('\n').join('\n  ');
    expect(text).toBe(
      `/// <reference path="../pb_data/types.d.ts" />\nmigrate((db) => {\n  const collection = new Collection(${json});\n\n  return Dao(db).saveCollection(collection);\n}, (db) => {\n  const dao = new Dao(db);\n  const collection = dao.findCollectionByNameOrId(${JSON.stringify(created.body.id)});\n\n  return dao.deleteCollection(collection);\n})\n`,
    );

    const schema = created.body.schema as Array<Record<string, unknown>>;
    const updated = await api('PATCH', '/api/collections/articles', {
      viewRule: 'headline != ""',
      schema: [{ ...schema[0], name: 'headline' }, { name: 'views', type: 'number', options: { noDecimal: true } }],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const second = header(updated);
    expect(second).toMatch(/^\d{10}_updated_articles\.js$/);
    const diff = fs.readFileSync(path.join(dir, second as string), 'utf8');
    expect(diff).toContain(`  const collection = dao.findCollectionByNameOrId(${JSON.stringify(created.body.id)})\n\n  collection.viewRule = "headline != \\"\\""\n`);
    expect(diff).toContain(`  // remove\n  collection.schema.removeField(${JSON.stringify(schema[1].id)})\n`);
    expect(diff).toContain('  // add\n  collection.schema.addField(new SchemaField({\n    "system": false,');
    expect(diff).toContain('  // update\n  collection.schema.addField(new SchemaField({');

    // a save that changes nothing 0.22 compares writes nothing
    const same = await api('PATCH', '/api/collections/articles', {});
    expect(same.status).toBe(200);
    expect(header(same)).toBeNull();

    const tmp = await api('POST', '/api/collections', { name: 'scratch', type: 'base', schema: [{ name: 'note', type: 'text' }] });
    expect(header(tmp)).toMatch(/_created_scratch\.js$/);
    const gone = await api('DELETE', '/api/collections/scratch');
    expect(gone.status).toBe(204);
    expect(header(gone)).toMatch(/^\d{10}_deleted_scratch\.js$/);

    const current = await api('GET', '/api/collections?perPage=200');
    const imported = await api('PUT', '/api/collections/import', {
      collections: [...current.body.items, { name: 'imported', type: 'base', schema: [{ name: 'label', type: 'text' }] }],
      deleteMissing: false,
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(204);
    expect(header(imported)).toMatch(/^\d{10}_collections_snapshot\.js$/);

    // every file recorded as applied (microseconds), names sorting in the order written
    const written = files();
    expect(written.map((f) => f.replace(/^\d+_/, ''))).toEqual([
      'created_articles.js',
      'updated_articles.js',
      'created_scratch.js',
      'deleted_scratch.js',
      'collections_snapshot.js',
    ]);
    expect(applied().map((r) => r.file)).toEqual(written);
    for (const r of applied()) expect(String(r.applied)).toMatch(/^\d{16}$/);

    // record writes under /api/collections/... write nothing
    const rec = await api('POST', '/api/collections/articles/records', { headline: 'x' });
    expect(rec.status).toBe(200);
    expect(header(rec)).toBeNull();
    expect(files()).toEqual(written);
  });

  it('GET /api/outpost/migrations lists them for admins only', async () => {
    const guest = await http(srv.url, 'GET', '/api/outpost/migrations');
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} });
    fs.writeFileSync(path.join(dir, '1999999999_pending.js'), 'migrate(() => {});\n');
    const res = await api('GET', '/api/outpost/migrations');
    expect(res.status).toBe(200);
    expect(res.body.dir).toBe(dir);
    expect(res.body.automigrate).toBe(true);
    const items = res.body.items as Array<{ file: string; applied: string | null; missing: boolean }>;
    expect(items.map((i) => i.file)).toEqual(files());
    expect(items.at(-1)).toEqual({ file: '1999999999_pending.js', applied: null, missing: false });
    for (const i of items.slice(0, -1)) expect(i.applied).toMatch(/^\d{4}-\d\d-\d\dT/);
    fs.rmSync(path.join(dir, '1999999999_pending.js'));
  });

  it('the files applied by `migrate up` to a fresh pb_data give the same collections', async () => {
    const work = tempDir('outpost-auto-fresh-');
    const dataDir = path.join(work, 'pb_data');
    const up = await runCli(['migrate', 'up', `--dir=${dataDir}`, `--migrationsDir=${dir}`], work);
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    for (const f of files()) expect(up.stdout).toContain(`Applied ${f}`);

    const fresh = await createApp({ dataDir, migrationsDir: dir });
    const url = await fresh.listen('127.0.0.1', 0);
    try {
      const body = { email: 'admin@example.com', password: '1234567890', passwordConfirm: '1234567890' };
      expect((await http(url, 'POST', '/api/admins', { body })).status).toBe(200);
      const freshToken = (await http(url, 'POST', '/api/admins/auth-with-password', { body: { identity: body.email, password: body.password } })).body.token;
      expect(await collectionsOf(url, freshToken)).toEqual(await collectionsOf(srv.url, token));
    } finally {
      await fresh.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
