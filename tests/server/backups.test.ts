// /api/backups over HTTP against the real server: 0.22's statuses and messages, a full round
// trip (records, files, settings and admins back as they were after a restore and an in-process
// restart on the same port), a zip of the PocketBase 0.22.12 fixture restored, download tokens,
// and hostile input that must answer 4xx and change nothing on disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, FIXTURE_PASSWORD, http, startServer, type TestServer } from '../helpers/server';
import { listZip, zipDir, zipEntries } from '../helpers/zip';

const USER1_AUTH =
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsInR5cGUiOiJhdXRoUmVjb3JkIiwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwiZXhwIjoyMjA4OTg1MjYxfQ.UwD8JvkbQtXpymT09d7J6fdA0aP9g4FJ1GPh_ggEkzc';
const ADMIN = FIXTURE_ADMIN_TOKEN;

let srv: TestServer;
const backupsDir = () => path.join(srv.dataDir, 'backups');
const api = (method: string, p: string, opts: Parameters<typeof http>[3] = {}) => http(srv.url, method, p, { token: ADMIN, ...opts });

async function upload(name: string, data: Buffer, token = ADMIN, type = 'application/zip') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${srv.url}/api/backups/upload`, { method: 'POST', body: form, headers: token ? { Authorization: token } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function fileToken(): Promise<string> {
  const res = await api('POST', '/api/files/token');
  return res.body.token as string;
}

async function waitIdle() {
  for (let i = 0; i < 200; i++) {
    const h = await http(srv.url, 'GET', '/api/health');
    if (h.body?.data?.canBackup) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('backup still running');
}

/** sha256 of every file below `dir` (relative names), to compare trees. */
function treeHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, r))).digest('hex');
    }
  };
  walk('');
  return out;
}

async function allRecords(): Promise<Record<string, unknown[]>> {
  const cols = await api('GET', '/api/collections?perPage=500');
  const out: Record<string, unknown[]> = {};
  for (const c of cols.body.items as Array<{ name: string; type: string }>) {
    const res = await api('GET', `/api/collections/${c.name}/records?perPage=500&sort=id`);
    out[c.name] = res.body.items;
  }
  return out;
}

beforeAll(async () => {
  srv = await startServer({ fixture: true });
});
afterAll(async () => {
  await srv?.close();
});

describe('access', () => {
  it('is for admins only (401 for guests and auth records), download needs an admin file token (403)', async () => {
    for (const token of ['', USER1_AUTH]) {
      for (const [method, p] of [
        ['GET', '/api/backups'],
        ['POST', '/api/backups'],
        ['POST', '/api/backups/upload'],
        ['DELETE', '/api/backups/x.zip'],
        ['POST', '/api/backups/x.zip/restore'],
      ]) {
        const res = await http(srv.url, method, p, { token });
        expect(res.status, `${method} ${p}`).toBe(401);
        expect(res.body).toEqual({ code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} });
      }
    }
    expect((await api('GET', '/api/backups')).body).toEqual([]);
  });
});

describe('create, list, download, delete', () => {
  it('validates the name like 0.22', async () => {
    for (const name of ['!test.zip', 'Upper.zip', 'with space.zip', 'a/b.zip', '../x.zip', 'x.tar', `${'a'.repeat(101)}.zip`]) {
      const res = await api('POST', '/api/backups', { body: { name } });
      expect(res.status, name).toBe(400);
      expect(Object.keys(res.body.data)).toEqual(['name']);
    }
    // worded as 0.22 words them, by the dashboard's own form file (schemas/backups/create)
    const badName = await api('POST', '/api/backups', { body: { name: '!test.zip' } });
    expect(badName.body).toEqual({ code: 400, message: 'Something went wrong while processing your request.', data: { name: { code: 'validation_match_invalid', message: 'Must be in a valid format.' } } });
    const longName = await api('POST', '/api/backups', { body: { name: `${'a'.repeat(101)}.zip` } });
    expect(longName.body.data).toEqual({ name: { code: 'validation_length_out_of_range', message: 'The length must be between 1 and 100.' } });
    expect((await api('POST', '/api/backups', { body: { name: 1 } })).status).toBe(400);
    expect((await api('POST', '/api/backups', { raw: '{bad' })).status).toBe(400);
    expect(fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()) : []).toEqual([]);
  });

  it('creates named and generated backups, lists them, refuses a duplicate name', async () => {
    expect((await api('POST', '/api/backups', { body: { name: 'first.zip' } })).status).toBe(204);
    expect((await api('POST', '/api/backups', { raw: '' })).status).toBe(204);
    const dup = await api('POST', '/api/backups', { body: { name: 'first.zip' } });
    expect(dup.status).toBe(400);
    expect(dup.body.data.name.code).toBe('validation_backup_name_exists');
    const list = await api('GET', '/api/backups');
    expect(list.status).toBe(200);
    const keys = (list.body as Array<{ key: string }>).map((b) => b.key).sort();
    expect(keys[0]).toBe('first.zip');
    expect(keys[1]).toMatch(/^pb_backup_acme_test_\d{14}\.zip$/); // the fixture's app name, snake-cased
    for (const b of list.body) {
      expect(Object.keys(b)).toEqual(['key', 'size', 'modified']);
      expect(b.size).toBeGreaterThan(1000);
      expect(b.modified).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // nothing left behind in the temp folder
    expect(fs.readdirSync(path.join(srv.dataDir, '.pb_temp_to_delete'))).toEqual([]);
  });

  it('archives pb_data like 0.22: data.db, logs.db, storage/, no backups or temp folders, no WAL files', async () => {
    const token = await fileToken();
    const res = await fetch(`${srv.url}/api/backups/first.zip?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const names = await listZip(Buffer.from(await res.arrayBuffer()));
    expect(names).toContain('data.db');
    expect(names).toContain('logs.db');
    expect(names.filter((n) => n.startsWith('storage/')).length).toBe(54);
    expect(names.some((n) => n.startsWith('backups/') || n.startsWith('.pb_temp') || n.endsWith('-wal') || n.endsWith('-shm'))).toBe(false);
  });

  it('serves byte ranges of a download (resumed downloads), 416 past the end', async () => {
    const token = await fileToken();
    const whole = fs.readFileSync(path.join(backupsDir(), 'first.zip'));
    const part = await fetch(`${srv.url}/api/backups/first.zip?token=${token}`, { headers: { Range: 'bytes=10-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(10, 100))).toBe(true);
    const tail = await fetch(`${srv.url}/api/backups/first.zip?token=${token}`, { headers: { Range: 'bytes=-5' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(whole.subarray(-5))).toBe(true);
    const past = await fetch(`${srv.url}/api/backups/first.zip?token=${token}`, { headers: { Range: `bytes=${whole.length}-` } });
    expect(past.status).toBe(416);
  });

  it('downloads only with an admin file token (403 otherwise), 400 for a missing backup', async () => {
    const forbidden = { code: 403, message: 'Insufficient permissions to access the resource.', data: {} };
    expect((await http(srv.url, 'GET', '/api/backups/first.zip')).body).toEqual(forbidden);
    expect((await http(srv.url, 'GET', '/api/backups/first.zip', { token: ADMIN })).status).toBe(403);
    expect((await http(srv.url, 'GET', `/api/backups/first.zip?token=${ADMIN}`)).status).toBe(403);
    expect((await http(srv.url, 'GET', `/api/backups/first.zip?token=${USER1_AUTH}`)).status).toBe(403);
    const userFile = await http(srv.url, 'POST', '/api/files/token', { token: USER1_AUTH });
    expect((await http(srv.url, 'GET', `/api/backups/first.zip?token=${userFile.body.token}`)).status).toBe(403);
    const token = await fileToken();
    const missing = await http(srv.url, 'GET', `/api/backups/missing.zip?token=${token}`);
    expect(missing.status).toBe(400);
    expect((await http(srv.url, 'GET', `/api/backups/..%2Fdata.db?token=${token}`)).status).toBe(400);
  });

  it('deletes, 400 for missing keys and keys with ../', async () => {
    expect((await api('POST', '/api/backups', { body: { name: 'gone.zip' } })).status).toBe(204);
    expect((await api('DELETE', '/api/backups/gone.zip')).status).toBe(204);
    expect(fs.existsSync(path.join(backupsDir(), 'gone.zip'))).toBe(false);
    expect((await api('DELETE', '/api/backups/gone.zip')).status).toBe(400);
    fs.writeFileSync(path.join(srv.dataDir, 'outside.zip'), 'keep');
    for (const key of ['..%2Foutside.zip', '..%2F..%2Fpb_data', '%2E%2E%2Foutside.zip', 'data.db']) {
      const res = await api('DELETE', `/api/backups/${key}`);
      expect(res.status, key).toBe(400);
    }
    expect(fs.readFileSync(path.join(srv.dataDir, 'outside.zip'), 'utf8')).toBe('keep');
    expect(fs.existsSync(path.join(srv.dataDir, 'data.db'))).toBe(true);
    const restore = await api('POST', '/api/backups/..%2Foutside.zip/restore');
    expect(restore.status).toBe(400);
    expect(restore.body.message).toBe('Missing or invalid backup file.');
  });

  it('one operation at a time: a second backup or a restore while one runs is a 400, health says canBackup false', async () => {
    const running = api('POST', '/api/backups', { body: { name: 'slow.zip' } });
    // poll until the first one is seen running (it is short; retry the race a few times)
    let sawBusy = false;
    for (let i = 0; i < 50 && !sawBusy; i++) {
      const [h, second, restore] = await Promise.all([
        http(srv.url, 'GET', '/api/health'),
        api('POST', '/api/backups', { body: { name: `other${i}.zip` } }),
        api('POST', '/api/backups/first.zip/restore'),
      ]);
      if (h.body.data.canBackup === false) {
        sawBusy = true;
      }
      if (second.status === 400) {
        expect(second.body.message).toBe('Try again later - another backup/restore process has already been started.');
        expect(restore.status).toBe(400);
        sawBusy = true;
      } else {
        expect(second.status).toBe(204);
      }
      if (restore.status === 204) throw new Error('restore ran while a backup was running');
    }
    expect((await running).status).toBe(204);
    expect(sawBusy).toBe(true);
    await waitIdle();
    expect((await http(srv.url, 'GET', '/api/health')).body.data.canBackup).toBe(true);
  });
});

describe('bad uploads change nothing', () => {
  const before = () => (fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()).sort() : []);

  it('rejects non-zips, hostile and incomplete archives, bad names, oversized bodies', async () => {
    const dataDb = fs.readFileSync(path.join(FIXTURE_DIR, 'data.db'));
    const listed = before();
    const patch = (buf: Buffer, from: string, to: string) => {
      const out = Buffer.from(buf);
      let i = out.indexOf(from);
      while (i >= 0) {
        out.write(to, i, 'latin1');
        i = out.indexOf(from, i + 1);
      }
      return out;
    };
    const good = await zipEntries([{ name: 'data.db', data: dataDb }]);
    const cases: Array<[string, Buffer, string]> = [
      ['text.zip', Buffer.from('not a zip at all'), 'validation_invalid_mime_type'],
      ['nodb.zip', await zipEntries([{ name: 'storage/a.txt' }]), 'validation_invalid_backup'],
      ['slip.zip', patch(await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'XX/evil.txt' }]), 'XX/evil', '../evil'), 'validation_invalid_backup'],
      ['abs.zip', patch(await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'Xtmp/evil.txt' }]), 'Xtmp/evil', '/tmp/evil'), 'validation_invalid_backup'],
      ['link.zip', await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]), 'validation_invalid_backup'],
      ['fifo.zip', await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/fifo', mode: 0o010644 }]), 'validation_invalid_backup'],
      // a bomb: 2 GB of zeros claimed by a few KB (sizes patched into both headers)
      ['bomb.zip', claimHuge(await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/zeros', data: Buffer.alloc(4096) }]), 'storage/zeros'), 'validation_invalid_backup'],
      // archives that could not be restored: two data.db, a data.db that is no SQLite database or
      // no PocketBase one, headers that lie about an entry's size or content
      ['dup.zip', await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'data.db', data: dataDb }]), 'validation_invalid_backup'],
      ['notsqlite.zip', await zipEntries([{ name: 'data.db', data: Buffer.from('not a database') }]), 'validation_invalid_backup'],
      ['notpb.zip', await zipEntries([{ name: 'data.db', data: plainSqlite() }]), 'validation_invalid_backup'],
      ['short.zip', claimSize(await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/a.txt', data: Buffer.alloc(4096, 1) }]), 'storage/a.txt', 100), 'validation_invalid_backup'],
      ['crc.zip', patch(await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/b.txt', data: Buffer.from('PAYLOAD-ORIGINAL'), store: true }]), 'PAYLOAD-ORIGINAL', 'PAYLOAD-TAMPERED'), 'validation_invalid_backup'],
    ];
    const reasons: Record<string, string> = {};
    for (const [name, data, code] of cases) {
      const res = await upload(name, data);
      expect(res.status, name).toBe(400);
      expect(res.body.data.file.code, name).toBe(code);
      reasons[name] = res.body.data.file.message;
    }
    expect(reasons['dup.zip']).toBe('Invalid backup: The entry "data.db" appears more than once.');
    expect(reasons['notsqlite.zip']).toBe('Invalid backup: data.db is not an SQLite database.');
    expect(reasons['notpb.zip']).toMatch(/not a PocketBase database/);
    expect(reasons['short.zip']).toMatch(/^Invalid backup: The entry "storage\/a.txt" cannot be read/);
    expect(reasons['crc.zip']).toBe('Invalid backup: The entry "storage/b.txt" does not match its checksum.');
    // names: a plain file name, nothing hidden, no folders
    for (const bad of ['.hidden.zip', '..']) {
      const res = await upload(bad, good);
      expect(res.status, bad).toBe(400);
      expect(res.body.data.file.code, bad).toBe('validation_invalid_name');
    }
    // 0.22's messages: no file, and a duplicate
    const none = await fetch(`${srv.url}/api/backups/upload`, { method: 'POST', headers: { Authorization: ADMIN }, body: new FormData() });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe('Missing or invalid uploaded file.');
    const dup = await upload('first.zip', good);
    expect(dup.body.data.file.code).toBe('validation_backup_name_exists');
    // a body announcing 2 GB is refused before it is read
    const big = await http(srv.url, 'POST', '/api/backups/upload', {
      token: ADMIN,
      raw: 'x',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(2 * 1024 ** 3) },
    }).catch(() => ({ status: 413 }));
    expect(big.status).toBe(413);
    expect(before()).toEqual(listed);
    expect(fs.readdirSync(path.join(srv.dataDir, '.pb_temp_to_delete'))).toEqual([]);
  });
});

