// GET /api/outpost/backups/{key}/migrations and /api/outpost/backups/migrations on the built
// server (a project folder made from the 0.22.12 fixture, automigrate on): the pb_migrations files a
// backup's data.db has not applied are the ones 0.22's restore runs after its restart. A backup,
// then a collection created through the API (its `_created_` file): the backup lists that file; a
// restore runs it in the in-process restart and the collection is back; hostile keys and archives
// answer 400 in 0.22's envelope while /api/health keeps answering; a second start reads afresh; a
// backup on S3 is read by ranges.
import fs from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimHuge, claimSize, plainSqlite, USER1_AUTH } from '../helpers/backups';
import { buildServer, builtProject, createCollection, pendingOf, SEED_MIGRATION, type BuiltProject } from '../helpers/pending-migrations';
import { startS3, type TestS3 } from '../helpers/s3';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http } from '../helpers/server';
import { zipEntries } from '../helpers/zip';

let project: BuiltProject;
let created = '';

beforeAll(async () => {
  project = builtProject(buildServer('built-pending-migrations'));
  await project.start();
}, 120_000);

afterAll(() => project?.close());

const backupsDir = () => path.join(project.dataDir, 'backups');
const place = (key: string, bytes: Buffer) => fs.writeFileSync(path.join(backupsDir(), key), bytes);
const envelope = (message: RegExp | string) => ({ code: 400, message: typeof message === 'string' ? message : expect.stringMatching(message), data: {} });

