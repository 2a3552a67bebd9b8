// The audit trail (issue 36) over HTTP: every change made with an admin token leaves one entry
// with its difference (records, collections and their API rules, imports, settings, admins,
// backups), naming the admin, its address and the request's id; secrets never appear; a change
// that fails leaves none; a collection's record history keeps every change by anyone while on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
let token: string;
let adminId: string;
const ADMIN = { email: 'audit-admin@example.com', password: 'admin-password' };

const api = (method: string, path: string, body?: unknown, auth: string | null = token) => http(srv.url, method, path, { token: auth ?? undefined, body });
type Entry = { id: string; created: string; area: string; action: string; collectionName: string; target: string; actorKind: string; actorId: string; actorEmail: string; ip: string; requestId: string; changes: Record<string, { old: unknown; new: unknown }> };
async function entries(query = ''): Promise<Entry[]> {
  const res = await api('GET', `/api/outpost/audit?perPage=500${query}`);
  expect(res.status).toBe(200);
  return res.body.items as Entry[];
}
const total = async () => (await api('GET', '/api/outpost/audit?perPage=1')).body.totalItems as number;

beforeAll(async () => {
  srv = await startServer();
  await http(srv.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  const auth = await srv.client().admins.authWithPassword(ADMIN.email, ADMIN.password);
  token = auth.token;
  adminId = auth.admin.id;
  const res = await api('POST', '/api/collections', {
    name: 'posts',
    type: 'base',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'n', type: 'number' },
    ],
    indexes: ['CREATE UNIQUE INDEX idx_posts_title ON posts (title)'],
    createRule: '',
    updateRule: '',
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await srv?.close();
});

describe('records changed with an admin token', () => {
  it('records create, update and delete with who, where, which request and the changed fields', async () => {
    const created = await api('POST', '/api/collections/posts/records', { title: 'first', n: 1 });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect((await api('PATCH', `/api/collections/posts/records/${id}`, { title: 'second' })).status).toBe(200);
    expect((await api('DELETE', `/api/collections/posts/records/${id}`)).status).toBe(204);

    const list = await entries(`&collection=posts&area=record&target=${id}`);
    expect(list.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    const [del, upd, cre] = list;
    for (const e of list) {
      expect(e).toMatchObject({ actorKind: 'admin', actorId: adminId, actorEmail: ADMIN.email, ip: '127.0.0.1', collectionName: 'posts', target: id });
      expect(e.requestId).toMatch(/^[a-z0-9]{15}$/);
    }
    expect(new Set(list.map((e) => e.requestId)).size).toBe(3);
    expect(cre.changes).toEqual({ id: { old: null, new: id }, title: { old: null, new: 'first' }, n: { old: null, new: 1 } });
    expect(upd.changes).toEqual({ title: { old: 'first', new: 'second' } });
    expect(del.changes).toMatchObject({ title: { old: 'second', new: null }, n: { old: 1, new: null } });
  });

  it("names the request log entry's id", async () => {
    const created = await api('POST', '/api/collections/posts/records', { title: 'logged' });
    const [entry] = await entries(`&target=${created.body.id as string}`);
    // the request log is written in batches (3 s after the last request)
    let found: unknown[] = [];
    for (let i = 0; i < 40 && found.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      found = (await api('GET', `/api/logs?filter=${encodeURIComponent(`id='${entry.requestId}'`)}`)).body.items as unknown[];
    }
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ message: 'POST /api/collections/posts/records' });
  });

  it('leaves no entry for a change that fails, in validation or in its transaction', async () => {
    await api('POST', '/api/collections/posts/records', { title: 'taken' });
    const before = await total();
    // the unique index refuses it inside the write's transaction
    const dup = await api('POST', '/api/collections/posts/records', { title: 'taken' });
    expect(dup.status).toBe(400);
    expect((await api('POST', '/api/collections/posts/records', { id: 'not a valid id!' })).status).toBe(400);
    expect((await api('POST', '/api/collections', { name: 'broken', type: 'base', listRule: 'nope = 1' })).status).toBe(400);
    expect((await api('PATCH', '/api/settings', { meta: { appUrl: 'not a url' } })).status).toBe(400);
    expect(await total()).toBe(before);
  });

  it('does not record a guest change while the collection keeps no history', async () => {
    const before = await total();
    expect((await api('POST', '/api/collections/posts/records', { title: 'by a guest' }, null)).status).toBe(200);
    expect(await total()).toBe(before);
  });
});

