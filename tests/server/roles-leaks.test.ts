// Admin roles (issue 36): what a scoped admin could read around its role — the collections list,
// the settings document, expand through relations, realtime subscriptions and events, protected
// files and backups by file token, the palette's record lookup — and the rules that keep a full
// admin: the last one cannot be given a role or deleted, a role in use cannot be deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { fullAndScopedAdmins, giveNewRole } from '../helpers/roles';
import { realtimeKit } from '../helpers/sse';
import type { CollectionGrant, Area } from '../../src/lib/roles';

let srv: TestServer;
let full = '';
let fullId = '';
let scoped = '';
let scopedId = '';
let userId = '';
let postId = '';
let secretId = '';
const rt = realtimeKit(() => srv.url);
const api = (method: string, url: string, token: string, body?: unknown) => http(srv.url, method, url, { token, body });
const FORBIDDEN = { code: 403, message: 'You are not allowed to perform this request.', data: {} };

/** A new role given to the scoped admin; its id. */
const scopedRole = (areas: Area[], collections: CollectionGrant[]) => giveNewRole(srv.url, full, scopedId, areas, collections);

beforeAll(async () => {
  srv = await startServer();
  ({ full, fullId, scoped, scopedId } = await fullAndScopedAdmins(srv.url));
  const users = await api('GET', '/api/collections/users', full);
  const fields = [
    { name: 'title', type: 'text' },
    { name: 'author', type: 'relation', options: { collectionId: users.body.id, maxSelect: 1 } },
    { name: 'doc', type: 'file', options: { maxSelect: 1, maxSize: 1000, protected: true } },
  ];
  expect((await api('POST', '/api/collections', full, { name: 'posts', schema: fields })).status).toBe(200);
  expect((await api('POST', '/api/collections', full, { name: 'secret', schema: [{ name: 'title', type: 'text' }] })).status).toBe(200);
  userId = (await api('POST', '/api/collections/users/records', full, { email: 'u@example.com', password: '1234567890', passwordConfirm: '1234567890' })).body.id;
  const form = new FormData();
  form.append('title', 'hello');
  form.append('author', userId);
  form.append('doc', new Blob(['file body']), 'note.txt');
  const post = await fetch(`${srv.url}/api/collections/posts/records`, { method: 'POST', headers: { Authorization: full }, body: form });
  postId = ((await post.json()) as { id: string }).id;
  secretId = (await api('POST', '/api/collections/secret/records', full, { title: 'classified' })).body.id;
}, 60_000);

afterAll(async () => {
  rt.closeAll();
  await srv?.close();
});

describe('what a scoped admin sees', () => {
  it('tells an admin its own access', async () => {
    expect((await api('GET', '/api/outpost/access', full)).body).toEqual({ full: true, role: null });
    const id = await scopedRole(['logs'], [{ collection: 'posts', read: true }]);
    const mine = await api('GET', '/api/outpost/access', scoped);
    expect(mine.body.full).toBe(false);
    expect(mine.body.role).toMatchObject({ id, areas: { logs: true }, collections: [{ collection: 'posts', read: true }] });
  });

  it('lists only the collections its role names (all of them with export/import)', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    const list = await api('GET', '/api/collections?perPage=500', scoped);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['posts']);
    expect(list.body.totalItems).toBe(1);
    expect((await api('GET', '/api/collections/secret', scoped)).body).toEqual(FORBIDDEN);
    await scopedRole(['collectionsImportExport'], []);
    expect((await api('GET', '/api/collections?perPage=500', scoped)).body.totalItems).toBeGreaterThanOrEqual(3);
  });

  it('reads only the settings of its areas, and may change only those', async () => {
    await scopedRole(['mail'], []);
    const doc = (await api('GET', '/api/settings', scoped)).body;
    expect(Object.keys(doc).sort()).toEqual(['meta', 'smtp']);
    expect(Object.keys(doc.meta)).toContain('senderAddress');
    expect(doc.meta.appName).toBeUndefined();
    expect((await api('PATCH', '/api/settings', scoped, { meta: { senderName: 'Team' } })).status).toBe(200);
    expect((await api('PATCH', '/api/settings', scoped, { meta: { appName: 'Mine' } })).body).toEqual(FORBIDDEN);
    expect((await api('PATCH', '/api/settings', scoped, { s3: { enabled: false } })).body).toEqual(FORBIDDEN);
    await scopedRole([], []);
    expect((await api('GET', '/api/settings', scoped)).body).toEqual({});
  });

  it('expands only into collections its role reads', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    const rec = await api('GET', `/api/collections/posts/records/${postId}?expand=author`, scoped);
    expect(rec.status).toBe(200);
    expect(rec.body.expand ?? {}).toEqual({});
    const list = await api('GET', '/api/collections/posts/records?expand=author', scoped);
    expect(list.body.items[0].expand ?? {}).toEqual({});
    await scopedRole([], [{ collection: 'posts', read: true }, { collection: 'users', read: true }]);
    const both = await api('GET', `/api/collections/posts/records/${postId}?expand=author`, scoped);
    expect(both.body.expand.author.id).toBe(userId);
  });

  it("finds a record id only in the collections its role reads (the palette's lookup)", async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    expect((await api('GET', `/api/outpost/find-record/${postId}`, scoped)).status).toBe(200);
    expect((await api('GET', `/api/outpost/find-record/${secretId}`, scoped)).status).toBe(404);
    expect((await api('GET', `/api/outpost/find-record/${secretId}`, full)).status).toBe(200);
  });

  it('opens a protected file with its file token only where its role reads', async () => {
    const name = (await api('GET', `/api/collections/posts/records/${postId}`, full)).body.doc;
    const file = async () => {
      const token = (await api('POST', '/api/files/token', scoped)).body.token;
      return (await fetch(`${srv.url}/api/files/posts/${postId}/${name}?token=${token}`)).status;
    };
    await scopedRole([], [{ collection: 'posts', read: true }]);
    expect(await file()).toBe(200);
    await scopedRole([], [{ collection: 'secret', read: true }]);
    expect(await file()).not.toBe(200);
  });

  it('downloads a backup with its file token only with the backups area', async () => {
    await scopedRole([], []);
    const token = (await api('POST', '/api/files/token', scoped)).body.token;
    const res = await fetch(`${srv.url}/api/backups/missing.zip?token=${token}`);
    expect(res.status).toBe(403);
    await scopedRole(['backups'], []);
    const token2 = (await api('POST', '/api/files/token', scoped)).body.token;
    expect((await fetch(`${srv.url}/api/backups/missing.zip?token=${token2}`)).status).toBe(400);
  });
});