describe('upload cap', () => {
  it('an upload streamed past the cap is cut off with 413 and leaves nothing behind', async () => {
    process.env.OUTPOST_BACKUP_MAX_UPLOAD_BYTES = String(256 * 1024);
    const small = await startServer({ fixture: true });
    try {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(crypto.randomBytes(1024 * 1024))], { type: 'application/zip' }), 'big.zip');
      // chunked: no Content-Length to refuse early, the stream itself must be stopped
      const encoded = new Response(form);
      const res = await fetch(`${small.url}/api/backups/upload`, {
        method: 'POST',
        body: encoded.body,
        duplex: 'half',
        headers: { Authorization: ADMIN, 'Content-Type': encoded.headers.get('content-type')! },
      } as RequestInit).catch(() => null);
      if (res) expect(res.status, await res.clone().text()).toBe(413);
      expect(fs.existsSync(path.join(small.dataDir, 'backups'))).toBe(false);
      expect(fs.readdirSync(path.join(small.dataDir, '.pb_temp_to_delete'))).toEqual([]);
    } finally {
      delete process.env.OUTPOST_BACKUP_MAX_UPLOAD_BYTES;
      await small.close();
    }
  });
});

/** Rewrites an entry's uncompressed size to ~2 GB in its local and central headers. */
/** An SQLite database without PocketBase's tables. */
function plainSqlite(): Buffer {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-sqlite-')), 'plain.db');
  const db = new Database(file);
  db.exec('CREATE TABLE t (x)');
  db.close();
  const bytes = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return bytes;
}

