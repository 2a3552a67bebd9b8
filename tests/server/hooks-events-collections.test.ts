// pb_hooks (issue 34), the collections API: every request fires the hook events 0.22's fires, as
// many times, in the order 0.22's code fixes (apis/collection.go, forms/collection_upsert.go,
// forms/collections_import.go, daos/collection.go: the model hooks of a collection write, tag
// `_collections`; an import's per write, its after hooks at its commit). The specification is
// 0.22.12's apis/collection_test.go, replayed on a copy of the same data with the recording hooks
// folder (tests/helpers/hooks-events-project.ts, runner: tests/helpers/hooks-events-runner.ts).
// A second hook file, loaded after it, notes what the collection hooks' handlers see and changes
// or refuses what a test asks it to. A scenario that changes the collections puts them back (an
// import of the fixture's collections with deleteMissing, then their rows' timestamps: 0.22's
// import deletes oldest first). The built server in 'server-built', started twice.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/cli';
import { EVENTS_HOOK_FILES } from '../helpers/hooks-events-project';
import { chain, eventsClient, type Scenario } from '../helpers/hooks-events-runner';
import { T } from '../helpers/record-auth-fixture';
import { FIXTURE_DIR, http, tempDir } from '../helpers/server';
import type { ServerProcess } from '../helpers/server-process';

const work = tempDir('outpost-hooks-events-collections-');
const dataDir = path.join(work, 'pb_data');
let srv: ServerProcess;
/** The fixture's collections as the API lists them, and their `_collections` rows. */
let fixtureCollections: Array<Record<string, unknown>> = [];
let fixtureRows: Record<string, unknown>[] = [];

const call = (method: string, p: string, opts: Parameters<typeof http>[3] = {}) => http(srv.url, method, p, opts);
const { recorded, act, restoreRows, check } = eventsClient(call);
const admin = (method: string, p: string, body?: unknown) => call(method, p, { token: T.admin, ...(body !== undefined ? { body } : {}) });

/** Loaded after events.pb.js: notes what each collection hook's handlers see, changes or refuses on request. */
const COLLECTION_HOOKS = ['onCollectionsListRequest', 'onCollectionViewRequest', 'onCollectionBeforeCreateRequest', 'onCollectionAfterCreateRequest', 'onCollectionBeforeUpdateRequest', 'onCollectionAfterUpdateRequest', 'onCollectionBeforeDeleteRequest', 'onCollectionAfterDeleteRequest', 'onCollectionsBeforeImportRequest', 'onCollectionsAfterImportRequest'];
const MODEL_HOOKS = ['onModelBeforeCreate', 'onModelAfterCreate', 'onModelBeforeUpdate', 'onModelAfterUpdate', 'onModelBeforeDelete', 'onModelAfterDelete'];
const COLLECTIONS_HOOK_FILE = `/// <reference path="../pb_data/types.d.ts" />
const seen = (e) => ({
  collection: e.collection ? { id: e.collection.id, name: e.collection.name, listRule: e.collection.listRule, isNew: e.collection.isNew(), fields: e.collection.schema.fields().map((f) => f.name) } : "absent",
  collections: e.collections ? e.collections.map((c) => c.name) : "absent",
  result: e.result ? { page: e.result.page, perPage: e.result.perPage, totalItems: e.result.totalItems, totalPages: e.result.totalPages } : "absent",
  model: e.model ? { table: e.model.tableName(), name: e.model.name, isNew: e.model.isNew() } : "absent",
  request: e.httpContext ? e.httpContext.request().method : "absent",
});
// X-Collection-Change-Hook names the hook, X-Collection-Change the properties it sets on
// e.collection (or on each of e.collections; {stop: true}: it returns false); a model hook is named
// by POST /__collections/model/:name, its body the properties
const act = (name) => (e) => {
  $app.store().set("seen:" + name, seen(e));
  const c = e.httpContext;
  const wanted = c ? c.request().header.get("X-Collection-Change-Hook") === name : $app.store().get("model-act") === name;
  if (!wanted) return;
  const props = c ? JSON.parse(c.request().header.get("X-Collection-Change")) : $app.store().get("model-change");
  if (props.stop) return false;
  for (const target of e.collections || [e.collection || e.model]) Object.assign(target, props);
};
${COLLECTION_HOOKS.map((name) => `${name}(act(${JSON.stringify(name)}));`).join('\n')}
${MODEL_HOOKS.map((name) => `${name}(act(${JSON.stringify(name)}), "_collections");`).join('\n')}

routerAdd("GET", "/__collections/seen/:name", (c) => c.json(200, $app.store().get("seen:" + c.pathParam("name")) ?? null));
routerAdd("POST", "/__collections/model/:name", (c) => {
  $app.store().set("model-act", c.pathParam("name"));
  $app.store().set("model-change", $apis.requestInfo(c).data);
  return c.noContent(204);
});
`;

