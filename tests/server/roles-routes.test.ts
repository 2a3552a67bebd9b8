// Admin roles (issue 36), enforced by the server. The route table is walked: every route must
// declare a permission (server/http/permissions.ts) and every route that is not open must have a
// case below, run twice: by a scoped admin whose role grants exactly what the route needs (any
// answer but 401/403) and by one whose role grants nothing (0.22's 403 envelope). One admin is
// switched between roles, so each case also proves a role change counts from the next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type TestServer } from '../helpers/server';
import { routePermissions, ROUTE_PERMISSIONS } from '../../server/http/permissions';
import { settingsSections } from '../../server/services/settings-index';
import { AREA_OF_SETTINGS_SCHEMA } from '../../server/roles/settings-areas';
import { AREAS, type Area, type CollectionGrant } from '../../src/lib/roles';

let srv: TestServer;
let full = '';
let scoped = '';
let scopedId = '';
let otherId = '';
let postsId = '';
let postId = '';
let userId = '';
const FORBIDDEN = { code: 403, message: 'You are not allowed to perform this request.', data: {} };
const roleIds = new Map<string, string>();

const api = (method: string, url: string, token: string, body?: unknown) => http(srv.url, method, url, { token, body });

async function signIn(email: string): Promise<{ token: string; id: string }> {
  const res = await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password: '1234567890' } });
  return { token: res.body.token, id: res.body.admin.id };
}

async function role(name: string, areas: Area[] = [], collections: CollectionGrant[] = []): Promise<string> {
  if (roleIds.has(name)) return roleIds.get(name)!;
  const res = await api('POST', '/api/outpost/roles', full, { name, areas: Object.fromEntries(areas.map((a) => [a, true])), collections });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  roleIds.set(name, res.body.id);
  return res.body.id;
}