function claimHuge(zip: Buffer, name: string): Buffer {
  return claimSize(zip, name, 2_000_000_000);
}

/** Rewrites an entry's declared uncompressed size in its local and central headers. */
function claimSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const nameBuf = Buffer.from(name);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50 && out.subarray(i + 30, i + 30 + nameBuf.length).equals(nameBuf)) out.writeUInt32LE(size, i + 22);
    if (sig === 0x02014b50 && out.subarray(i + 46, i + 46 + nameBuf.length).equals(nameBuf)) out.writeUInt32LE(size, i + 24);
  }
  return out;
}

describe('round trip', () => {
  it('restores records, files, settings and admins, and restarts on the same port', async () => {
    const pb = srv.client();
    pb.authStore.save(ADMIN, null);
    // make things: a collection with a file field, records with files, a setting, an admin
    await pb.collections.create({
      name: 'notes',
      type: 'base',
      schema: [
        { name: 'title', type: 'text' },
        { name: 'doc', type: 'file', options: { maxSelect: 1, maxSize: 5 << 20 } },
      ],
      listRule: '',
      viewRule: '',
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const form = new FormData();
      form.append('title', `note ${i}`);
      form.append('doc', new Blob([crypto.randomBytes(i === 0 ? 100_000 : 20_000 + i)]), `doc${i}.bin`); // the first one is stored, not deflated
      ids.push((await pb.collection('notes').create(form)).id);
    }
    await pb.settings.update({ meta: { appName: 'Before restore' } });
    await pb.admins.create({ email: 'keeper@example.com', password: 'keeper-pass-123', passwordConfirm: 'keeper-pass-123' });

    const records = await allRecords();
    const settings = (await api('GET', '/api/settings')).body;
    const files = treeHashes(path.join(srv.dataDir, 'storage'));
    expect((await api('POST', '/api/backups', { body: { name: 'roundtrip.zip' } })).status).toBe(204);

    // change and delete things
    await pb.collection('notes').update(ids[0], { title: 'changed' });
    await pb.collection('notes').delete(ids[1]);
    await pb.collection('notes').update(ids[2], { doc: null });
    await pb.settings.update({ meta: { appName: 'After' } });
    const keeper = await pb.admins.getFirstListItem('email="keeper@example.com"');
    await pb.admins.delete(keeper.id);
    await pb.collections.create({ name: 'later', type: 'base', schema: [{ name: 'x', type: 'text' }] });
    expect(treeHashes(path.join(srv.dataDir, 'storage'))).not.toEqual(files);

    const port = new URL(srv.url).port;
    const res = await api('POST', '/api/backups/roundtrip.zip/restore');
    expect(res.status).toBe(204);
    // the very next request sees the restored app (requests wait while it restarts)
    expect((await api('GET', '/api/settings')).body.meta.appName).toBe('Before restore');
    expect(new URL(srv.url).port).toBe(port);
    expect(await allRecords()).toEqual(records);
    expect((await api('GET', '/api/settings')).body).toEqual(settings);
    expect(treeHashes(path.join(srv.dataDir, 'storage'))).toEqual(files);
    expect((await api('GET', '/api/collections/later')).status).toBe(404);
    // the backup's admins sign in
    const signIn = await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: 'keeper@example.com', password: 'keeper-pass-123' } });
    expect(signIn.status).toBe(200);
    // the backups themselves survive the restore, the temp folder is emptied
    expect((await api('GET', '/api/backups')).body.map((b: { key: string }) => b.key)).toContain('roundtrip.zip');
    await waitIdle();
    for (let i = 0; i < 50 && fs.readdirSync(path.join(srv.dataDir, '.pb_temp_to_delete')).length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.readdirSync(path.join(srv.dataDir, '.pb_temp_to_delete'))).toEqual([]);
  });

  it('a backup whose entries unpack to more than they declare is refused at restore, nothing changed', async () => {
    const dataDb = fs.readFileSync(path.join(srv.dataDir, 'data.db'));
    const liar = claimSize(await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/big', data: Buffer.alloc(1 << 20) }]), 'storage/big', 1000);
    fs.writeFileSync(path.join(backupsDir(), 'liar.zip'), liar);
    const before = treeHashes(srv.dataDir);
    const res = await api('POST', '/api/backups/liar.zip/restore');
    expect(res.status).toBe(400);
    expect(treeHashes(srv.dataDir)).toEqual(before);
    expect(fs.readdirSync(path.join(srv.dataDir, '.pb_temp_to_delete'))).toEqual([]);
  });

  it('an invalid backup placed in the folder is refused at restore and changes nothing', async () => {
    fs.writeFileSync(path.join(backupsDir(), 'broken.zip'), await zipEntries([{ name: 'data.db', data: Buffer.from('not sqlite') }]));
    const before = fs.readFileSync(path.join(srv.dataDir, 'data.db'));
    const res = await api('POST', '/api/backups/broken.zip/restore');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Failed to restore the backup: data\.db/);
    expect((await api('GET', '/api/settings')).body.meta.appName).toBe('Before restore');
    expect(fs.readFileSync(path.join(srv.dataDir, 'data.db')).equals(before)).toBe(true);
    expect((await http(srv.url, 'GET', '/api/health')).body.data.canBackup).toBe(true);
  });
});