/** The collections back as the fixture has them (the import API itself, then the rows' timestamps). */
async function restoreCollections(): Promise<void> {
  expect((await call('DELETE', '/__events')).status).toBe(204);
  const res = await admin('PUT', '/api/collections/import', { collections: fixtureCollections, deleteMissing: true });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  await restoreRows('_collections', fixtureRows);
}

type Table = 'collections';
const scenario = (s: Scenario<Table>) => s;

const VIEW = { OnCollectionViewRequest: 1 };
const LIST = { OnCollectionsListRequest: 1 };
const CREATE = chain('OnCollectionBeforeCreateRequest', 'OnModelBeforeCreate', 'OnModelAfterCreate', 'OnCollectionAfterCreateRequest');
const UPDATE = chain('OnCollectionBeforeUpdateRequest', 'OnModelBeforeUpdate', 'OnModelAfterUpdate', 'OnCollectionAfterUpdateRequest');
const DELETE = chain('OnCollectionBeforeDeleteRequest', 'OnModelBeforeDelete', 'OnModelAfterDelete', 'OnCollectionAfterDeleteRequest');
const changed: Table[] = ['collections'];
const RESERVED_AUTH = ['email', 'username', 'verified', 'emailVisibility', 'lastResetSentAt', 'lastVerificationSentAt', 'tokenKey', 'passwordHash', 'password', 'passwordConfirm', 'oldPassword'].map((name) => ({ type: 'text', name }));
const RESERVED_BASE = ['id', 'created', 'updated', 'expand', 'collectionId', 'collectionName'].map((name) => ({ type: 'text', name }));
const IMPORT_THREE = {
  collections: [
    { name: 'import1', schema: [{ id: 'koih1lqx', name: 'test', type: 'text' }] },
    { name: 'import2', schema: [{ id: 'koih1lqx', name: 'test', type: 'text' }], indexes: ['create index idx_test on import2 (test)'] },
    { name: 'auth_without_schema', type: 'auth' },
  ],
};
const NOLOGIN_IMPORT = {
  id: 'kpv709sk2lqbqk8',
  system: true,
  name: 'nologin',
  type: 'auth',
  options: { allowEmailAuth: false, allowOAuth2Auth: false, allowUsernameAuth: false, exceptEmailDomains: [], manageRule: "@request.auth.collectionName = 'users'", minPasswordLength: 8, onlyEmailDomains: [], requireEmail: true },
  listRule: '',
  viewRule: '',
  createRule: '',
  updateRule: '',
  deleteRule: '',
  schema: [{ id: 'x8zzktwe', name: 'name', type: 'text', system: false, required: false, unique: false, options: { min: null, max: null, pattern: '' } }],
};
const DEMO1_IMPORT = { id: 'wsmn24bux7wo113', name: 'demo1', schema: [{ id: '_2hlxbmp', name: 'title', type: 'text', system: false, required: true, unique: false, options: { min: 3, max: null, pattern: '' } }] };
const NINE = ['OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete', 'OnModelBeforeDelete'];

