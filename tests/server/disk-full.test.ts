// A full data volume: the real server on a 6 MB tmpfs (mounted here: the tests run as root, as CI
// does), filled with 1 MB uploads. A failed upload says why in PocketBase's envelope and leaves no
// temporary file behind, the server keeps answering (health says the disk is full, lists work),
// the condition is logged once, acknowledged records keep their files, and writes work again once
// space is freed. Temporaries a crash left are swept at start.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type App } from '../../server/app';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, tempDir } from '../helpers/server';

const dir = tempDir('outpost-disk-');
const mnt = path.join(dir, 'volume');
fs.mkdirSync(mnt);
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mnt]).status === 0;
const dataDir = path.join(mnt, 'pb_data');
const storage = path.join(dataDir, 'storage');
let app: App;
let url = '';
const errors: string[] = [];

const MB = 1024 * 1024;
const admin = (method: string, p: string, body?: unknown) => http(url, method, p, { token: FIXTURE_ADMIN_TOKEN, body });

async function upload(bytes: Buffer): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('doc', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'blob.bin');
  const res = await fetch(`${url}/api/collections/uploads/records`, { method: 'POST', headers: { Authorization: FIXTURE_ADMIN_TOKEN }, body: form });
  return { status: res.status, body: await res.json() };
}

function tempFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp'));
}

describe.runIf(mounted)('on a 6 MB data volume', () => {
  beforeAll(async () => {
    fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
    // what a crash mid-upload leaves: a temporary sibling of a record file
    const stale = path.join(storage, 'wsmn24bux7wo113', 'al1h9ijdeojtsjy', '300_Jsjq7RdBgA.png.0123456789ab.tmp');
    fs.writeFileSync(stale, Buffer.alloc(1000));
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.map(String).join(' ')));
    app = await createApp({ dataDir, dashboardDir: null });
    url = await app.listen('127.0.0.1', 0);
    for (let i = 0; i < 100 && fs.existsSync(stale); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(stale), 'the stale temporary file is swept at start').toBe(false);
    const made = await admin('POST', '/api/collections', {
      name: 'uploads',
      type: 'base',
      schema: [{ name: 'doc', type: 'file', options: { maxSelect: 1, maxSize: 5 * MB } }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    vi.restoreAllMocks();
    spawnSync('umount', [mnt]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const kept: Array<{ id: string; doc: string; sha: string }> = [];

  it('fills up: the failing uploads say so, leave nothing behind, and the server keeps serving', async () => {
    let failure: { status: number; body: any } | undefined;
    for (let i = 0; i < 12 && !failure; i++) {
      const bytes = crypto.randomBytes(MB);
      const res = await upload(bytes);
      if (res.status === 200) kept.push({ id: res.body.id, doc: res.body.doc, sha: crypto.createHash('sha256').update(bytes).digest('hex') });
      else failure = res;
    }
    expect(kept.length).toBeGreaterThan(0);
    expect(failure).toEqual({ status: 400, body: { code: 400, message: 'Not enough disk space to store the file.', data: {} } });
    // more attempts fail the same way, concurrent with a health probe and a normal list
    const [again, health, list] = await Promise.all([
      upload(crypto.randomBytes(MB)),
      http(url, 'GET', '/api/health'),
      admin('GET', '/api/collections/uploads/records?perPage=50'),
    ]);
    expect(again.body.message).toBe('Not enough disk space to store the file.');
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ canBackup: true, diskFull: true });
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: { id: string }) => r.id).sort()).toEqual(kept.map((k) => k.id).sort());
    expect(tempFiles(storage)).toEqual([]);
    // said once, not once per failed request
    expect(errors.filter((e) => e.includes('not enough disk space'))).toHaveLength(1);
  });

  it('keeps every acknowledged record and its file intact', async () => {
    for (const k of kept) {
      const res = await fetch(`${url}/api/files/uploads/${k.id}/${k.doc}`);
      expect(res.status).toBe(200);
      expect(crypto.createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')).toBe(k.sha);
    }
    const auth = await http(url, 'POST', '/api/admins/auth-with-password', { body: { identity: 'test@example.com', password: '1234567890' } });
    expect(auth.status).toBe(200);
  });

  it('writes again once space is freed, and health says so', async () => {
    const freed = kept.shift()!;
    expect((await admin('DELETE', `/api/collections/uploads/records/${freed.id}`)).status).toBe(204);
    const res = await upload(crypto.randomBytes(MB / 2));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const health = await http(url, 'GET', '/api/health');
    expect(health.body).toEqual({ code: 200, message: 'API is healthy.', data: { canBackup: true } });
    expect(tempFiles(storage)).toEqual([]);
  });

  it('leaves a sound database', async () => {
    await app.close();
    const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
