// The hook executors as a pool (issue 34's cost): quick handlers share a few warm executors however
// many requests run at once (each executor is an isolate of its own; one per concurrent request was
// most of a hook call's cost), while handlers that block make it grow, each holding up only its own
// request. Each executor evaluates the hook files itself, so a value drawn at load names the
// executor that answers. An event names its record's collection by id and version and each executor
// keeps the versions it has seen: after a change (a new field, a new name) handlers see the
// collection as it is now, in every executor.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/cli';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, tempDir } from '../helpers/server';
import type { ServerProcess } from '../helpers/server-process';

const HOOKS = `/// <reference path="../pb_data/types.d.ts" />
const who = $security.randomString(12);
routerAdd("GET", "/who", (c) => c.json(200, { who }));
routerAdd("GET", "/who-slow", (c) => {
  sleep(400);
  return c.json(200, { who });
});
// what the handlers see of the collection, from the event and from the record
onRecordBeforeCreateRequest((e) => {
  if (!e.collection.name.startsWith("notes")) return;
  const names = (c) => c.name + ":" + c.schema.fields().map((f) => f.name).join(",");
  e.record.set("seen", names(e.collection) + "|" + names(e.record.collection()) + "|" + who);
});
`;

describe('hook executors: a pool that grows only for blocked handlers, collections cached per version', () => {
  const work = tempDir('outpost-hooks-pool-');
  let srv: ServerProcess;
  const call = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token: FIXTURE_ADMIN_TOKEN, body });

  beforeAll(async () => {
    fs.cpSync(FIXTURE_DIR, path.join(work, 'pb_data'), { recursive: true });
    fs.mkdirSync(path.join(work, 'pb_hooks'));
    fs.writeFileSync(path.join(work, 'pb_hooks', 'pool.pb.js'), HOOKS);
    srv = await startCliServer([`--dir=${path.join(work, 'pb_data')}`, '--automigrate=false'], work);
  });

  afterAll(async () => {
    await srv?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const who = async (p: string): Promise<string> => {
    const res = await http(srv.url, 'GET', p);
    expect(res.status).toBe(200);
    return (res.body as { who: string }).who;
  };

  it('quick handlers under 20 concurrent clients share a few executors', async () => {
    const seen = new Set<string>();
    const until = Date.now() + 1500;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (Date.now() < until) seen.add(await who('/who'));
      }),
    );
    // one executor per concurrent request before (20 here); a few now, even on a busy machine
    expect(seen.size).toBeLessThanOrEqual(4);
  });

  it('blocked handlers each get an executor: four sleeps run side by side', async () => {
    const t0 = Date.now();
    const answers = await Promise.all([1, 2, 3, 4].map(() => who('/who-slow')));
    expect(new Set(answers).size).toBe(4);
    // one after the other they would take 1.6 s
    expect(Date.now() - t0).toBeLessThan(1500);
    // and a quick call is answered meanwhile
    const slow = Promise.all([1, 2].map(() => who('/who-slow')));
    const t1 = Date.now();
    await who('/who');
    expect(Date.now() - t1).toBeLessThan(400);
    await slow;
  });

  it('handlers see the collection as it is now after a change, in every executor', async () => {
    const created = await call('POST', '/api/collections', { name: 'notes', type: 'base', createRule: '', schema: [{ name: 'title', type: 'text' }, { name: 'seen', type: 'text' }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const collection = created.body as { id: string; schema: unknown[] };
    // several executors (the sleeps above started them) see each version
    const seenBy = async (name: string) => {
      const all = await Promise.all(Array.from({ length: 8 }, () => http(srv.url, 'POST', `/api/collections/${name}/records`, { body: { title: 'x' } })));
      for (const r of all) expect(r.status, JSON.stringify(r.body)).toBe(200);
      return new Set(all.map((r) => String((r.body as { seen: string }).seen).split('|').slice(0, 2).join('|')));
    };
    expect([...(await seenBy('notes'))]).toEqual(['notes:title,seen|notes:title,seen']);

    const added = await call('PATCH', `/api/collections/${collection.id}`, { schema: [...collection.schema, { name: 'extra', type: 'number' }] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect([...(await seenBy('notes'))]).toEqual(['notes:title,seen,extra|notes:title,seen,extra']);

    const renamed = await call('PATCH', `/api/collections/${collection.id}`, { name: 'notes2' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect([...(await seenBy('notes2'))]).toEqual(['notes2:title,seen,extra|notes2:title,seen,extra']);
  });
});