const SCENARIOS: Array<Scenario<Table>> = [
  // ---- TestCollectionsList ------------------------------------------------------------------
  scenario({ area: 'TestCollectionsList', name: 'unauthorized', method: 'GET', url: '/api/collections', status: 401, events: {} }),
  scenario({ area: 'TestCollectionsList', name: 'authorized as user', method: 'GET', url: '/api/collections', token: T.user1, status: 401, events: {} }),
  scenario({ area: 'TestCollectionsList', name: 'authorized as admin', method: 'GET', url: '/api/collections', token: T.admin, status: 200, events: LIST }),
  scenario({ area: 'TestCollectionsList', name: 'authorized as admin + paging and sorting', method: 'GET', url: '/api/collections?page=2&perPage=2&sort=-created', token: T.admin, status: 200, events: LIST }),
  scenario({ area: 'TestCollectionsList', name: 'authorized as admin + invalid filter', method: 'GET', url: "/api/collections?filter=invalidfield~'demo2'", token: T.admin, status: 400, events: {} }),
  scenario({ area: 'TestCollectionsList', name: 'authorized as admin + valid filter', method: 'GET', url: "/api/collections?filter=name~'demo'", token: T.admin, status: 200, events: LIST }),

  // ---- TestCollectionView -------------------------------------------------------------------
  scenario({ area: 'TestCollectionView', name: 'unauthorized', method: 'GET', url: '/api/collections/demo1', status: 401, events: {} }),
  scenario({ area: 'TestCollectionView', name: 'authorized as user', method: 'GET', url: '/api/collections/demo1', token: T.user1, status: 401, events: {} }),
  scenario({ area: 'TestCollectionView', name: 'authorized as admin + nonexisting collection identifier', method: 'GET', url: '/api/collections/missing', token: T.admin, status: 404, events: {} }),
  scenario({ area: 'TestCollectionView', name: 'authorized as admin + using the collection name', method: 'GET', url: '/api/collections/demo1', token: T.admin, status: 200, events: VIEW }),
  scenario({ area: 'TestCollectionView', name: 'authorized as admin + using the collection id', method: 'GET', url: '/api/collections/wsmn24bux7wo113', token: T.admin, status: 200, events: VIEW }),

  // ---- TestCollectionDelete -----------------------------------------------------------------
  scenario({ area: 'TestCollectionDelete', name: 'unauthorized', method: 'DELETE', url: '/api/collections/demo1', status: 401, events: {} }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as user', method: 'DELETE', url: '/api/collections/demo1', token: T.user1, status: 401, events: {} }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as admin + nonexisting collection identifier', method: 'DELETE', url: '/api/collections/missing', token: T.admin, status: 404, events: {} }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as admin + using the collection name', method: 'DELETE', url: '/api/collections/demo5', token: T.admin, status: 204, ...DELETE, restore: changed }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as admin + using the collection id', method: 'DELETE', url: '/api/collections/9n89pl5vkct6330', token: T.admin, status: 204, ...DELETE, restore: changed }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as admin + trying to delete a system collection', method: 'DELETE', url: '/api/collections/nologin', token: T.admin, status: 400, events: { OnCollectionBeforeDeleteRequest: 1 } }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as admin + trying to delete a referenced collection', method: 'DELETE', url: '/api/collections/demo2', token: T.admin, status: 400, events: { OnCollectionBeforeDeleteRequest: 1 } }),
  scenario({ area: 'TestCollectionDelete', name: 'authorized as admin + deleting a view', method: 'DELETE', url: '/api/collections/view2', token: T.admin, status: 204, ...DELETE, restore: changed }),
  scenario({ area: 'TestCollectionDelete', name: 'OnCollectionAfterDeleteRequest error response', method: 'DELETE', url: '/api/collections/view2', token: T.admin, fail: 'OnCollectionAfterDeleteRequest', status: 400, ...DELETE, restore: changed }),

  // ---- TestCollectionCreate -----------------------------------------------------------------
  scenario({ area: 'TestCollectionCreate', name: 'unauthorized', method: 'POST', url: '/api/collections', status: 401, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'authorized as user', method: 'POST', url: '/api/collections', token: T.user1, status: 401, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'authorized as admin + empty data', method: 'POST', url: '/api/collections', token: T.admin, raw: '', status: 400, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'authorized as admin + invalid data (eg. existing name)', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'demo1', type: 'base', schema: [{ type: 'text', name: '' }] }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'authorized as admin + valid data', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'base', schema: [{ type: 'text', id: '12345789', name: 'test' }] }, status: 200, ...CREATE, restore: changed }),
  scenario({ area: 'TestCollectionCreate', name: 'creating auth collection without specified options', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'auth', schema: [{ type: 'text', id: '12345789', name: 'test' }] }, status: 200, ...CREATE, restore: changed }),
  scenario({ area: 'TestCollectionCreate', name: 'trying to create auth collection with reserved auth fields', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'auth', schema: RESERVED_AUTH }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'creating base collection with reserved auth fields', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'base', schema: RESERVED_AUTH }, status: 200, ...CREATE, restore: changed }),
  scenario({ area: 'TestCollectionCreate', name: 'trying to create base collection with reserved base fields', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'base', schema: RESERVED_BASE }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'trying to create auth collection with invalid options', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'auth', schema: [{ type: 'text', id: '12345789', name: 'test' }], options: { allowUsernameAuth: true } }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'OnCollectionAfterCreateRequest error response', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'base', schema: [{ type: 'text', id: '12345789', name: 'test' }] }, fail: 'OnCollectionAfterCreateRequest', status: 400, ...CREATE, restore: changed }),
  scenario({ area: 'TestCollectionCreate', name: 'trying to create view collection with invalid options', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'view', schema: [{ type: 'text', id: '12345789', name: 'ignored!@#$' }], options: { query: 'invalid' } }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionCreate', name: 'creating view collection', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'view', schema: [{ type: 'text', id: '12345789', name: 'ignored!@#$' }], options: { query: 'select 1 as id from _admins' } }, status: 200, ...CREATE, restore: changed }),
  scenario({ area: 'TestCollectionCreate', name: 'creating base collection with invalid indexes', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'base', schema: [{ type: 'text', name: 'test' }], indexes: ['create index idx_test1 on new (test)', 'create index idx_test2 on new (missing)'] }, status: 400, ...chain('OnCollectionBeforeCreateRequest', 'OnModelBeforeCreate') }),
  scenario({ area: 'TestCollectionCreate', name: 'creating base collection with valid indexes (+ random table name)', method: 'POST', url: '/api/collections', token: T.admin, body: { name: 'new', type: 'base', schema: [{ type: 'text', name: 'test' }], indexes: ['create index idx_test1 on new (test)', 'create index idx_test2 on anything (id, test)'] }, status: 200, ...CREATE, restore: changed }),

  // ---- TestCollectionUpdate -----------------------------------------------------------------
  scenario({ area: 'TestCollectionUpdate', name: 'unauthorized', method: 'PATCH', url: '/api/collections/demo1', status: 401, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'authorized as user', method: 'PATCH', url: '/api/collections/demo1', token: T.user1, status: 401, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'authorized as admin + missing collection', method: 'PATCH', url: '/api/collections/missing', token: T.admin, body: {}, status: 404, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'authorized as admin + empty body', method: 'PATCH', url: '/api/collections/demo1', token: T.admin, body: {}, status: 200, ...UPDATE, restore: changed }),
  scenario({ area: 'TestCollectionUpdate', name: 'OnCollectionAfterUpdateRequest error response', method: 'PATCH', url: '/api/collections/demo1', token: T.admin, body: {}, fail: 'OnCollectionAfterUpdateRequest', status: 400, ...UPDATE, restore: changed }),
  scenario({ area: 'TestCollectionUpdate', name: 'authorized as admin + invalid data (eg. existing name)', method: 'PATCH', url: '/api/collections/demo1', token: T.admin, body: { name: 'demo2', type: 'auth' }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'authorized as admin + valid data', method: 'PATCH', url: '/api/collections/demo1', token: T.admin, body: { name: 'new' }, status: 200, ...UPDATE, restore: changed }),
  scenario({ area: 'TestCollectionUpdate', name: 'trying to update auth collection with reserved auth fields', method: 'PATCH', url: '/api/collections/users', token: T.admin, body: { schema: RESERVED_AUTH }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'updating base collection with reserved auth fields', method: 'PATCH', url: '/api/collections/demo4', token: T.admin, body: { schema: RESERVED_AUTH, indexes: [] }, status: 200, ...UPDATE, restore: changed }),
  scenario({ area: 'TestCollectionUpdate', name: 'trying to update base collection with reserved base fields', method: 'PATCH', url: '/api/collections/demo1', token: T.admin, body: { name: 'new', type: 'base', schema: RESERVED_BASE }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'trying to update auth collection with invalid options', method: 'PATCH', url: '/api/collections/users', token: T.admin, body: { options: { minPasswordLength: 4 } }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'trying to update view collection with invalid options', method: 'PATCH', url: '/api/collections/view1', token: T.admin, body: { schema: [{ type: 'text', id: '12345789', name: 'ignored!@#$' }], options: { query: 'invalid' } }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'updating view collection', method: 'PATCH', url: '/api/collections/view2', token: T.admin, body: { name: 'view2_update', schema: [{ type: 'text', id: '12345789', name: 'ignored!@#$' }], options: { query: 'select 2 as id, created, updated, email from _admins' } }, status: 200, ...UPDATE, restore: changed }),
  scenario({ area: 'TestCollectionUpdate', name: 'updating base collection with invalid indexes', method: 'PATCH', url: '/api/collections/demo2', token: T.admin, body: { indexes: ['create unique idx_test1 on demo1 (text)', 'create index idx_test2 on demo2 (id, title)'] }, status: 400, events: {} }),
  scenario({ area: 'TestCollectionUpdate', name: 'updating base collection with valid indexes (+ random table name)', method: 'PATCH', url: '/api/collections/demo2', token: T.admin, body: { indexes: ['create unique index idx_test1 on demo2 (title)', 'create index idx_test2 on anything (active)'] }, status: 200, ...UPDATE, restore: changed }),

  // ---- TestCollectionsImport ----------------------------------------------------------------
  scenario({ area: 'TestCollectionsImport', name: 'unauthorized', method: 'PUT', url: '/api/collections/import', status: 401, events: {} }),
  scenario({ area: 'TestCollectionsImport', name: 'authorized as user', method: 'PUT', url: '/api/collections/import', token: T.user1, status: 401, events: {} }),
  scenario({ area: 'TestCollectionsImport', name: 'authorized as admin + empty collections', method: 'PUT', url: '/api/collections/import', token: T.admin, body: { collections: [] }, status: 400, events: {} }),
  // (0.22 deletes the oldest first: users, then fails at nologin)
  scenario({ area: 'TestCollectionsImport', name: 'authorized as admin + trying to delete system collections', method: 'PUT', url: '/api/collections/import', token: T.admin, body: { deleteMissing: true, collections: [{ name: 'test123' }] }, status: 400, ...chain('OnCollectionsBeforeImportRequest', 'OnModelBeforeDelete') }),
  scenario({
    area: 'TestCollectionsImport',
    name: 'authorized as admin + collections validator failure',
    method: 'PUT',
    url: '/api/collections/import',
    token: T.admin,
    body: { collections: [{ name: 'import1', schema: [{ id: 'koih1lqx', name: 'test', type: 'text' }] }, { name: 'import2' }] },
    status: 400,
    events: { OnCollectionsBeforeImportRequest: 1, OnModelBeforeCreate: 2 },
    order: [['OnCollectionsBeforeImportRequest', 'OnModelBeforeCreate', 'OnModelBeforeCreate']],
  }),
  scenario({
    area: 'TestCollectionsImport',
    name: 'authorized as admin + successful collections save',
    method: 'PUT',
    url: '/api/collections/import',
    token: T.admin,
    body: IMPORT_THREE,
    status: 204,
    events: { OnCollectionsBeforeImportRequest: 1, OnCollectionsAfterImportRequest: 1, OnModelBeforeCreate: 3, OnModelAfterCreate: 3 },
    // the after hooks at the commit (0.22's RunInTransaction)
    order: [['OnCollectionsBeforeImportRequest', 'OnModelBeforeCreate', 'OnModelBeforeCreate', 'OnModelBeforeCreate', 'OnModelAfterCreate', 'OnModelAfterCreate', 'OnModelAfterCreate', 'OnCollectionsAfterImportRequest']],
    restore: changed,
  }),
  scenario({
    area: 'TestCollectionsImport',
    name: 'authorized as admin + successful collections save (the OnCollectionsAfterImportRequest error response one)',
    method: 'PUT',
    url: '/api/collections/import',
    token: T.admin,
    body: IMPORT_THREE,
    fail: 'OnCollectionsAfterImportRequest',
    status: 400,
    events: { OnCollectionsBeforeImportRequest: 1, OnCollectionsAfterImportRequest: 1, OnModelBeforeCreate: 3, OnModelAfterCreate: 3 },
    order: [['OnCollectionsBeforeImportRequest', 'OnModelBeforeCreate', 'OnModelBeforeCreate', 'OnModelBeforeCreate', 'OnModelAfterCreate', 'OnModelAfterCreate', 'OnModelAfterCreate', 'OnCollectionsAfterImportRequest']],
    restore: changed,
  }),
  scenario({
    area: 'TestCollectionsImport',
    name: 'authorized as admin + successful collections save and old non-system collections deletion',
    method: 'PUT',
    url: '/api/collections/import',
    token: T.admin,
    body: { deleteMissing: true, collections: [{ name: 'new_import', schema: [{ id: 'koih1lqx', name: 'test', type: 'text' }] }, NOLOGIN_IMPORT, DEMO1_IMPORT] },
    status: 204,
    events: { OnCollectionsBeforeImportRequest: 1, OnCollectionsAfterImportRequest: 1, OnModelBeforeDelete: 9, OnModelAfterDelete: 9, OnModelBeforeUpdate: 2, OnModelAfterUpdate: 2, OnModelBeforeCreate: 1, OnModelAfterCreate: 1 },
    // the deletes, then the saves in the import's order; their after hooks in the same order at the commit
    order: [['OnCollectionsBeforeImportRequest', ...NINE, 'OnModelBeforeCreate', 'OnModelBeforeUpdate', 'OnModelBeforeUpdate', ...NINE.map(() => 'OnModelAfterDelete'), 'OnModelAfterCreate', 'OnModelAfterUpdate', 'OnModelAfterUpdate', 'OnCollectionsAfterImportRequest']],
    restore: changed,
  }),
];

