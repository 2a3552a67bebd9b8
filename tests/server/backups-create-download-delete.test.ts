// /api/backups over HTTP against the real server on a copy of the PocketBase 0.22.12 fixture:
// admins only, create and list with 0.22's statuses and messages, what an archive holds, downloads
// with file tokens and ranges, delete, and one operation at a time.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { http } from '../helpers/server';
import { listZip } from '../helpers/zip';
import { ADMIN, USER1_AUTH, api, backupsDir, fileToken, waitIdle } from '../helpers/backups';
import { srv, withFixtureServer } from '../helpers/fixture-server';

withFixtureServer();

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