describe('a collection that keeps its records history', () => {
  it('records every change by anyone while on, and nothing once off', async () => {
    const on = await api('PATCH', '/api/outpost/audit/options/posts', { history: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ history: true });
    expect((await api('GET', '/api/outpost/audit/options')).body.history).toHaveLength(1);
    const [option] = await entries('&collection=posts&area=collection');
    expect(option.changes).toEqual({ 'audit.history': { old: false, new: true } });

    const guest = await api('POST', '/api/collections/posts/records', { title: 'guest history' }, null);
    expect(guest.status).toBe(200);
    const id = guest.body.id as string;
    expect((await api('PATCH', `/api/collections/posts/records/${id}`, { n: 5 }, null)).status).toBe(200);
    const list = await entries(`&target=${id}`);
    expect(list.map((e) => [e.action, e.actorKind, e.actorId])).toEqual([
      ['update', 'guest', ''],
      ['create', 'guest', ''],
    ]);
    expect(list[0].changes).toEqual({ n: { old: 0, new: 5 } });

    expect((await api('PATCH', '/api/outpost/audit/options/posts', { history: false })).body).toEqual({ history: false });
    const before = await total();
    expect((await api('PATCH', `/api/collections/posts/records/${id}`, { n: 6 }, null)).status).toBe(200);
    expect(await total()).toBe(before);
  });

  it('answers bad option bodies and unknown collections with the envelope', async () => {
    const bad = await api('PATCH', '/api/outpost/audit/options/posts', { history: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 400, data: { history: { code: expect.any(String) } } });
    expect((await api('PATCH', '/api/outpost/audit/options/nope', { history: true })).status).toBe(404);
    expect((await api('GET', '/api/outpost/audit', undefined, null)).status).toBe(401);
    expect((await api('GET', '/api/outpost/audit?from=yesterday')).status).toBe(400);
  });
});

describe('collections, rules and imports', () => {
  it('records a create, a field change, a rule change, an import and a delete with their differences', async () => {
    const created = await api('POST', '/api/collections', { name: 'notes', type: 'base', schema: [{ name: 'body', type: 'text' }] });
    expect(created.status).toBe(200);
    const c = created.body as { id: string; schema: Array<Record<string, unknown>> };
    expect((await api('PATCH', `/api/collections/${c.id}`, { listRule: '' })).status).toBe(200);
    expect((await api('PATCH', `/api/collections/${c.id}`, { schema: [...c.schema, { name: 'extra', type: 'bool' }] })).status).toBe(200);
    const all = (await api('GET', '/api/collections?perPage=200')).body.items as Array<Record<string, unknown>>;
    const imported = all.map((x) => (x.id === c.id ? { ...x, viewRule: '' } : x));
    expect((await api('PUT', '/api/collections/import', { collections: imported, deleteMissing: false })).status).toBe(204);
    expect((await api('DELETE', `/api/collections/${c.id}`)).status).toBe(204);

    const list = (await entries('&area=collection')).filter((e) => e.target === c.id || e.action === 'import');
    expect(list.map((e) => e.action)).toEqual(['delete', 'import', 'update', 'rules', 'create']);
    const [del, imp, upd, rules, cre] = list;
    expect(cre.changes.name).toEqual({ old: null, new: 'notes' });
    expect(rules.changes).toEqual({ listRule: { old: null, new: '' } });
    expect(Object.keys(upd.changes)).toEqual(['schema.extra']);
    expect(upd.changes['schema.extra'].old).toBeNull();
    expect(imp.changes).toEqual({ notes: { old: { viewRule: null }, new: { viewRule: '' } } });
    expect(del.changes.name).toEqual({ old: 'notes', new: null });
  });
});

