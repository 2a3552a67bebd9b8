// GET /api/outpost/hooks (Settings › Hooks): a hooks folder run by `serve` (the built server in the
// 'server-built' project), started twice: admins only (401 in 0.22's envelope for a guest and a
// record token); the files, each hook with its tags and whether Outpost fires it, the routes with
// their middlewares, routerUse, the cron jobs with their next run, and the errors handlers ran into
// (a deliberate 400 is not one); a change that does not load (--hooksWatch) is reported while the
// previous hooks keep running, and cleared by a fix; a server without hook files says none run. The
// status tracker's cron results and error list, on their own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';
import { FIRED } from '../../server/hooks/hook-names';
import { hookStatus } from '../../server/hooks/status';
import type { Manifest } from '../../server/hooks/protocol';

const ADMIN = { email: 'hooks-info@example.com', password: 'hooks-info-pass-1' };
const USER = { email: 'u@example.com', password: 'user-pass-123' };

const FILES: Record<string, string> = {
  'main.pb.js': `/// <reference path="../pb_data/types.d.ts" />
onRecordBeforeCreateRequest((e) => {}, "notes");
onRecordAfterCreateRequest((e) => {});
onTerminate((e) => {});

routerAdd("GET", "/hello/:name", (c) => c.json(200, { hi: c.pathParam("name") }));
routerAdd("POST", "/mine", (c) => c.json(200, {}), $apis.requireRecordAuth("users"), (next) => (c) => next(c));
routerAdd("GET", "/boom", (c) => {
  throw new Error("kaboom");
});
routerAdd("GET", "/refused", (c) => {
  throw new BadRequestError("deliberate");
});
routerUse($apis.activityLogger($app));
cronAdd("nightly", "0 3 * * *", () => {});
`,
  'jobs.pb.ts': `/// <reference path="../pb_data/types.d.ts" />
const every: string = "*/5 * * * *";
cronAdd("tick", every, () => {});
`,
  'helper.js': 'module.exports = {};\n',
};

const work = tempDir('outpost-hooks-info-');
const dataDir = path.join(work, 'pb_data');
const hooksDir = path.join(work, 'pb_hooks');
let srv: ServerProcess;
let adminToken = '';
let userToken = '';

const call = (method: string, p: string, token?: string) => http(srv.url, method, p, { token });

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  adminToken = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
  userToken = (await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity: USER.email, password: USER.password } })).body.token;
}