describe('PocketBase 0.22.12 backups', () => {
  it('uploads our own backup and a zip of the 0.22.12 fixture into a fresh server and restores them', async () => {
    const token = await fileToken();
    const ours = Buffer.from(await (await fetch(`${srv.url}/api/backups/roundtrip.zip?token=${token}`)).arrayBuffer());
    const fresh = await startServer();
    try {
      const admin = await fresh.client().admins.create({ email: 'fresh@example.com', password: 'fresh-pass-123', passwordConfirm: 'fresh-pass-123' });
      expect(admin.id).toMatch(/^[a-z0-9]{15}$/);
      const auth = await http(fresh.url, 'POST', '/api/admins/auth-with-password', { body: { identity: 'fresh@example.com', password: 'fresh-pass-123' } });
      const freshToken = auth.body.token as string;
      const up = async (name: string, data: Buffer) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(data)], { type: 'application/zip' }), name);
        return fetch(`${fresh.url}/api/backups/upload`, { method: 'POST', body: form, headers: { Authorization: freshToken } });
      };
      expect((await up('ours.zip', ours)).status).toBe(204);
      expect((await up('pb_fixture.zip', await zipDir(FIXTURE_DIR))).status).toBe(204);
      const list = await http(fresh.url, 'GET', '/api/backups', { token: freshToken });
      expect(list.body.map((b: { key: string }) => b.key).sort()).toEqual(['ours.zip', 'pb_fixture.zip']);

      expect((await http(fresh.url, 'POST', '/api/backups/pb_fixture.zip/restore', { token: freshToken })).status).toBe(204);
      // the fixture's admins now; the fresh one is gone
      const cols = await http(fresh.url, 'GET', '/api/collections?perPage=100', { token: ADMIN });
      expect(cols.status).toBe(200);
      expect(cols.body.items.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['demo1', 'demo2', 'users', 'nologin']));
      const signIn = await http(fresh.url, 'POST', '/api/admins/auth-with-password', { body: { identity: 'test@example.com', password: FIXTURE_PASSWORD } });
      expect(signIn.status).toBe(200);
      expect((await http(fresh.url, 'GET', '/api/backups', { token: freshToken })).status).toBe(401);
      // and back to our own backup
      expect((await http(fresh.url, 'POST', '/api/backups/ours.zip/restore', { token: ADMIN })).status).toBe(204);
      const notes = await http(fresh.url, 'GET', '/api/collections/notes/records', { token: ADMIN });
      expect(notes.body.totalItems).toBe(5);
    } finally {
      await fresh.close();
    }
  });
});
