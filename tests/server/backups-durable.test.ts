// An acknowledged backup upload is there to stay: uploads at the same time all land, two of one
// name cannot both succeed (the second used to replace the first silently), and a restore that
// would not fit on the disk is refused before it unpacks anything (a 6 MB tmpfs, mounted here:
// the tests run as root, as CI does).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../server/app';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, startServer, tempDir, type TestServer } from '../helpers/server';
import { zipEntries } from '../helpers/zip';

const dataDb = fs.readFileSync(path.join(FIXTURE_DIR, 'data.db'));

async function upload(url: string, name: string, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'application/zip' }), name);
  const res = await fetch(`${url}/api/backups/upload`, { method: 'POST', body: form, headers: { Authorization: FIXTURE_ADMIN_TOKEN } });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

describe('uploads at the same time', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer({ fixture: true });
  });
  afterAll(() => srv?.close());

  it('all land when their names differ', async () => {
    const good = await zipEntries([{ name: 'data.db', data: dataDb }]);
    const names = Array.from({ length: 8 }, (_, i) => `many-${i}.zip`);
    const results = await Promise.all(names.map((n) => upload(srv.url, n, good)));
    expect(results.map((r) => r.status)).toEqual(names.map(() => 204));
    const listed = (await http(srv.url, 'GET', '/api/backups', { token: FIXTURE_ADMIN_TOKEN })).body.map((b: { key: string }) => b.key);
    for (const n of names) expect(listed).toContain(n);
    // complete files, no temporary left beside them
    const dir = path.join(srv.dataDir, 'backups');
    for (const n of names) expect(fs.readFileSync(path.join(dir, n)).equals(good)).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('only one of the same name succeeds; the others are told the name exists', async () => {
    const variants = await Promise.all(Array.from({ length: 6 }, (_, i) => zipEntries([{ name: 'data.db', data: dataDb }, { name: `storage/v${i}.txt`, data: Buffer.from(`variant ${i}`) }])));
    const results = await Promise.all(variants.map((v) => upload(srv.url, 'same.zip', v)));
    const ok = results.flatMap((r, i) => (r.status === 204 ? [i] : []));
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 204)) {
      expect(r.status).toBe(400);
      expect(r.body.data.file.code).toBe('validation_backup_name_exists');
    }
    // the stored file is the one whose upload was acknowledged
    expect(fs.readFileSync(path.join(srv.dataDir, 'backups', 'same.zip')).equals(variants[ok[0]])).toBe(true);
  });
});

const dir = tempDir('outpost-restore-space-');
const mnt = path.join(dir, 'volume');
fs.mkdirSync(mnt);
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mnt]).status === 0;

describe.runIf(mounted)('a restore that would not fit', () => {
  let app: App;
  let url = '';
  const dataDir = path.join(mnt, 'pb_data');
  const ratio = process.env.OUTPOST_BACKUP_MAX_RATIO;

  beforeAll(async () => {
    fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
    // 40 MB of zeros packed into a few KB: far more than the volume holds (and past the zip-bomb
    // ratio, which this test lifts so the free-space check is what refuses it)
    process.env.OUTPOST_BACKUP_MAX_RATIO = '1000000';
    const big = await zipEntries([{ name: 'data.db', data: dataDb }, { name: 'storage/zeros.bin', data: Buffer.alloc(40 * 1024 * 1024) }]);
    fs.mkdirSync(path.join(dataDir, 'backups'));
    fs.writeFileSync(path.join(dataDir, 'backups', 'big.zip'), big);
    app = await createApp({ dataDir, dashboardDir: null });
    url = await app.listen('127.0.0.1', 0);
  });

  afterAll(async () => {
    if (ratio === undefined) delete process.env.OUTPOST_BACKUP_MAX_RATIO;
    else process.env.OUTPOST_BACKUP_MAX_RATIO = ratio;
    await app?.close();
    spawnSync('umount', [mnt]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is refused before anything is unpacked, and the data stays as it was', async () => {
    const before = fs.readFileSync(path.join(dataDir, 'data.db'));
    const res = await http(url, 'POST', '/api/backups/big.zip/restore', { token: FIXTURE_ADMIN_TOKEN });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Failed to restore the backup: Not enough disk space to restore the backup: it unpacks to 4\d\.\d MB and \d+\.\d MB are free\.$/);
    expect(fs.readdirSync(path.join(dataDir, '.pb_temp_to_delete')).filter((f) => f.startsWith('pb_restore_'))).toEqual([]);
    expect(fs.readFileSync(path.join(dataDir, 'data.db')).equals(before)).toBe(true);
    expect((await http(url, 'GET', '/api/health')).body.data.canBackup).toBe(true);
  });
});
