// Issue 33: real projects' pb_migrations apply as PocketBase 0.22 applies them. Our minimal
// reproductions of what public projects do (tests/helpers/pb022-compat-migrations.ts: JSON fields
// without maxSize, forward references, rules through fields added later, relations moved, short
// ids, double-quoted strings in view queries and raw SQL, a view that fails only when read, seed
// files sharing a timestamp, probing finders in try/catch) run with `outpost migrate up` on a copy
// of the 0.22 fixture, then `serve` starts twice on the result (the built server in the
// 'server-built' project). And the collections API, where it is 0.22's form, stays exactly as
// strict as 0.22's form: no stricter (any @request.auth path, minPasswordLength 5, double-quoted
// strings in a view query), no laxer (ids of 15 characters, a JSON field's maxSize, relations to
// existing collections).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';
import { IDS, PROJECT } from '../helpers/pb022-compat-migrations';

const work = tempDir('outpost-pb022-compat-');
const dataDir = path.join(work, 'pb_data');
const migrations = path.join(work, 'pb_migrations');
let srv: ServerProcess | null = null;

const api = (method: string, p: string, body?: unknown) => http(srv!.url, method, p, { token: FIXTURE_ADMIN_TOKEN, body });
const appliedFiles = () => {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    return (db.prepare("SELECT file FROM _migrations WHERE file LIKE '%.js' ORDER BY rowid").all() as Array<{ file: string }>).map((r) => r.file);
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  for (const f of ['data.db', 'logs.db']) fs.chmodSync(path.join(dataDir, f), 0o644);
  fs.mkdirSync(migrations);
  for (const [name, text] of Object.entries(PROJECT)) fs.writeFileSync(path.join(migrations, name), text);
});

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a project folder 0.22 applies', () => {
  it('migrate up applies every file, in name order', async () => {
    const res = await runCli(['migrate', 'up', `--dir=${dataDir}`], work);
    expect(res.stderr, res.stdout).not.toMatch(/Error/);
    const names = Object.keys(PROJECT).sort();
    for (const name of names) expect(res.stdout).toContain(`Applied ${name}`);
    expect(appliedFiles().filter((f) => names.includes(f))).toEqual(names);
    expect(res.stdout).toContain('expand skipped');
  });

  for (const start of ['first', 'second']) {
    it(`serve (${start} start): the schema the files describe, nothing applied again`, async () => {
      srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
      try {
        expect(srv.output()).not.toMatch(/Applied|Error/);
        const posts = (await api('GET', '/api/collections/posts')).body;
        expect(posts.id).toBe(IDS.posts);
        const fields = Object.fromEntries(posts.schema.map((f: { name: string }) => [f.name, f]));
        expect(Object.keys(fields)).toEqual(['title', 'data', 'tags', 'owner', 'status']);
        expect(fields.data.options).toEqual({ maxSize: 2000000 });
        expect(fields.tags.options.collectionId).toBe(IDS.tags);
        expect(fields.owner.options.collectionId).toBe(IDS.members);
        expect(fields.title.id).toBe('t1');
        expect(posts.listRule).toBe('@request.auth.id != ""');
        expect(posts.viewRule).toBe('status = "published"');
        expect((await api('GET', '/api/collections/members')).body.options.minPasswordLength).toBe(5);

        // the seed files ran in name order; the raw SQL's "renamed" was a string
        const list = (await api('GET', '/api/collections/posts/records')).body;
        expect(list.items.map((r: { title: string }) => r.title)).toEqual(['renamed']);
        const ann = (await api('GET', '/api/collections/members/records?filter=' + encodeURIComponent('email = "ann@example.com"'))).body.items[0];
        expect(list.items[0].owner).toBe(ann.id);
        const signIn = await http(srv.url, 'POST', '/api/collections/members/auth-with-password', { body: { identity: 'ann@example.com', password: '12345' } });
        expect(signIn.status).toBe(200);

        // a rule through @request.auth.*: the new rule answers, the view over "published" too
        expect((await http(srv.url, 'GET', '/api/collections/posts/records', { token: signIn.body.token })).body.totalItems).toBe(1);
        const published = await api('GET', '/api/collections/published/records');
        expect(published.status).toBe(200);
        expect(published.body.items.map((r: { title: string }) => r.title)).toEqual(['renamed']);

        // a view 0.22 saved that fails when read: a 400 in 0.22's envelope, never a 500
        const stats = await api('GET', '/api/collections/stats/records');
        expect(stats.status).toBe(400);
        expect(stats.body).toMatchObject({ code: 400, message: expect.any(String), data: {} });

        // a view reading token keys: saved as 0.22 saves it, never served
        const keys = await api('GET', '/api/collections/user_keys/records');
        expect(keys.status).toBe(400);
        expect(keys.body.message).toMatch(/^This view collection is not served: .*tokenKey/);

        // maxSize 0 kept as 0.22 keeps it: its record validator refuses any value, an empty one passes
        const refused = await api('POST', '/api/collections/legacy/records', { name: 'x', meta: { a: 1 } });
        expect(refused.status).toBe(400);
        expect(refused.body.data.meta).toEqual({ code: 'validation_json_size_limit', message: 'The maximum allowed JSON size is 0 bytes.' });
        expect((await api('POST', '/api/collections/legacy/records', { name: 'x' })).status).toBe(200);
      } finally {
        await srv.stop();
        srv = null;
      }
    });
  }
});

