// /api/backups restore over HTTP against the real server on a copy of the PocketBase 0.22.12
// fixture: a full round trip (records, files, settings and admins back as they were after a
// restore and an in-process restart on the same port), backups refused at restore changing
// nothing, and our own backup and a zip of the 0.22.12 fixture restored into a fresh server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DIR, FIXTURE_PASSWORD, http, startServer } from '../helpers/server';
import { zipDir, zipEntries } from '../helpers/zip';
import { ADMIN, allRecords, api, backupsDir, claimSize, fileToken, treeHashes, waitIdle } from '../helpers/backups';
import { srv, withFixtureServer } from '../helpers/fixture-server';

withFixtureServer();

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