describe('realtime', () => {
  it('refuses a subscription to a collection the role does not read, and stops events when the role changes', async () => {
    const roleId = await scopedRole([], [{ collection: 'posts', read: true }]);
    const c = await rt.sse();
    expect((await rt.subscribe(c, ['secret/*'], scoped)).body).toEqual(FORBIDDEN);
    expect((await rt.subscribe(c, ['posts/*', 'users/*'], scoped)).status).toBe(403);
    expect((await rt.subscribe(c, ['posts/*'], scoped)).status).toBe(204);
    await api('PATCH', `/api/collections/posts/records/${postId}`, full, { title: 'first' });
    const first = await c.next((f) => f.event === 'posts/*');
    expect(first.data.record.title).toBe('first');
    // the role no longer reads posts: the next event is not delivered
    expect((await api('PATCH', `/api/outpost/roles/${roleId}`, full, { collections: [{ collection: 'users', read: true }] })).status).toBe(200);
    const seen = c.frames.length;
    await api('PATCH', `/api/collections/posts/records/${postId}`, full, { title: 'second' });
    // a full admin's client on the same topic gets it: the event went out
    const watcher = await rt.sse();
    expect((await rt.subscribe(watcher, ['posts/*'], full)).status).toBe(204);
    await api('PATCH', `/api/collections/posts/records/${postId}`, full, { title: 'third' });
    await watcher.next((f) => f.event === 'posts/*' && f.data.record.title === 'third');
    expect(c.frames.slice(seen).filter((f) => f.event === 'posts/*')).toEqual([]);
  });

  it('serves realtime expand only into collections the role reads', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    const c = await rt.sse();
    expect((await rt.subscribe(c, ['posts/*?expand=author'], scoped)).status).toBe(204);
    await api('PATCH', `/api/collections/posts/records/${postId}`, full, { title: 'expanded' });
    const f = await c.next((x) => x.event.startsWith('posts/*') && x.data.record.title === 'expanded');
    expect(f.data.record.expand ?? {}).toEqual({});
  });
});

describe('full admins', () => {
  it('keeps the last full admin: it cannot be given a role or deleted', async () => {
    await scopedRole([], []);
    const roleId = (await api('GET', '/api/outpost/roles', full)).body.items[0].id;
    const demote = await api('PUT', `/api/outpost/admin-roles/${fullId}`, full, { role: roleId });
    expect(demote.status).toBe(400);
    expect(demote.body.message).toMatch(/last full admin/);
    const del = await api('DELETE', `/api/admins/${fullId}`, full);
    expect(del.status).toBe(400);
    // with a second full admin, the first may go
    expect((await api('PUT', `/api/outpost/admin-roles/${scopedId}`, full, { role: '' })).status).toBe(200);
    expect((await api('PUT', `/api/outpost/admin-roles/${fullId}`, full, { role: roleId })).status).toBe(200);
    expect((await api('GET', '/api/outpost/access', full)).body.full).toBe(false);
    expect((await api('PUT', `/api/outpost/admin-roles/${fullId}`, scoped, { role: '' })).status).toBe(200);
  });

  it('refuses to delete a role that admins hold', async () => {
    const roleId = await scopedRole([], []);
    expect((await api('DELETE', `/api/outpost/roles/${roleId}`, full)).status).toBe(400);
    expect((await api('PUT', `/api/outpost/admin-roles/${scopedId}`, full, { role: '' })).status).toBe(200);
    expect((await api('DELETE', `/api/outpost/roles/${roleId}`, full)).status).toBe(204);
  });

  it('lets a scoped admin edit itself, not others', async () => {
    await scopedRole([], []);
    expect((await api('PATCH', `/api/admins/${scopedId}`, scoped, { avatar: 3 })).status).toBe(200);
    expect((await api('GET', `/api/admins/${scopedId}`, scoped)).status).toBe(200);
    expect((await api('PATCH', `/api/admins/${fullId}`, scoped, { avatar: 3 })).body).toEqual(FORBIDDEN);
  });
});