describe('the collections API: as strict as 0.22\'s form, no more, no less', () => {
  beforeAll(async () => {
    srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  });
  afterAll(async () => {
    await srv?.stop();
    srv = null;
  });

  const text = (name: string) => ({ name, type: 'text' });

  it('accepts what 0.22 accepts: any @request.auth path, minPasswordLength 5, "strings" in a view query', async () => {
    const rules = await api('POST', '/api/collections', { name: 'notes', type: 'base', schema: [text('body')], listRule: '@request.auth.nickname = "x" && @request.auth.team.owner.id != ""' });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const auth = await api('POST', '/api/collections', { name: 'staff', type: 'auth', schema: [], options: { minPasswordLength: 5 } });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const view = await api('POST', '/api/collections', { name: 'visible_notes', type: 'view', options: { query: 'SELECT id, body FROM notes WHERE body != "hidden"' } });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.options.query).toBe('SELECT id, body FROM notes WHERE body != "hidden"');
    await api('POST', '/api/collections/notes/records', { body: 'shown' });
    await api('POST', '/api/collections/notes/records', { body: 'hidden' });
    const rows = await api('GET', '/api/collections/visible_notes/records');
    expect(rows.body.items.map((r: { body: string }) => r.body)).toEqual(['shown']);
  });

  it('refuses what 0.22\'s form refuses: short ids, minPasswordLength 4, a JSON field without maxSize, a relation to nothing', async () => {
    const id = await api('POST', '/api/collections', { id: 'short', name: 'short_id', type: 'base', schema: [text('a')] });
    expect(id.body.data.id).toEqual({ code: 'validation_length_invalid', message: 'The length must be exactly 15.' });
    const min = await api('POST', '/api/collections', { name: 'staff2', type: 'auth', schema: [], options: { minPasswordLength: 4 } });
    expect(min.body.data.options.minPasswordLength).toEqual({ code: 'validation_min_greater_equal_than_required', message: 'Must be no less than 5.' });
    const size = await api('POST', '/api/collections', { name: 'no_size', type: 'base', schema: [{ name: 'meta', type: 'json', options: {} }] });
    expect(size.status).toBe(400);
    expect(size.body.data.schema['0'].options.maxSize.code).toBe('validation_required');
    const rel = await api('POST', '/api/collections', { name: 'dangling', type: 'base', schema: [{ name: 'r', type: 'relation', options: { collectionId: 'nothing00000000', maxSelect: 1 } }] });
    expect(rel.status).toBe(400);
    expect(rel.body.data.schema['0'].options.collectionId.code).toBe('validation_field_invalid_relation');
  });
});
