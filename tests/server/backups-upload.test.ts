// /api/backups/upload over HTTP against the real server on a copy of the PocketBase 0.22.12
// fixture: hostile and incomplete archives, bad names and oversized bodies answer 4xx and change
// nothing on disk; an upload streamed past the cap is cut off.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { FIXTURE_DIR, http, startServer } from '../helpers/server';
import { zipEntries } from '../helpers/zip';
import { ADMIN, api, backupsDir, claimHuge, claimSize, plainSqlite, upload } from '../helpers/backups';
import { srv, withFixtureServer } from '../helpers/fixture-server';

withFixtureServer();

// the duplicate-name upload below needs a backup named first.zip
beforeAll(async () => {
  expect((await api('POST', '/api/backups', { body: { name: 'first.zip' } })).status).toBe(204);
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