async function give(roleId: string | null): Promise<void> {
  const res = await api('PUT', `/api/outpost/admin-roles/${scopedId}`, full, { role: roleId ?? '' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  srv = await startServer();
  await http(srv.url, 'POST', '/api/admins', { body: { email: 'full@example.com', password: '1234567890', passwordConfirm: '1234567890' } });
  full = (await signIn('full@example.com')).token;
  for (const email of ['scoped@example.com', 'other@example.com']) {
    expect((await api('POST', '/api/admins', full, { email, password: '1234567890', passwordConfirm: '1234567890' })).status).toBe(200);
  }
  ({ token: scoped, id: scopedId } = await signIn('scoped@example.com'));
  otherId = (await signIn('other@example.com')).id;
  const users = await api('GET', '/api/collections/users', full);
  const posts = await api('POST', '/api/collections', full, {
    name: 'posts',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'author', type: 'relation', options: { collectionId: users.body.id, maxSelect: 1 } },
    ],
  });
  expect(posts.status, JSON.stringify(posts.body)).toBe(200);
  postsId = posts.body.id;
  expect((await api('POST', '/api/collections', full, { name: 'secret', schema: [{ name: 'title', type: 'text' }] })).status).toBe(200);
  const user = await api('POST', '/api/collections/users/records', full, { email: 'u@example.com', password: '1234567890', passwordConfirm: '1234567890' });
  userId = user.body.id;
  postId = (await api('POST', '/api/collections/posts/records', full, { title: 'hello', author: userId })).body.id;
  await role('nothing');
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

type Grant = { areas?: Area[]; collections?: CollectionGrant[]; full?: true };
interface Case {
  /** "METHOD url" of the route table. */
  route: string;
  /** The request: path and body. */
  path: string;
  body?: unknown;
  /** The narrowest role that may; `full` for full admins only (then no role may). */
  grant: Grant;
  /** The scoped admin's own id in the path: passes with any role (`self`). */
  self?: boolean;
}

const posts = (g: Omit<CollectionGrant, 'collection'>): Grant => ({ collections: [{ collection: postsId, ...g }] });
const all = (g: Omit<CollectionGrant, 'collection'>): Grant => ({ collections: [{ collection: '*', ...g }] });
const users = (g: Omit<CollectionGrant, 'collection'>): Grant => ({ collections: [{ collection: 'users', ...g }] });

const CASES = (): Case[] => [
  { route: 'GET /api/admins', path: '/api/admins', grant: { areas: ['admins'] } },
  { route: 'POST /api/admins', path: '/api/admins', body: {}, grant: { full: true } },
  { route: 'GET /api/admins/:id', path: `/api/admins/${otherId}`, grant: { areas: ['admins'] } },
  { route: 'PATCH /api/admins/:id', path: `/api/admins/${otherId}`, body: {}, grant: { full: true } },
  { route: 'DELETE /api/admins/:id', path: '/api/admins/missing', grant: { full: true } },
  { route: 'GET /api/outpost/roles', path: '/api/outpost/roles', grant: { full: true } },
  { route: 'POST /api/outpost/roles', path: '/api/outpost/roles', body: {}, grant: { full: true } },
  { route: 'GET /api/outpost/roles/:id', path: '/api/outpost/roles/missing', grant: { full: true } },
  { route: 'PATCH /api/outpost/roles/:id', path: '/api/outpost/roles/missing', body: {}, grant: { full: true } },
  { route: 'DELETE /api/outpost/roles/:id', path: '/api/outpost/roles/missing', grant: { full: true } },
  { route: 'GET /api/outpost/admin-roles', path: '/api/outpost/admin-roles', grant: { full: true } },
  { route: 'PUT /api/outpost/admin-roles/:id', path: `/api/outpost/admin-roles/${otherId}`, body: { role: '' }, grant: { full: true } },
  { route: 'GET /api/collections/:collection', path: '/api/collections/posts', grant: posts({ schema: 'view' }) },
  { route: 'POST /api/collections', path: '/api/collections', body: { name: '' }, grant: all({ schema: 'edit' }) },
  { route: 'PATCH /api/collections/:collection', path: '/api/collections/posts', body: {}, grant: posts({ schema: 'edit' }) },
  { route: 'DELETE /api/collections/:collection', path: '/api/collections/missing', grant: all({ schema: 'edit' }) },
  { route: 'PUT /api/collections/import', path: '/api/collections/import', body: { collections: [] }, grant: { areas: ['collectionsImportExport'] } },
  { route: 'GET /api/collections/:collection/records', path: '/api/collections/posts/records', grant: posts({ read: true }) },
  { route: 'GET /api/collections/:collection/records/:id', path: `/api/collections/posts/records/${postId}`, grant: posts({ read: true }) },
  { route: 'POST /api/collections/:collection/records', path: '/api/collections/posts/records', body: { title: 'new' }, grant: posts({ create: true }) },
  { route: 'PATCH /api/collections/:collection/records/:id', path: `/api/collections/posts/records/${postId}`, body: { title: 'edited' }, grant: posts({ update: true }) },
  { route: 'DELETE /api/collections/:collection/records/:id', path: '/api/collections/posts/records/missing', grant: posts({ delete: true }) },
  { route: 'GET /api/collections/:collection/records-ids', path: '/api/collections/posts/records-ids', grant: posts({ read: true }) },
  { route: 'POST /api/collections/:collection/records-by-ids', path: '/api/collections/posts/records-by-ids', body: { ids: [postId] }, grant: posts({ read: true }) },
  { route: 'POST /api/collections/:collection/records-import', path: '/api/collections/posts/records-import', body: { items: [] }, grant: posts({ create: true, update: true }) },
  { route: 'GET /api/collections/:collection/records/:id/external-auths', path: `/api/collections/users/records/${userId}/external-auths`, grant: users({ read: true }) },
  { route: 'DELETE /api/collections/:collection/records/:id/external-auths/:provider', path: `/api/collections/users/records/${userId}/external-auths/google`, grant: users({ update: true }) },
  { route: 'POST /api/settings/test/email', path: '/api/settings/test/email', body: {}, grant: { areas: ['mail'] } },
  { route: 'POST /api/settings/test/s3', path: '/api/settings/test/s3', body: { filesystem: 'storage' }, grant: { areas: ['storage'] } },
  { route: 'POST /api/settings/apple/generate-client-secret', path: '/api/settings/apple/generate-client-secret', body: {}, grant: { areas: ['authProviders'] } },
  { route: 'PATCH /api/settings', path: '/api/settings', body: { smtp: { enabled: false } }, grant: { areas: ['mail'] } },
  { route: 'GET /api/logs', path: '/api/logs', grant: { areas: ['logs'] } },
  { route: 'GET /api/logs/stats', path: '/api/logs/stats', grant: { areas: ['logs'] } },
  { route: 'GET /api/logs/:id', path: '/api/logs/missing', grant: { areas: ['logs'] } },
  { route: 'GET /api/backups', path: '/api/backups', grant: { areas: ['backups'] } },
  { route: 'POST /api/backups', path: '/api/backups', body: { name: 'bad name' }, grant: { areas: ['backups'] } },
  { route: 'POST /api/backups/upload', path: '/api/backups/upload', body: {}, grant: { areas: ['backups'] } },
  { route: 'DELETE /api/backups/:key', path: '/api/backups/missing.zip', grant: { areas: ['backups'] } },
  { route: 'POST /api/backups/:key/restore', path: '/api/backups/missing.zip/restore', grant: { areas: ['backups'] } },
  { route: 'GET /api/outpost/backups/migrations', path: '/api/outpost/backups/migrations', grant: { areas: ['backups'] } },
  { route: 'GET /api/outpost/backups/:key/migrations', path: '/api/outpost/backups/missing.zip/migrations', grant: { areas: ['backups'] } },
  { route: 'GET /api/outpost/audit', path: '/api/outpost/audit', grant: { full: true } },
  { route: 'GET /api/outpost/audit/export', path: '/api/outpost/audit/export', grant: { full: true } },
  { route: 'GET /api/outpost/audit/options', path: '/api/outpost/audit/options', grant: { full: true } },
  { route: 'GET /api/outpost/audit/options/:collection', path: '/api/outpost/audit/options/posts', grant: posts({ schema: 'view' }) },
  { route: 'PATCH /api/outpost/audit/options/:collection', path: '/api/outpost/audit/options/posts', body: {}, grant: posts({ schema: 'edit' }) },
  { route: 'GET /api/outpost/migrations', path: '/api/outpost/migrations', grant: { areas: ['migrations'] } },
  { route: 'GET /api/outpost/hooks', path: '/api/outpost/hooks', grant: { full: true } },
  { route: 'POST /api/outpost/sql', path: '/api/outpost/sql', body: { sql: 'SELECT 1' }, grant: { areas: ['sqlConsole'] } },
  { route: 'POST /api/outpost/sql/csv', path: '/api/outpost/sql/csv', body: { sql: 'SELECT 1' }, grant: { areas: ['sqlConsole'] } },
];

/** Routes whose handler judges (filters what it shows, or judges per file/topic/id): tested on their own below. */
const JUDGED_BELOW = new Set([
  'GET /api/collections',
  'GET /api/settings',
  'GET /api/files/:collection/:recordId/:filename',
  'POST /api/realtime',
  'GET /api/outpost/find-record/:id',
  'GET /api/backups/:key',
]);

describe('the route table', () => {
  it('gives every route a permission, and every route that is not open a case', () => {
    const table = routePermissions(srv.app.fastify);
    expect(table.length).toBeGreaterThan(60);
    const missing = table.filter((r) => !r.permission).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes without a permission (declare one in ROUTE_PERMISSIONS or the route config)').toEqual([]);
    const cased = new Set(CASES().map((c) => c.route));
    const uncovered = table
      .filter((r) => r.permission && !('open' in r.permission))
      .map((r) => `${r.method} ${r.url}`)
      .map((k) => k.replace(/^HEAD /, 'GET '))
      .filter((k) => !cased.has(k) && !JUDGED_BELOW.has(k));
    expect(uncovered, 'routes with no scoped-admin case in this file').toEqual([]);
    // no stale declarations (the dashboard's and the public folder's routes exist only when served)
    const keys = new Set(table.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(ROUTE_PERMISSIONS).filter((k) => k.includes(' /api/') && !keys.has(k))).toEqual([]);
  });

  it('names an area for every section of the settings index', () => {
    expect(settingsSections().filter((s) => !(s.schema in AREA_OF_SETTINGS_SCHEMA)).map((s) => s.schema)).toEqual([]);
    for (const area of Object.values(AREA_OF_SETTINGS_SCHEMA)) expect([...AREAS, 'full']).toContain(area);
  });
});

describe('each route: a scoped admin that may, and one that may not', () => {
  // the cases name ids made in beforeAll: built again when each runs
  it.each(CASES().map((c) => c.route))('%s', async (route) => {
    const c = CASES().find((x) => x.route === route)!;
    const [method] = c.route.split(' ');
    if (c.grant.full) {
      // no role may: even one granting every area and collection
      await give(await role('everything', [...AREAS], [{ collection: '*', read: true, create: true, update: true, delete: true, schema: 'edit' }]));
      const res = await api(method, c.path, scoped, c.body);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      const byFull = await api(method, c.path, full, c.body);
      expect([401, 403]).not.toContain(byFull.status);
      return;
    }
    await give(await role(`may ${c.route}`, c.grant.areas, c.grant.collections));
    const may = await api(method, c.path, scoped, c.body);
    expect([401, 403], `${c.route} with its grant: ${may.status} ${JSON.stringify(may.body)}`).not.toContain(may.status);
    await give(roleIds.get('nothing')!);
    const mayNot = await api(method, c.path, scoped, c.body);
    expect(mayNot.status, JSON.stringify(mayNot.body)).toBe(403);
    expect(mayNot.body).toEqual(FORBIDDEN);
  });
});