const seen = async (name: string) => (await call('GET', `/__collections/seen/${name}`)).body;
const names = async () => ((await admin('GET', '/api/collections?perPage=100')).body.items as Array<{ name: string }>).map((c) => c.name).sort();
const fixtureNames = () => fixtureCollections.map((c) => String(c.name)).sort();
const clear = async () => expect((await call('DELETE', '/__events')).status).toBe(204);

/** Clears the events, then sends the request with `hook`'s handler (zz-collections.pb.js) setting `props` on e.collection(s) ({ stop: true }: returning false). */
async function changing(hook: string, props: unknown, method: string, url: string, body?: unknown) {
  await clear();
  return call(method, url, { token: T.admin, body, headers: { 'X-Collection-Change-Hook': hook, 'X-Collection-Change': JSON.stringify(props) } });
}

/** Clears the events; from then on the model hook `name` sets `props` on e.model ({ stop: true }: returns false), or fails ('fail'). */
async function modelHook(name: string, props: unknown): Promise<void> {
  await clear();
  const res = props === 'fail' ? await call('POST', `/__events/fail/${name}`) : await call('POST', `/__collections/model/${name}`, { body: props });
  expect(res.status).toBe(204);
}

/** A clean 4xx in PocketBase's envelope. */
function refused(res: { status: number; body: { code?: unknown; message?: unknown; data?: unknown } }, status = 400): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(status);
  expect(typeof res.body.message).toBe('string');
  expect(typeof res.body.data).toBe('object');
}

