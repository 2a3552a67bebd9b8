// The audit trail (issue 36) and pb_hooks: what a hook's Dao writes while it runs for a request
// is that request's change (its admin, address and request id), what it writes with no request
// (onAfterBootstrap here, also in the app a restore restarts; cron jobs likewise) is the system's; a hook that throws, or a hook's
// transaction that fails, leaves no entry. The built server in 'server-built', with this file's
// pb_hooks folder.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from '../helpers/cli';
import { http, tempDir } from '../helpers/server';
import type { ServerProcess } from '../helpers/server-process';

const ADMIN = { email: 'hooks-audit@example.com', password: 'hooks-pass-123' };
const work = tempDir('outpost-audit-hooks-');
const dataDir = path.join(work, 'pb_data');
const hooksDir = path.join(work, 'pb_hooks');
let srv: ServerProcess;
let token = '';
let adminId = '';

const HOOKS = `/// <reference path="../pb_data/types.d.ts" />
const note = (text) => {
  const r = new Record($app.dao().findCollectionByNameOrId("log"), { note: text });
  $app.dao().saveRecord(r);
  return r;
};
onRecordBeforeUpdateRequest((e) => {
  note("update of " + e.record.id);
}, "posts");
onRecordBeforeCreateRequest((e) => {
  if (e.record.get("title") === "boom") throw new BadRequestError("Refused by a hook.");
}, "posts");
routerAdd("POST", "/write-log", (c) => c.json(200, { id: note("from a route").id }));
routerAdd("POST", "/rename-app", (c) => {
  const settings = $app.dao().findSettings();
  settings.meta.appName = "Renamed by a hook";
  $app.dao().saveSettings(settings);
  return c.json(200, { ok: true });
});
routerAdd("POST", "/write-then-fail", (c) => {
  try {
    $app.dao().runInTransaction((txDao) => {
      txDao.saveRecord(new Record(txDao.findCollectionByNameOrId("log"), { note: "rolled back" }));
      throw new Error("undo");
    });
  } catch (err) {
    return c.json(200, { rolledBack: true });
  }
  return c.json(200, { rolledBack: false });
});
onAfterBootstrap(() => {
  try {
    note("at bootstrap");
  } catch (err) {
    // the first start: no log collection yet
  }
});
`;

type Entry = { area: string; action: string; collectionName: string; target: string; actorKind: string; actorId: string; actorEmail: string; ip: string; requestId: string; changes: Record<string, { old: unknown; new: unknown }> };

const call = (method: string, p: string, body?: unknown, auth: string | null = token) => http(srv.url, method, p, { token: auth ?? undefined, body });
async function entries(query = ''): Promise<Entry[]> {
  const res = await call('GET', `/api/outpost/audit?perPage=500${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as Entry[];
}
const total = async () => (await call('GET', '/api/outpost/audit?perPage=1')).body.totalItems as number;

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  const res = await call('POST', '/api/admins/auth-with-password', { identity: ADMIN.email, password: ADMIN.password }, null);
  expect(res.status).toBe(200);
  token = res.body.token;
  adminId = res.body.admin.id;
}

beforeAll(async () => {
  fs.mkdirSync(hooksDir, { recursive: true });
  fs.writeFileSync(path.join(hooksDir, 'audit.pb.js'), HOOKS);
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  for (const name of ['posts', 'log']) {
    const res = await call('POST', '/api/collections', { name, type: 'base', schema: [{ name: name === 'log' ? 'note' : 'title', type: 'text' }], createRule: '', updateRule: '' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("a hook's writes", () => {
  it("are the admin's in a request hook of an admin's request: same admin, address and request id", async () => {
    const post = await call('POST', '/api/collections/posts/records', { title: 'first' });
    expect(post.status).toBe(200);
    expect((await call('PATCH', `/api/collections/posts/records/${post.body.id as string}`, { title: 'second' })).status).toBe(200);
    const [update] = await entries(`&target=${post.body.id as string}&action=update`);
    const [logged] = await entries('&collection=log');
    expect(logged.changes.note).toEqual({ old: null, new: `update of ${post.body.id as string}` });
    for (const e of [update, logged]) expect(e).toMatchObject({ actorKind: 'admin', actorId: adminId, actorEmail: ADMIN.email, ip: '127.0.0.1' });
    expect(logged.requestId).toBe(update.requestId);
    expect(logged.requestId).toMatch(/^[a-z0-9]{15}$/);
  });

  it("are the admin's in a route of the hooks an admin calls, and not kept for a guest (no history on)", async () => {
    const byAdmin = await call('POST', '/write-log');
    expect(byAdmin.status).toBe(200);
    const [e] = await entries(`&target=${byAdmin.body.id as string}`);
    expect(e).toMatchObject({ action: 'create', collectionName: 'log', actorKind: 'admin', actorId: adminId, ip: '127.0.0.1' });
    const before = await total();
    const byGuest = await call('POST', '/write-log', undefined, null);
    expect(byGuest.status).toBe(200);
    expect(await total()).toBe(before);
  });

  it("include the settings its Dao saves: the admin's change, with the difference", async () => {
    expect((await call('POST', '/rename-app')).status).toBe(200);
    const [e] = await entries('&area=settings');
    expect(e).toMatchObject({ action: 'update', actorKind: 'admin', actorId: adminId, ip: '127.0.0.1' });
    expect(e.changes).toEqual({ 'meta.appName': { old: 'Acme', new: 'Renamed by a hook' } });
  });

  it('leave no entry when the hook throws or its transaction fails', async () => {
    const before = await total();
    const refused = await call('POST', '/api/collections/posts/records', { title: 'boom' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Refused by a hook.');
    expect((await call('POST', '/write-then-fail')).body).toEqual({ rolledBack: true });
    expect(await total()).toBe(before);
  });

  it("are the system's when no request runs them (onAfterBootstrap, with the collection's history on)", async () => {
    expect((await call('PATCH', '/api/outpost/audit/options/log', { history: true })).status).toBe(200);
    await srv.stop();
    await start();
    const [e] = (await entries('&collection=log')).filter((x) => (x.changes.note?.new as string | undefined) === 'at bootstrap');
    expect(e).toMatchObject({ action: 'create', actorKind: 'system', actorId: '', ip: '', requestId: '' });
    // a guest's call of the route now counts (history on), as the guest's
    const byGuest = await call('POST', '/write-log', undefined, null);
    const [g] = await entries(`&target=${byGuest.body.id as string}`);
    expect(g).toMatchObject({ actorKind: 'guest', ip: '127.0.0.1' });
  });

  it("are the system's in the app a restore restarts, though an admin's request started it", async () => {
    expect((await call('POST', '/api/backups', { name: 'hooks_audit.zip' })).status).toBe(204);
    expect((await call('POST', '/api/backups/hooks_audit.zip/restore')).status).toBe(204);
    let restored: Entry[] = [];
    for (let i = 0; i < 50 && restored.length === 0; i++) {
      const res = await call('GET', '/api/outpost/audit?perPage=500&area=backup&action=restore');
      if (res.status === 200) restored = res.body.items as Entry[];
      if (restored.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(restored[0]).toMatchObject({ actorKind: 'admin', actorId: adminId });
    const booted = (await entries('&collection=log')).filter((x) => x.changes.note?.new === 'at bootstrap');
    expect(booted).toHaveLength(2); // the restart above, and the restored app's start
    for (const e of booted) expect(e).toMatchObject({ actorKind: 'system', actorId: '', requestId: '' });
  });
});
