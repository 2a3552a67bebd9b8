// Admin roles (issue 36) as a hostile scoped admin tries them with its own token: reach through a
// filter or sort into a collection its role does not read (relation, back-relation,
// @collection.*), a view collection over tables its role does not read or an API rule reaching
// one (an oracle it then asks as a guest), a stored secret sent to a host it chose, and the audit
// trail's retention (which, shortened or set to 0, erases entries). Each against the built server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { fullAndScopedAdmins, giveNewRole } from '../helpers/roles';
import { realtimeKit } from '../helpers/sse';
import type { Area, CollectionGrant } from '../../src/lib/roles';

let srv: TestServer;
let full = '';
let scoped = '';
let scopedId = '';
let postId = '';
const rt = realtimeKit(() => srv.url);
const api = (method: string, url: string, token: string, body?: unknown) => http(srv.url, method, url, { token, body });
const FORBIDDEN = { code: 403, message: 'You are not allowed to perform this request.', data: {} };

/** A new role given to the scoped admin; its id. */
const scopedRole = (areas: Area[], collections: CollectionGrant[]) => giveNewRole(srv.url, full, scopedId, areas, collections);
let viewN = 0;

beforeAll(async () => {
  srv = await startServer();
  ({ full, scoped, scopedId } = await fullAndScopedAdmins(srv.url));
  const users = await api('GET', '/api/collections/users', full);
  const fields = [
    { name: 'title', type: 'text' },
    { name: 'author', type: 'relation', options: { collectionId: users.body.id, maxSelect: 1 } },
  ];
  expect((await api('POST', '/api/collections', full, { name: 'posts', schema: fields })).status).toBe(200);
  expect((await api('POST', '/api/collections', full, { name: 'secret', schema: [{ name: 'code', type: 'text' }] })).status).toBe(200);
  const user = await api('POST', '/api/collections/users/records', full, { email: 'hidden@example.com', password: '1234567890', passwordConfirm: '1234567890', name: 'Hidden' });
  postId = (await api('POST', '/api/collections/posts/records', full, { title: 'hello', author: user.body.id })).body.id;
  await api('POST', '/api/collections/secret/records', full, { code: 'xyzzy' });
}, 60_000);

afterAll(async () => {
  rt.closeAll();
  await srv?.close();
});

describe("a scoped admin's filter and sort", () => {
  it('may not reach through a relation, a back-relation or @collection into a collection its role does not read', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    const list = (q: string) => api('GET', `/api/collections/posts/records?${q}`, scoped);
    // its own collection's fields: as any admin
    expect((await list(`filter=${encodeURIComponent('title = "hello"')}`)).body.totalItems).toBe(1);
    for (const q of [
      `filter=${encodeURIComponent('author.name = "Hidden"')}`,
      `filter=${encodeURIComponent('author.email ~ "hidden"')}`,
      `sort=${encodeURIComponent('author.name')}`,
      `filter=${encodeURIComponent('@collection.secret.code = "xyzzy"')}`,
      `filter=${encodeURIComponent('@collection.users.email ?= "hidden@example.com"')}`,
    ]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.data, q).toEqual({});
    }
    // the same filter from a full admin is answered (and its kept plan is not the role's)
    expect((await api('GET', `/api/collections/posts/records?filter=${encodeURIComponent('author.name = "Hidden"')}`, full)).body.totalItems).toBe(1);
    expect((await list(`filter=${encodeURIComponent('author.name = "Hidden"')}`)).status).toBe(400);
    // a back-relation from a collection it reads into one it does not
    await scopedRole([], [{ collection: 'users', read: true }]);
    const back = await api('GET', `/api/collections/users/records?filter=${encodeURIComponent('posts_via_author.title = "hello"')}`, scoped);
    expect(back.status).toBe(400);
    // with read on both, the same paths are answered
    await scopedRole([], [{ collection: 'posts', read: true }, { collection: 'users', read: true }]);
    expect((await list(`filter=${encodeURIComponent('author.name = "Hidden"')}`)).body.totalItems).toBe(1);
  });

  it('may not reach through a relation in the record ids of an export', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    const res = await api('GET', `/api/collections/posts/records-ids?filter=${encodeURIComponent('author.email ~ "hidden"')}`, scoped);
    expect(res.status).toBe(400);
  });
});