async function start(): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  fixtureCollections = (await admin('GET', '/api/collections?perPage=100')).body.items;
}

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'pb_hooks'), { recursive: true });
  for (const [name, text] of Object.entries(EVENTS_HOOK_FILES)) fs.writeFileSync(path.join(work, 'pb_hooks', name), text);
  fs.writeFileSync(path.join(work, 'pb_hooks', 'zz-collections.pb.js'), COLLECTIONS_HOOK_FILE);
  // the `_collections` rows as the fixture has them (read from a copy: the fixture stays as it is)
  const copy = path.join(work, 'fixture-copy');
  fs.cpSync(FIXTURE_DIR, copy, { recursive: true });
  const db = new Database(path.join(copy, 'data.db'), { readonly: true });
  try {
    fixtureRows = db.prepare('SELECT * FROM _collections').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
});

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('0.22 collections API scenarios, the hook events they fire (%s start)', (which) => {
  beforeAll(async () => {
    if (srv) await srv.stop();
    await start();
    expect(which).toBeTruthy();
  });

  for (const s of SCENARIOS) {
    it(`${s.area} › ${s.name}`, async () => {
      try {
        await check(s);
      } finally {
        if (s.restore) await restoreCollections();
      }
    });
  }

  it('puts the collections back as the fixture has them (what the scenarios rely on)', async () => {
    expect(await names()).toEqual(fixtureCollections.map((c) => String(c.name)).sort());
  });

  describe('what the collection hooks give their handlers, and what the handlers may do', () => {
    const FIELD = [{ type: 'text', id: '12345789', name: 'test' }];

    it("e.collections and e.result, e.collection, e.model: 0.22's Collection models and fields", async () => {
      await clear();
      expect((await admin('GET', '/api/collections')).status).toBe(200);
      const listed = await seen('onCollectionsListRequest');
      expect(listed).toMatchObject({ result: { page: 1, perPage: 30, totalItems: 11, totalPages: 1 }, request: 'GET' });
      expect([...listed.collections].sort()).toEqual(fixtureNames());
      expect((await admin('GET', '/api/collections/demo1')).status).toBe(200);
      expect(await seen('onCollectionViewRequest')).toMatchObject({ collection: { id: 'wsmn24bux7wo113', name: 'demo1', isNew: false } });
      expect((await admin('POST', '/api/collections', { name: 'probed', schema: FIELD })).status).toBe(200);
      expect(await seen('onCollectionBeforeCreateRequest')).toMatchObject({ collection: { name: 'probed', isNew: true, fields: ['test'] }, request: 'POST' });
      expect(await seen('onModelBeforeCreate')).toMatchObject({ model: { table: '_collections', name: 'probed', isNew: true }, request: 'absent' });
      expect(await seen('onModelAfterCreate')).toMatchObject({ model: { table: '_collections', name: 'probed', isNew: false } });
      expect(await seen('onCollectionAfterCreateRequest')).toMatchObject({ collection: { name: 'probed', isNew: false } });
      expect((await admin('PATCH', '/api/collections/probed', { name: 'probed2' })).status).toBe(200);
      expect(await seen('onModelBeforeUpdate')).toMatchObject({ model: { name: 'probed2', isNew: false } });
      expect((await admin('DELETE', '/api/collections/probed2')).status).toBe(204);
      expect(await seen('onCollectionBeforeDeleteRequest')).toMatchObject({ collection: { name: 'probed2' } });
      expect(await seen('onModelAfterDelete')).toMatchObject({ model: { name: 'probed2' } });
      expect((await admin('PUT', '/api/collections/import', IMPORT_THREE)).status).toBe(204);
      expect(await seen('onCollectionsBeforeImportRequest')).toMatchObject({ collections: ['import1', 'import2', 'auth_without_schema'] });
      expect(await seen('onCollectionsAfterImportRequest')).toMatchObject({ collections: ['import1', 'import2', 'auth_without_schema'] });
      await restoreCollections();
    });

    it("a before hook's changes are what is saved; an after hook's are answered, not saved", async () => {
      const created = await changing('onCollectionBeforeCreateRequest', { listRule: "id != ''" }, 'POST', '/api/collections', { name: 'hooked', schema: FIELD });
      expect([created.status, created.body.listRule]).toEqual([200, "id != ''"]);
      expect((await admin('GET', '/api/collections/hooked')).body.listRule).toBe("id != ''");
      const renamed = await changing('onCollectionBeforeUpdateRequest', { name: 'renamed_by_hook' }, 'PATCH', '/api/collections/demo3', {});
      expect([renamed.status, renamed.body.name]).toEqual([200, 'renamed_by_hook']);
      expect((await admin('GET', '/api/collections/renamed_by_hook/records')).status).toBe(200);
      await modelHook('onModelBeforeUpdate', { viewRule: '' });
      expect((await admin('PATCH', '/api/collections/demo4', { listRule: null })).body.viewRule).toBe('');
      expect((await admin('GET', '/api/collections/demo4')).body.viewRule).toBe('');
      const answered = await changing('onCollectionAfterUpdateRequest', { listRule: "id = 'answered'" }, 'PATCH', '/api/collections/demo1', {});
      expect(answered.body.listRule).toBe("id = 'answered'");
      expect((await admin('GET', '/api/collections/demo1')).body.listRule).toBe(fixtureCollections.find((c) => c.name === 'demo1')?.listRule);
      const listed = await changing('onCollectionsListRequest', { listRule: 'listed' }, 'GET', '/api/collections');
      expect(new Set(listed.body.items.map((c: { listRule: unknown }) => c.listRule))).toEqual(new Set(['listed']));
      const imported = await changing('onCollectionsBeforeImportRequest', { listRule: "id != 'imported'" }, 'PUT', '/api/collections/import', IMPORT_THREE);
      expect(imported.status, JSON.stringify(imported.body)).toBe(204);
      expect((await admin('GET', '/api/collections/import2')).body.listRule).toBe("id != 'imported'");
      await restoreCollections();
    });

    it('what a hook leaves that the API would refuse is a clean 4xx, and nothing is written', async () => {
      refused(await changing('onCollectionBeforeCreateRequest', { name: 'bad name!' }, 'POST', '/api/collections', { name: 'fine', schema: FIELD }));
      await modelHook('onModelBeforeUpdate', { name: '' });
      refused(await admin('PATCH', '/api/collections/demo3', { listRule: '' }));
      expect((await admin('GET', '/api/collections/demo3')).body.listRule).toBe(fixtureCollections.find((c) => c.name === 'demo3')?.listRule);
      refused(await changing('onCollectionsBeforeImportRequest', { name: 'users' }, 'PUT', '/api/collections/import', IMPORT_THREE));
      refused(await changing('onCollectionsBeforeImportRequest', { type: 'nonsense' }, 'PUT', '/api/collections/import', IMPORT_THREE));
      expect(await names()).toEqual(fixtureNames());
    });

    it('return false: nothing after it runs (no write); the answer is 200 with no body', async () => {
      const stopped = await act('X-Stop-Hook', 'onCollectionBeforeCreateRequest', 'POST', '/api/collections', { token: T.admin, body: { name: 'stopped', schema: FIELD } });
      expect([stopped.status, stopped.body]).toEqual([200, null]);
      expect(await recorded()).toEqual(['onCollectionBeforeCreateRequest']);
      const listed = await act('X-Stop-Hook', 'onCollectionsListRequest', 'GET', '/api/collections', { token: T.admin });
      expect([listed.status, listed.body]).toEqual([200, null]);
      expect((await act('X-Stop-Hook', 'onCollectionBeforeDeleteRequest', 'DELETE', '/api/collections/demo5', { token: T.admin })).status).toBe(200);
      // a model hook's false skips the write (0.22's Dao), the request goes on
      await modelHook('onModelBeforeDelete', { stop: true });
      expect((await admin('DELETE', '/api/collections/demo5')).status).toBe(204);
      expect(await recorded()).toEqual(['onCollectionBeforeDeleteRequest', 'onModelBeforeDelete', 'onCollectionAfterDeleteRequest']);
      await modelHook('onModelBeforeCreate', { stop: true });
      expect((await admin('PUT', '/api/collections/import', IMPORT_THREE)).status).toBe(204);
      expect(await names()).toEqual(fixtureNames());
    });

    it("a thrown error answers as 0.22 answers it; a model hook's error fails the write with the route's message", async () => {
      const refusedByHook = await act('X-Throw-Hook', 'onCollectionBeforeUpdateRequest', 'PATCH', '/api/collections/demo5', { token: T.admin, body: { name: 'demo5_renamed' } });
      expect([refusedByHook.status, refusedByHook.body]).toEqual([403, { code: 403, message: 'Refused by onCollectionBeforeUpdateRequest.', data: {} }]);
      await modelHook('onModelBeforeCreate', 'fail');
      expect((await admin('POST', '/api/collections', { name: 'failed', schema: FIELD })).body).toEqual({ code: 400, message: 'Failed to create the collection.', data: {} });
      expect(await names()).toEqual(fixtureNames());
      // an after hook fails the request; the write stays (0.22 runs it after the commit)
      await modelHook('onModelAfterDelete', 'fail');
      expect((await admin('DELETE', '/api/collections/demo5')).body).toEqual({ code: 400, message: 'Failed to delete collection due to existing dependency.', data: {} });
      expect(await names()).not.toContain('demo5');
      await restoreCollections();
    });

    it('a response a handler writes is the answer; the flow still runs to its end (0.22 only skips its default answer)', async () => {
      const deleted = await act('X-Answer-Hook', 'onCollectionBeforeDeleteRequest', 'DELETE', '/api/collections/demo5', { token: T.admin });
      expect([deleted.status, deleted.body]).toEqual([418, { answeredBy: 'onCollectionBeforeDeleteRequest' }]);
      expect(await recorded()).toEqual(['onCollectionBeforeDeleteRequest', 'onModelBeforeDelete', 'onModelAfterDelete', 'onCollectionAfterDeleteRequest']);
      expect(await names()).not.toContain('demo5');
      await restoreCollections();
      const viewed = await act('X-Answer-Hook', 'onCollectionViewRequest', 'GET', '/api/collections/demo1', { token: T.admin });
      expect([viewed.status, viewed.body]).toEqual([418, { answeredBy: 'onCollectionViewRequest' }]);
    });

    it('a failing model hook inside an import rolls the whole import back', async () => {
      await modelHook('onModelBeforeCreate', 'fail');
      const failed = await admin('PUT', '/api/collections/import', { collections: [{ ...DEMO1_IMPORT, name: 'demo1_renamed' }, IMPORT_THREE.collections[0]] });
      expect(failed.status).toBe(400);
      expect(failed.body.message).toBe('Failed to import the submitted collections.');
      expect(failed.body.data.collections.code).toBe('collections_import_failure');
      expect(failed.body.data.collections.message).toMatch(/^Failed to import the collections configuration\. Raw error:\n/);
      expect((await recorded()).filter((n) => !n.includes('ApiError'))).toEqual(['onCollectionsBeforeImportRequest', 'onModelBeforeUpdate', 'onModelBeforeCreate']);
      expect(await names()).toEqual(fixtureNames());
      // a delete's hook, the collections it would delete: none is
      await modelHook('onModelBeforeDelete', 'fail');
      refused(await admin('PUT', '/api/collections/import', { collections: fixtureCollections.filter((c) => c.name !== 'demo5'), deleteMissing: true }));
      expect(await names()).toEqual(fixtureNames());
      // an after hook runs at the commit: the import stays, the request fails
      await modelHook('onModelAfterCreate', 'fail');
      const after = await admin('PUT', '/api/collections/import', IMPORT_THREE);
      expect(after.body.data.collections.message).toContain('after transaction errors');
      expect(await names()).toEqual([...fixtureNames(), 'auth_without_schema', 'import1', 'import2'].sort());
      await restoreCollections();
    });
  });
});