/** A GET sent with its path exactly as written (fetch resolves dot segments). */
function rawGet(p: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(project.url);
    const req = request({ hostname, port, path: p, headers: { Authorization: FIXTURE_ADMIN_TOKEN } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The fixture's data.db with `sql` run on a copy. */
function fixtureDb(sql: string): Buffer {
  const dir = fs.mkdtempSync(path.join(project.dir, 'db-'));
  const file = path.join(dir, 'data.db');
  fs.copyFileSync(path.join(FIXTURE_DIR, 'data.db'), file);
  fs.chmodSync(file, 0o644);
  const db = new Database(file);
  db.exec(sql);
  db.pragma('journal_mode = DELETE');
  db.close();
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return bytes;
}

describe('pending migrations of a backup', () => {
  it('a backup made before a collection was created lists its _created_ file', async () => {
    expect((await project.api('POST', '/api/backups', { name: 'before.zip' })).status).toBe(204);
    const none = await pendingOf(project, 'before.zip');
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body).toEqual({ key: 'before.zip', count: 0, files: [] });

    created = await createCollection(project, 'posts');
    expect(created).toMatch(/^\d+_created_posts\.js$/);
    expect(fs.readdirSync(project.migrationsDir).sort()).toEqual([SEED_MIGRATION, created].sort());
    const one = await pendingOf(project, 'before.zip');
    expect(one.body).toEqual({ key: 'before.zip', count: 1, files: [created] });

    const counts = await project.api('GET', '/api/outpost/backups/migrations');
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ items: [{ key: 'before.zip', count: 1 }] });
  });

  it('answers a hostile key or archive with a 400 envelope, and /api/health keeps answering', async () => {
    const sqlite = fs.readFileSync(path.join(FIXTURE_DIR, 'data.db'));
    place('nodb.zip', await zipEntries([{ name: 'logs.db', data: sqlite }]));
    place('notsqlite.zip', await zipEntries([{ name: 'data.db', data: Buffer.from('not a database at all, but long enough') }]));
    place('foreign.zip', await zipEntries([{ name: 'data.db', data: plainSqlite() }]));
    place('nomigrations.zip', await zipEntries([{ name: 'data.db', data: fixtureDb('DROP TABLE _migrations') }]));
    place('huge.zip', claimHuge(await zipEntries([{ name: 'data.db', data: sqlite }]), 'data.db'));
    place('lying.zip', claimSize(await zipEntries([{ name: 'data.db', data: sqlite }]), 'data.db', 5_000_000));
    place('notzip.zip', Buffer.from('PK\u0003\u0004 but nothing else'));
    place('twice.zip', await zipEntries([{ name: 'data.db', data: sqlite }, { name: 'data.db', data: sqlite }]));
    place('link.zip', await zipEntries([{ name: 'data.db', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]));

    const expected: Record<string, RegExp | string> = {
      'nodb.zip': 'The backup has no data.db file at its root.',
      'notsqlite.zip': 'data.db is not an SQLite database.',
      'foreign.zip': 'data.db is not a PocketBase database (missing system tables).',
      'nomigrations.zip': 'data.db has no _migrations table, so it cannot tell which migrations it has applied.',
      'huge.zip': /^data\.db is too large to read here \(1907\.3 MB; the limit is 1024\.0 MB\)\.$/,
      'lying.zip': /^The entry "data\.db" cannot be read \(.+\)\.$/,
      'notzip.zip': /^Not a valid zip archive \(.+\)\.$/,
      'twice.zip': 'The entry "data.db" appears more than once.',
      'link.zip': '"data.db" is not a regular file.',
      'missing.zip': 'Missing or invalid backup file.',
      '../data.db': 'Missing or invalid backup file.',
      '.hidden.zip': 'Missing or invalid backup file.',
    };
    // every request at once, /api/health asked all along
    let done = false;
    const health: number[] = [];
    const poll = (async () => {
      while (!done) {
        const t0 = performance.now();
        expect((await http(project.url, 'GET', '/api/health')).status).toBe(200);
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const answers = await Promise.all(Object.keys(expected).map(async (key) => [key, await pendingOf(project, key)] as const));
    done = true;
    await poll;
    for (const [key, res] of answers) {
      expect(res.status, key).toBe(400);
      expect(res.body, key).toEqual(envelope(expected[key]));
    }
    expect(health.length).toBeGreaterThan(0);
    expect(Math.max(...health)).toBeLessThan(1000);

    // raw `..` segments (fetch would resolve them away), and no admin
    for (const segment of ['..', '%2e%2e', '.%2E']) {
      const raw = await rawGet(`/api/outpost/backups/${segment}/migrations`);
      expect(raw.status, segment).toBe(400);
      expect(raw.body, segment).toEqual(envelope('Missing or invalid backup file.'));
    }
    for (const token of [undefined, USER1_AUTH]) {
      for (const p of ['/api/outpost/backups/before.zip/migrations', '/api/outpost/backups/migrations']) {
        const res = await http(project.url, 'GET', p, { token });
        expect(res.status, p).toBe(401);
        expect(res.body).toEqual({ code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} });
      }
    }

    // the list: one count per backup, a message for those that cannot tell
    const counts = await project.api('GET', '/api/outpost/backups/migrations');
    expect(counts.status).toBe(200);
    const byKey = new Map((counts.body.items as Array<{ key: string; count: number | null; message?: string }>).map((i) => [i.key, i]));
    expect(byKey.get('before.zip')).toEqual({ key: 'before.zip', count: 1 });
    expect(byKey.get('nomigrations.zip')).toEqual({ key: 'nomigrations.zip', count: null, message: expected['nomigrations.zip'] });
    expect(byKey.get('huge.zip')?.count).toBeNull();
    expect(byKey.size).toBe(10);
    for (const f of fs.readdirSync(backupsDir())) if (f !== 'before.zip') fs.rmSync(path.join(backupsDir(), f));
    // nothing of the reads is left in the temp folder
    expect(fs.readdirSync(path.join(project.dataDir, '.pb_temp_to_delete')).filter((n) => n.startsWith('pb_peek_'))).toEqual([]);
  });

  it('a restore runs the pending file in the in-process restart: the collection is back, empty', async () => {
    const rec = await project.api('POST', '/api/collections/posts/records', { title: 'made after the backup' });
    expect(rec.status).toBe(200);
    const restore = await project.api('POST', '/api/backups/before.zip/restore');
    expect(restore.status).toBe(204);
    await project.server!.waitHealthy();
    await expect.poll(() => project.server!.output()).toContain(`Applied ${created}`);

    const posts = await project.api('GET', '/api/collections/posts');
    expect(posts.status).toBe(200);
    expect((await project.api('GET', '/api/collections/posts/records')).body.totalItems).toBe(0);
    const status = await project.api('GET', '/api/outpost/migrations');
    expect(status.body.items.find((i: { file: string }) => i.file === created)?.applied).not.toBeNull();

    // the backup itself has not changed: restoring it again would run the file again
    expect((await pendingOf(project, 'before.zip')).body).toEqual({ key: 'before.zip', count: 1, files: [created] });
    // a backup made now has it applied
    expect((await project.api('POST', '/api/backups', { name: 'after.zip' })).status).toBe(204);
    expect((await pendingOf(project, 'after.zip')).body).toEqual({ key: 'after.zip', count: 0, files: [] });
  });

  it('a second start on the same pb_data applies nothing again and reads the backups afresh', async () => {
    await project.stop();
    await project.start();
    expect(project.server!.output()).not.toContain('Applied');
    expect((await project.api('GET', '/api/collections/posts')).status).toBe(200);
    expect((await pendingOf(project, 'before.zip')).body.files).toEqual([created]);
    const counts = await project.api('GET', '/api/outpost/backups/migrations');
    expect(new Map(counts.body.items.map((i: { key: string; count: number }) => [i.key, i.count]))).toEqual(
      new Map([
        ['before.zip', 1],
        ['after.zip', 0],
      ]),
    );
  });
});

describe('a backup stored on S3', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3('outpost-pending');
  });
  afterAll(() => s3?.close());

  it('is read by ranges (a central directory larger than a cached block)', async () => {
    // 4000 small files: the archive's central directory spans more than one 256 KB block
    const many = path.join(project.dataDir, 'storage', 'many');
    fs.mkdirSync(many, { recursive: true });
    for (let i = 0; i < 4000; i++) fs.writeFileSync(path.join(many, `file_with_a_longish_name_${i}.txt`), String(i));
    const cfg = { enabled: true, endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKey: s3.accessKey, secret: s3.secret, forcePathStyle: true };
    expect((await project.api('PATCH', '/api/settings', { backups: { s3: cfg } })).status).toBe(200);
    expect((await project.api('POST', '/api/backups', { name: 'remote.zip' })).status).toBe(204);
    expect(fs.existsSync(path.join(backupsDir(), 'remote.zip'))).toBe(false);
    const before = await pendingOf(project, 'remote.zip');
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toEqual({ key: 'remote.zip', count: 0, files: [] });

    const notes = await createCollection(project, 'notes');
    expect((await pendingOf(project, 'remote.zip')).body).toEqual({ key: 'remote.zip', count: 1, files: [notes] });
    expect((await project.api('GET', '/api/outpost/backups/migrations')).body).toEqual({ items: [{ key: 'remote.zip', count: 1 }] });
    expect((await pendingOf(project, 'before.zip')).body).toEqual(envelope('Missing or invalid backup file.'));
    const [listed] = (await project.api('GET', '/api/backups')).body;
    expect(listed.size).toBeGreaterThan(512 * 1024);
  }, 60_000);
});