describe("a scoped admin's realtime filter", () => {
  it('gets no event through a filter that reaches a collection its role does not read', async () => {
    await scopedRole([], [{ collection: 'posts', read: true }]);
    const topic = (filter: string) => `posts/*?options=${JSON.stringify({ query: { filter } })}`;
    const probe = topic('author.name = "Hidden"');
    const plain = topic('title != ""');
    const c = await rt.sse();
    expect((await rt.subscribe(c, [probe, plain], scoped)).status).toBe(204);
    await api('PATCH', `/api/collections/posts/records/${postId}`, full, { title: 'hello again' });
    // the plain filter's event came, so the probe's would have come by now
    await c.next((f) => f.event === plain && f.data.record.title === 'hello again');
    expect(c.frames.filter((f) => f.event === probe)).toEqual([]);
    await api('PATCH', `/api/collections/posts/records/${postId}`, full, { title: 'hello' });
  });
});

describe("a scoped admin's view collections", () => {
  it('may read only collections its role reads', async () => {
    await scopedRole([], [{ collection: '*', schema: 'edit' }, { collection: 'posts', read: true, schema: 'edit' }]);
    const view = (name: string, query: string) => api('POST', '/api/collections', scoped, { name, type: 'view', options: { query } });
    for (const query of [
      'SELECT id, email FROM _admins',
      'SELECT id, email FROM users',
      'SELECT id, code FROM secret',
      'SELECT p.id, u.name FROM posts p JOIN users u ON u.id = p.author',
      "SELECT id, changes FROM _outpostAudit",
      "SELECT id, name FROM _outpostRoles",
    ]) {
      const res = await view(`v${viewN++}`, query);
      expect(res.status, query).toBe(403);
      expect(res.body.message, query).toMatch(/Your role may not read/);
    }
    const ok = await view('myposts', 'SELECT id, title FROM posts');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // nor may it point its view elsewhere afterwards; its rules stay its own
    const moved = await api('PATCH', '/api/collections/myposts', scoped, { options: { query: 'SELECT id, code AS title FROM secret' } });
    expect(moved.status).toBe(403);
    expect((await api('PATCH', '/api/collections/myposts', scoped, { listRule: '' })).status).toBe(200);
    // a full admin's view over users, given to the role to edit: its rules may change, its query stays judged
    const given = await api('POST', '/api/collections', full, { name: 'userview', type: 'view', options: { query: 'SELECT id, name FROM users' } });
    expect(given.status).toBe(200);
    await scopedRole([], [{ collection: 'userview', read: true, schema: 'edit' }]);
    expect((await api('PATCH', '/api/collections/userview', scoped, { listRule: null, options: { query: 'SELECT id, name FROM users' } })).status).toBe(200);
    expect((await api('PATCH', '/api/collections/userview', scoped, { options: { query: 'SELECT id, email AS name FROM users' } })).status).toBe(403);
    // a full admin is not judged
    expect((await api('POST', '/api/collections', full, { name: 'adminsview', type: 'view', options: { query: 'SELECT id, email FROM _admins' } })).status).toBe(200);
  });
});

describe("a scoped admin's API rules", () => {
  it('may reach only collections its role reads', async () => {
    await scopedRole([], [{ collection: '*', schema: 'edit' }, { collection: 'posts', read: true, schema: 'edit' }]);
    for (const rule of ['@collection.secret.code ?= "xyzzy"', 'author.name = "Hidden"', 'author.email != ""', '@collection.users.id ?= author']) {
      const res = await api('PATCH', '/api/collections/posts', scoped, { listRule: rule });
      expect(res.status, rule).toBe(403);
      expect(res.body.message, rule).toMatch(/Your role may not read/);
    }
    const created = await api('POST', '/api/collections', scoped, { name: 'probe', schema: [{ name: 'x', type: 'text' }], viewRule: '@collection.secret.code ?= x' });
    expect(created.status).toBe(403);
    // its own fields and the request's are its to use
    expect((await api('PATCH', '/api/collections/posts', scoped, { listRule: 'title != "" && @request.auth.id != ""' })).status).toBe(200);
    // a rule a full admin wrote stays when the role changes another one
    expect((await api('PATCH', '/api/collections/posts', full, { viewRule: 'author.name != ""' })).status).toBe(200);
    expect((await api('PATCH', '/api/collections/posts', scoped, { listRule: '', viewRule: 'author.name != ""' })).status).toBe(200);
    // a form the save would refuse answers as it would for anyone
    expect((await api('PATCH', '/api/collections/posts', scoped, { listRule: 'nosuchfield = 1' })).status).toBe(400);
  });
});