beforeAll(async () => {
  fs.mkdirSync(hooksDir, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(hooksDir, name), text);
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  expect((await http(srv.url, 'POST', '/api/collections/users/records', { body: { ...USER, passwordConfirm: USER.password } })).status).toBe(200);
  await srv.stop();
  await start();
});

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('GET /api/outpost/hooks (%s start)', (startName) => {
  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
    }
  });

  it('answers admins only, in 0.22 envelope otherwise', async () => {
    const envelope = { code: 401, message: 'The request requires valid admin authorization token to be set.', data: {} };
    expect(await call('GET', '/api/outpost/hooks')).toMatchObject({ status: 401, body: envelope });
    expect(await call('GET', '/api/outpost/hooks', userToken)).toMatchObject({ status: 401, body: envelope });
    expect((await call('GET', '/api/outpost/hooks', adminToken)).status).toBe(200);
  });

  it('lists the files, the hooks with their tags, the routes and their middlewares, routerUse and the cron jobs', async () => {
    const { body } = await call('GET', '/api/outpost/hooks', adminToken);
    expect(body).toMatchObject({ dir: hooksDir, watch: true, pool: 25, running: true, loadError: null });
    expect(Date.parse(body.loadedAt)).toBeGreaterThan(Date.now() - 120_000);
    // *.pb.js and *.pb.ts in file-name order; helper.js is not a hook file
    expect(body.files).toEqual([
      { file: 'jobs.pb.ts', hooks: 0, routes: 0, crons: 1 },
      { file: 'main.pb.js', hooks: 3, routes: 4, crons: 1 },
    ]);
    expect(body.hooks).toEqual([
      // (no-op record handlers run on the main thread: server/hooks/inline-runner.ts)
      { name: 'onRecordBeforeCreateRequest', tags: ['notes'], file: 'main.pb.js', fired: true, mainThread: true },
      { name: 'onRecordAfterCreateRequest', tags: [], file: 'main.pb.js', fired: true, mainThread: true },
      { name: 'onTerminate', tags: [], file: 'main.pb.js', fired: FIRED.has('onTerminate'), mainThread: false },
    ]);
    expect(body.routes).toEqual([
      { method: 'GET', path: '/hello/:name', middlewares: [], file: 'main.pb.js' },
      { method: 'POST', path: '/mine', middlewares: ['$apis.requireRecordAuth("users")', 'JS middleware'], file: 'main.pb.js' },
      { method: 'GET', path: '/boom', middlewares: [], file: 'main.pb.js' },
      { method: 'GET', path: '/refused', middlewares: [], file: 'main.pb.js' },
    ]);
    expect(body.routerUse).toEqual([{ middlewares: ['$apis.activityLogger()'], file: 'main.pb.js' }]);
    expect(body.crons.map((c: { job: string; expr: string; file: string; lastRun: unknown }) => [c.job, c.expr, c.file, c.lastRun])).toEqual([
      ['tick', '*/5 * * * *', 'jobs.pb.ts', null],
      ['nightly', '0 3 * * *', 'main.pb.js', null],
    ]);
    const nightly = new Date(body.crons[1].nextRun);
    expect(nightly.getTime()).toBeGreaterThan(Date.now());
    expect(nightly.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect([nightly.getUTCHours(), nightly.getUTCMinutes()]).toEqual([3, 0]);
    expect(new Date(body.crons[0].nextRun).getUTCMinutes() % 5).toBe(0);
  });

  it("keeps the errors a handler ran into, with the file and line; a deliberate 400 is not one; a new start begins with none", async () => {
    expect((await call('GET', '/api/outpost/hooks', adminToken)).body.errors).toEqual([]);
    expect((await call('GET', '/boom')).status).toBe(400);
    expect((await call('GET', '/refused')).status).toBe(400);
    expect((await call('GET', '/hello/x')).status).toBe(200);
    const { errors } = (await call('GET', '/api/outpost/hooks', adminToken)).body;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: 'route', source: 'GET /boom', place: 'main.pb.js:9', message: 'kaboom' });
    expect(errors[0].stack).toContain('main.pb.js:9');
    expect(Date.parse(errors[0].at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('a change that does not load (--hooksWatch, on by default)', () => {
  /** The answer once `until` holds (the reload is asynchronous). */
  async function waitFor(until: (body: any) => boolean): Promise<any> {
    for (let i = 0; i < 300; i++) {
      const { body } = await call('GET', '/api/outpost/hooks', adminToken);
      if (until(body)) return body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the hooks were not reloaded within 30 s');
  }

  it('keeps the hooks loaded before running and says which file failed; a fix clears it', async () => {
    const broken = path.join(hooksDir, 'broken.pb.js');
    fs.writeFileSync(broken, '// half written\nrouterAdd("GET", "/x", (c) => {\n');
    const failed = await waitFor((b) => b.loadError !== null);
    expect(failed.loadError).toMatchObject({ kind: 'load' });
    expect(failed.loadError.message).toMatch(/broken\.pb\.js/);
    expect(failed.running).toBe(true);
    expect(failed.files.map((f: { file: string }) => f.file)).toEqual(['jobs.pb.ts', 'main.pb.js']);
    expect((await call('GET', '/hello/still')).body).toEqual({ hi: 'still' });

    fs.rmSync(broken);
    const fixed = await waitFor((b) => b.loadError === null);
    expect(fixed.running).toBe(true);
    expect(fixed.files.map((f: { file: string }) => f.file)).toEqual(['jobs.pb.ts', 'main.pb.js']);
  });
});

describe('GET /api/outpost/hooks without hook files', () => {
  it('says the folder is there and nothing runs', async () => {
    const dir = tempDir('outpost-hooks-info-none-');
    const none = await startCliServer([`--dir=${path.join(dir, 'pb_data')}`, '--automigrate=false'], dir);
    try {
      await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${path.join(dir, 'pb_data')}`], dir);
      const token = (await http(none.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
      const { status, body } = await http(none.url, 'GET', '/api/outpost/hooks', { token });
      expect(status).toBe(200);
      expect(body).toEqual({ dir: path.join(dir, 'pb_hooks'), watch: true, pool: 25, running: false, loadedAt: null, loadError: null, files: [], hooks: [], routes: [], routerUse: [], crons: [], errors: [] });
    } finally {
      await none.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the status of a generation', () => {
  const manifest: Manifest = {
    files: ['/p/pb_hooks/a.pb.js'],
    registrations: [
      { kind: 'cron', id: 'a#1', job: 'sync', expr: '* * * * *', file: '/p/pb_hooks/a.pb.js' },
      { kind: 'hook', id: 'a#2', name: 'onRecordAfterUpdateRequest', tags: ['abc', 'posts'], source: '(e) => {}', file: '/p/pb_hooks/a.pb.js' },
    ],
  };

  it("keeps a cron job's last result and next run, and the newest 20 errors first", async () => {
    const status = hookStatus(manifest, '/p/pb_hooks');
    const next = new Date(Date.now() + 30_000);
    status.schedule('a#1', { nextRun: () => next });
    await status.cron('a#1', Promise.resolve({ outcome: 'continue' }));
    let cron = status.snapshot().crons[0];
    expect(cron).toMatchObject({ job: 'sync', file: 'a.pb.js', nextRun: next.toISOString(), lastRun: { ok: true } });
    await status.cron('a#1', Promise.resolve({ outcome: 'error', error: { message: 'no network', stack: 'Error: no network\n    at /p/pb_hooks/a.pb.js:3:9' } }));
    cron = status.snapshot().crons[0];
    expect(cron.lastRun).toMatchObject({ ok: false, error: 'no network' });
    await expect(status.cron('a#1', Promise.reject(new Error('stopped at its budget')))).rejects.toThrow('stopped');
    expect(status.snapshot().crons[0].lastRun).toMatchObject({ ok: false, error: 'stopped at its budget' });

    for (let i = 0; i < 25; i++) await status.hook('onRecordAfterUpdateRequest', ['abc', 'posts'], Promise.resolve({ outcome: 'error', error: { message: `failure ${i}` } }));
    // an ApiError below 500 and a look-up that found nothing are answers, not failures
    await status.hook('onRecordAfterUpdateRequest', [], Promise.resolve({ outcome: 'error', error: { message: 'x', api: { status: 400, message: 'x', data: {} } } }));
    await status.hook('onRecordAfterUpdateRequest', [], Promise.resolve({ outcome: 'error', error: { message: 'sql: no rows in result set' } }));
    const { errors } = status.snapshot();
    expect(errors).toHaveLength(20);
    expect(errors[0]).toMatchObject({ kind: 'hook', source: 'onRecordAfterUpdateRequest (posts)', message: 'failure 24' });
    expect(errors[19].message).toBe('failure 5');
  });
});
