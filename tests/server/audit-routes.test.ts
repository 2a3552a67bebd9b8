// The audit trail (issue 36): "every change made with an admin token is recorded". The route table
// (server/http/permissions.ts) is walked: every write route (POST, PATCH, PUT, DELETE) either has
// a case below, which makes a change through it with an admin token and finds the newest entry to
// be that request's, by that admin, or is an exception named with its reason. A new write route
// with neither fails the first test. In-process (the 'server' project): the table is the app's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { routePermissions } from '../../server/http/permissions';

let srv: TestServer;
let token = '';
let adminId = '';
const ADMIN = { email: 'walker@example.com', password: 'walker-pass-123' };
const ids: Record<string, string> = {};

const api = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token, body });
type Entry = { area: string; action: string; actorKind: string; actorId: string; requestId: string; ip: string };
const newest = async (): Promise<Entry | undefined> => (await api('GET', '/api/outpost/audit?perPage=1')).body.items[0] as Entry | undefined;

/** Write routes that change nothing the trail keeps, or that no admin token makes: why. */
const EXCEPTIONS: Record<string, string> = {
  'POST /api/admins/auth-with-password': 'a sign-in: gives a token, stores nothing',
  'POST /api/admins/auth-refresh': 'a new token: stores nothing',
  'POST /api/admins/request-password-reset': "a guest's request (no admin token): the mail's timestamp is kept as the guest's admin change",
  'POST /api/admins/confirm-password-reset': "a guest's request (no admin token): the new password is kept as the guest's admin change",
  'POST /api/collections/:collection/request-verification': "an auth collection's own flow: no admin token",
  'POST /api/collections/:collection/confirm-verification': "an auth collection's own flow: no admin token",
  'POST /api/collections/:collection/request-email-change': "an auth collection's own flow: no admin token",
  'POST /api/collections/:collection/confirm-email-change': "an auth collection's own flow: no admin token",
  'POST /api/collections/:collection/request-password-reset': "an auth collection's own flow: no admin token",
  'POST /api/collections/:collection/confirm-password-reset': "an auth collection's own flow: no admin token",
  'POST /api/collections/:collection/auth-with-password': "an auth collection's sign-in: no admin token",
  'POST /api/collections/:collection/auth-refresh': "an auth collection's token refresh: no admin token",
  'POST /api/collections/:collection/auth-with-oauth2': "an auth collection's sign-in: no admin token",
  'POST /api/collections/:collection/records-by-ids': 'a read (the ids travel in the body)',
  'POST /api/files/token': 'a short-lived file token: stores nothing',
  'POST /api/realtime': "a realtime client's subscriptions: stores nothing",
  'POST /api/settings/test/email': 'sends a test mail: stores nothing',
  'POST /api/settings/test/s3': 'checks a bucket: stores nothing',
  'POST /api/settings/apple/generate-client-secret': 'computes a secret and answers it: the settings change that saves it is recorded',
  'POST /api/outpost/sql': 'the SQL console runs read-only statements only',
  'POST /api/outpost/sql/csv': 'the SQL console runs read-only statements only',
};

interface Case {
  /** "METHOD url" of the route table. */
  route: string;
  /** The entry's area. */
  area: string;
  /** Set-up requests (their entries do not count). */
  setup?: () => Promise<void>;
  /** The change, made with the admin's token: 2xx. */
  run: () => Promise<{ status: number; body: unknown }>;
}

const ok = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res;
};

async function uploadBackup(name: string): Promise<{ status: number; body: unknown }> {
  const fileToken = (await api('POST', '/api/files/token')).body.token as string;
  const zip = await (await fetch(`${srv.url}/api/backups/walk_a.zip?token=${fileToken}`)).arrayBuffer();
  const form = new FormData();
  form.append('file', new Blob([zip], { type: 'application/zip' }), name);
  const res = await fetch(`${srv.url}/api/backups/upload`, { method: 'POST', body: form, headers: { Authorization: token } });
  return { status: res.status, body: await res.text() };
}