describe("the settings' secrets", () => {
  it('are never sent, unchanged, where a scoped admin points them: it must enter them again', async () => {
    const set = await api('PATCH', '/api/settings', full, {
      smtp: { enabled: false, host: 'smtp.example.com', port: 587, username: 'mailer', password: 'smtp-secret' },
      s3: { enabled: false, bucket: 'b', region: 'r', endpoint: 'https://s3.example.com', accessKey: 'ak', secret: 's3-secret' },
      gitlabAuth: { enabled: false, clientId: 'id', clientSecret: 'oauth-secret', authUrl: 'https://gitlab.example.com/oauth/authorize', tokenUrl: 'https://gitlab.example.com/oauth/token', userApiUrl: 'https://gitlab.example.com/api/v4/user' },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await scopedRole(['mail', 'storage', 'authProviders'], []);
    const again = { code: 'validation_secret_required', message: 'Enter it again: your admin role may not send the stored secret to a new address.' };
    const smtp = await api('PATCH', '/api/settings', scoped, { smtp: { host: 'evil.example.net', password: '******' } });
    expect(smtp.status).toBe(400);
    expect(smtp.body.data).toEqual({ smtp: { password: again } });
    const port = await api('PATCH', '/api/settings', scoped, { smtp: { port: 2525 } });
    expect(port.body.data).toEqual({ smtp: { password: again } });
    const s3 = await api('PATCH', '/api/settings', scoped, { s3: { endpoint: 'https://evil.example.net' } });
    expect(s3.body.data).toEqual({ s3: { secret: again } });
    const oauth = await api('PATCH', '/api/settings', scoped, { gitlabAuth: { tokenUrl: 'https://evil.example.net/token' } });
    expect(oauth.body.data).toEqual({ gitlabAuth: { clientSecret: again } });
    // nothing was stored
    const stored = (await api('GET', '/api/settings', full)).body;
    expect([stored.smtp.host, stored.smtp.port, stored.s3.endpoint, stored.gitlabAuth.tokenUrl]).toEqual(['smtp.example.com', 587, 'https://s3.example.com', 'https://gitlab.example.com/oauth/token']);
    // with the secret typed again, or without a new destination, the change is its to make
    expect((await api('PATCH', '/api/settings', scoped, { smtp: { host: 'smtp2.example.com', password: 'typed-again' } })).status).toBe(200);
    expect((await api('PATCH', '/api/settings', scoped, { smtp: { username: 'other', password: '******' }, s3: { bucket: 'b2' } })).status).toBe(200);
    // a full admin is not asked
    expect((await api('PATCH', '/api/settings', full, { smtp: { host: 'smtp3.example.com' } })).status).toBe(200);
  });
});

describe("the audit trail's retention", () => {
  it('is for full admins only: a scoped admin with the logs area can neither read nor change it', async () => {
    await scopedRole(['logs'], []);
    const seen = await api('GET', '/api/settings', scoped);
    expect(seen.body.logs).toBeDefined();
    expect(seen.body.audit).toBeUndefined();
    expect((await api('PATCH', '/api/settings', scoped, { audit: { maxDays: 0 } })).body).toEqual(FORBIDDEN);
    expect((await api('PATCH', '/api/settings', scoped, { audit: { maxDays: 1 } })).body).toEqual(FORBIDDEN);
    expect((await api('PATCH', '/api/settings', scoped, { logs: { maxDays: 3 } })).status).toBe(200);
    const trail = await api('GET', '/api/outpost/audit?perPage=1', full);
    expect(trail.body.totalItems).toBeGreaterThan(0);
    expect((await api('GET', '/api/settings', full)).body.audit.maxDays).toBeGreaterThan(0);
  });
});