describe('settings, admins and backups, with every secret redacted', () => {
  const SECRETS = ['smtp-secret-1', 's3-secret-22', 'backups-s3-secret-333', 'google-client-secret-4444', 'admin-token-secret-55555-xxxxxxxxxxxxxxxxxxxx', 'NewAdminPass-666'];

  it('records the settings difference with secrets masked', async () => {
    const res = await api('PATCH', '/api/settings', {
      meta: { appName: 'Audited' },
      smtp: { enabled: true, host: 'smtp.example.com', port: 2525, username: 'u', password: SECRETS[0] },
      s3: { enabled: false, bucket: 'b', region: 'r', endpoint: 'https://s3.example.com', accessKey: 'ak', secret: SECRETS[1] },
      backups: { s3: { enabled: false, bucket: 'b', region: 'r', endpoint: 'https://s3.example.com', accessKey: 'ak', secret: SECRETS[2] } },
      googleAuth: { enabled: true, clientId: 'gid', clientSecret: SECRETS[3] },
      adminAuthToken: { secret: SECRETS[4], duration: 1209600 },
    });
    expect(res.status).toBe(200);
    // (a new token secret revokes every admin token: sign in again)
    token = (await srv.client().admins.authWithPassword(ADMIN.email, ADMIN.password)).token;
    const [entry] = await entries('&area=settings');
    expect(entry.changes['meta.appName']).toEqual({ old: 'Acme', new: 'Audited' });
    for (const path of ['smtp.password', 's3.secret', 'backups.s3.secret', 'googleAuth.clientSecret']) {
      expect(entry.changes[path]).toEqual({ old: '', new: '******' });
    }
    expect(entry.changes['adminAuthToken.secret']).toEqual({ old: '******', new: '******' });
  });

  it('records admins created, changed and deleted without their password hash or token key', async () => {
    const other = await api('POST', '/api/admins', { email: 'second@example.com', password: 'first-pass-1', passwordConfirm: 'first-pass-1' });
    expect(other.status).toBe(200);
    expect((await api('PATCH', `/api/admins/${other.body.id as string}`, { password: SECRETS[5], passwordConfirm: SECRETS[5] })).status).toBe(200);
    expect((await api('DELETE', `/api/admins/${other.body.id as string}`)).status).toBe(204);
    const list = await entries(`&area=admin&target=${other.body.id as string}`);
    expect(list.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(list[2].changes.email).toEqual({ old: null, new: 'second@example.com' });
    expect(list[2].changes.passwordHash).toEqual({ old: null, new: '******' });
    expect(list[1].changes.passwordHash).toEqual({ old: '******', new: '******' });
    expect(list[1].changes.tokenKey).toEqual({ old: '******', new: '******' });
  });

  it("records an auth record's password change masked", async () => {
    const user = await api('POST', '/api/collections/users/records', { email: 'u1@example.com', password: 'user-pass-123', passwordConfirm: 'user-pass-123' });
    expect(user.status).toBe(200);
    const [entry] = await entries(`&target=${user.body.id as string}`);
    expect(entry.changes.passwordHash).toEqual({ old: null, new: '******' });
    expect(entry.changes.tokenKey).toEqual({ old: null, new: '******' });
    expect(entry.changes.email).toEqual({ old: null, new: 'u1@example.com' });
  });

  it('records backups created and deleted', async () => {
    expect((await api('POST', '/api/backups', { name: 'audit_test.zip' })).status).toBe(204);
    expect((await api('DELETE', '/api/backups/audit_test.zip')).status).toBe(204);
    const list = await entries('&area=backup');
    expect(list.map((e) => [e.action, e.target])).toEqual([
      ['delete', 'audit_test.zip'],
      ['create', 'audit_test.zip'],
    ]);
  });

  it('never exports a secret, a password hash or a token key, as JSON or CSV', async () => {
    const json = await fetch(`${srv.url}/api/outpost/audit/export?format=json`, { headers: { Authorization: token } });
    expect(json.headers.get('content-disposition')).toMatch(/attachment; filename="audit_\d+\.json"/);
    const csv = await fetch(`${srv.url}/api/outpost/audit/export?format=csv`, { headers: { Authorization: token } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const texts = [await json.text(), await csv.text()];
    expect(JSON.parse(texts[0]).length).toBe(await total());
    expect(texts[1].split('\r\n')[0]).toBe('id,created,area,action,collectionName,target,actorKind,actorId,actorEmail,ip,requestId,changes');
    for (const text of texts) {
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/\$2[aby]\$/); // bcrypt hashes
    }
  });
});

describe('filters and retention', () => {
  it('filters by who, collection, action and time', async () => {
    expect((await entries(`&actor=${encodeURIComponent('audit-admin@')}`)).every((e) => e.actorEmail === ADMIN.email)).toBe(true);
    expect((await entries('&action=delete&collection=posts')).every((e) => e.action === 'delete' && e.collectionName === 'posts')).toBe(true);
    expect(await entries('&from=2000-01-01&to=2000-01-02')).toEqual([]);
    expect((await entries(`&from=${new Date(Date.now() - 3600_000).toISOString()}`)).length).toBe(await total());
  });

  it('turns the trail off and clears it with a retention of 0 days', async () => {
    expect((await api('PATCH', '/api/settings', { audit: { maxDays: 0 } })).status).toBe(200);
    expect(await total()).toBe(0);
    expect((await api('POST', '/api/collections/posts/records', { title: 'untracked' })).status).toBe(200);
    expect(await total()).toBe(0);
    expect((await api('PATCH', '/api/settings', { audit: { maxDays: 30 } })).status).toBe(200);
    expect((await api('POST', '/api/collections/posts/records', { title: 'tracked again' })).status).toBe(200);
    expect(await total()).toBe(2); // the settings change is the trail's first entry again
  });
});