/** In this order (the restore last: it brings back the backup's data). */
const CASES: Case[] = [
  { route: 'POST /api/admins', area: 'admin', run: async () => ok(await api('POST', '/api/admins', { email: 'walked@example.com', password: 'walked-pass-1', passwordConfirm: 'walked-pass-1' })) },
  { route: 'PATCH /api/admins/:id', area: 'admin', run: async () => api('PATCH', `/api/admins/${ids.admin}`, { email: 'walked2@example.com' }) },
  { route: 'POST /api/outpost/roles', area: 'role', run: async () => api('POST', '/api/outpost/roles', { name: 'Walkers', areas: { logs: true } }) },
  { route: 'PATCH /api/outpost/roles/:id', area: 'role', run: async () => api('PATCH', `/api/outpost/roles/${ids.role}`, { areas: { logs: true, mail: true } }) },
  { route: 'PUT /api/outpost/admin-roles/:id', area: 'role', run: async () => api('PUT', `/api/outpost/admin-roles/${ids.admin}`, { role: ids.role }) },
  {
    route: 'DELETE /api/outpost/roles/:id',
    area: 'role',
    setup: async () => void ok(await api('PUT', `/api/outpost/admin-roles/${ids.admin}`, { role: '' })),
    run: async () => api('DELETE', `/api/outpost/roles/${ids.role}`),
  },
  { route: 'DELETE /api/admins/:id', area: 'admin', run: async () => api('DELETE', `/api/admins/${ids.admin}`) },
  { route: 'POST /api/collections', area: 'collection', run: async () => api('POST', '/api/collections', { name: 'walked', type: 'base', schema: [{ name: 'title', type: 'text' }] }) },
  { route: 'PATCH /api/collections/:collection', area: 'collection', run: async () => api('PATCH', '/api/collections/walked', { listRule: '' }) },
  {
    route: 'PUT /api/collections/import',
    area: 'collection',
    run: async () => {
      const all = (await api('GET', '/api/collections?perPage=200')).body.items as Array<Record<string, unknown>>;
      return api('PUT', '/api/collections/import', { collections: all.map((c) => (c.name === 'walked' ? { ...c, viewRule: '' } : c)), deleteMissing: false });
    },
  },
  { route: 'PATCH /api/outpost/audit/options/:collection', area: 'collection', run: async () => api('PATCH', '/api/outpost/audit/options/walked', { history: true }) },
  { route: 'POST /api/collections/:collection/records', area: 'record', run: async () => api('POST', '/api/collections/walked/records', { title: 'a' }) },
  { route: 'PATCH /api/collections/:collection/records/:id', area: 'record', run: async () => api('PATCH', `/api/collections/walked/records/${ids.record}`, { title: 'b' }) },
  { route: 'POST /api/collections/:collection/records-import', area: 'record', run: async () => api('POST', '/api/collections/walked/records-import', { items: [{ data: { title: 'imported' } }] }) },
  { route: 'DELETE /api/collections/:collection/records/:id', area: 'record', run: async () => api('DELETE', `/api/collections/walked/records/${ids.record}`) },
  { route: 'DELETE /api/collections/:collection', area: 'collection', run: async () => api('DELETE', '/api/collections/walked') },
  {
    route: 'DELETE /api/collections/:collection/records/:id/external-auths/:provider',
    area: 'record',
    setup: async () => {
      const user = ok(await api('POST', '/api/collections/users/records', { email: 'linked@example.com', password: 'linked-pass-1', passwordConfirm: 'linked-pass-1' }));
      ids.user = (user.body as { id: string; collectionId: string }).id;
      const now = new Date().toISOString().replace('T', ' ');
      srv.app.db
        .prepare('INSERT INTO _externalAuths (id, collectionId, recordId, provider, providerId, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run('walklink0000001', (user.body as { collectionId: string }).collectionId, ids.user, 'google', 'google-user-1', now, now);
    },
    run: async () => api('DELETE', `/api/collections/users/records/${ids.user}/external-auths/google`),
  },
  { route: 'PATCH /api/settings', area: 'settings', run: async () => api('PATCH', '/api/settings', { meta: { appName: 'Walked' } }) },
  { route: 'POST /api/backups', area: 'backup', run: async () => api('POST', '/api/backups', { name: 'walk_a.zip' }) },
  { route: 'POST /api/backups/upload', area: 'backup', run: async () => uploadBackup('walk_b.zip') },
  { route: 'DELETE /api/backups/:key', area: 'backup', run: async () => api('DELETE', '/api/backups/walk_b.zip') },
  { route: 'POST /api/backups/:key/restore', area: 'backup', run: async () => api('POST', '/api/backups/walk_a.zip/restore') },
];

beforeAll(async () => {
  srv = await startServer();
  await http(srv.url, 'POST', '/api/admins', { body: { ...ADMIN, passwordConfirm: ADMIN.password } });
  const res = await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } });
  token = res.body.token;
  adminId = res.body.admin.id;
});

afterAll(async () => {
  await srv?.close();
});

describe('every write route made with an admin token', () => {
  it('has a case here or a named exception', () => {
    const writes = routePermissions(srv.app.fastify)
      .filter((r) => ['POST', 'PATCH', 'PUT', 'DELETE'].includes(r.method))
      .map((r) => `${r.method} ${r.url}`);
    expect(writes.length).toBeGreaterThan(30);
    const cased = new Set(CASES.map((c) => c.route));
    expect(writes.filter((k) => !cased.has(k) && !(k in EXCEPTIONS)), 'write routes without an audit case or a named exception').toEqual([]);
    // no stale names
    expect([...cased, ...Object.keys(EXCEPTIONS)].filter((k) => !writes.includes(k))).toEqual([]);
    expect(CASES.filter((c) => c.route in EXCEPTIONS).map((c) => c.route)).toEqual([]);
  });

  it('leaves its entry: the newest one, of the request that made the change, by its admin', async () => {
    let previous = (await newest())?.requestId;
    for (const c of CASES) {
      await c.setup?.();
      if (c.setup) previous = (await newest())?.requestId;
      const res = ok(await c.run());
      const body = res.body as { id?: string };
      if (c.route === 'POST /api/admins') ids.admin = body.id!;
      if (c.route === 'POST /api/outpost/roles') ids.role = body.id!;
      if (c.route === 'POST /api/collections/:collection/records') ids.record = body.id!;
      // (a restore's answer comes before the restart: the next request waits for the restored app)
      const entry = await newest();
      expect(entry, c.route).toMatchObject({ area: c.area, actorKind: 'admin', actorId: adminId, ip: '127.0.0.1' });
      expect(entry!.requestId, `${c.route}: an entry of its own request`).not.toBe(previous);
      expect(entry!.requestId).toMatch(/^[a-z0-9]{15}$/);
      previous = entry!.requestId;
    }
  }, 120_000); // 22 changes, a backup and a restore among them, on a shared machine
});
