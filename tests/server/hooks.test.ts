// pb_hooks (issue 34), first part: a hook folder in the style of real 0.22 projects
// (tests/helpers/hooks-project.ts) run by `serve` (the built server in the 'server-built'
// project), started twice: routes, $apis and JS middlewares, record request hooks with tags,
// 0.22's error classes and `return false`, the Dao and its transactions, $app.store(),
// onAfterBootstrap, require, a *.pb.ts file; a blocking handler holds up only its own request, a
// runaway one is stopped at its budget; a file that fails to load stops the start, naming it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';
import { HOOK_FILES } from '../helpers/hooks-project';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { connectSse } from '../helpers/sse';

const ADMIN = { email: 'hooks@example.com', password: 'hooks-pass-123' };
const work = tempDir('outpost-hooks-');
const dataDir = path.join(work, 'pb_data');
const hooksDir = path.join(work, 'pb_hooks');
let srv: ServerProcess;
let adminToken = '';
let userToken = '';
let smtp: TestSmtp;

const call = (method: string, p: string, opts: Parameters<typeof http>[3] = {}) => http(srv.url, method, p, opts);

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  adminToken = (await call('POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
}

beforeAll(async () => {
  smtp = await startSmtp();
  fs.mkdirSync(hooksDir, { recursive: true });
  for (const [name, text] of Object.entries(HOOK_FILES)) fs.writeFileSync(path.join(hooksDir, name), text);
  // an npm package installed in the project folder, as `npm install` leaves it
  const pkg = path.join(work, 'node_modules', 'pad-three');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'pad-three', version: '1.0.0', main: 'lib/pad.js' }));
  fs.mkdirSync(path.join(pkg, 'lib'));
  fs.writeFileSync(path.join(pkg, 'lib', 'pad.js'), 'module.exports = (s) => String(s).padStart(3, "0");\n');
  process.env.OUTPOST_HOOKS_TIMEOUT_MS = '3000';
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  const notes = await call('POST', '/api/collections', { token: adminToken, body: { name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text' }], listRule: '', viewRule: '', createRule: '' } });
  expect(notes.status, JSON.stringify(notes.body)).toBe(200);
  const other = await call('POST', '/api/collections', { token: adminToken, body: { name: 'other', type: 'base', schema: [{ name: 'title', type: 'text' }], createRule: '' } });
  expect(other.status).toBe(200);
  await call('POST', '/api/collections/users/records', { body: { email: 'u@example.com', password: 'user-pass-1', passwordConfirm: 'user-pass-1' } });
  userToken = (await call('POST', '/api/collections/users/auth-with-password', { body: { identity: 'u@example.com', password: 'user-pass-1' } })).body.token;
  const smtpSet = await call('PATCH', '/api/settings', { token: adminToken, body: { smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false } } });
  expect(smtpSet.status, JSON.stringify(smtpSet.body)).toBe(200);
});

afterAll(async () => {
  delete process.env.OUTPOST_HOOKS_TIMEOUT_MS;
  await smtp?.close();
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('a hooks folder (%s start)', (startName) => {
  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
      userToken = (await call('POST', '/api/collections/users/auth-with-password', { body: { identity: 'u@example.com', password: 'user-pass-1' } })).body.token;
    }
  });

  it.runIf(startName === 'second')('onTerminate ran when the first start was stopped (not a restart)', () => {
    expect(JSON.parse(fs.readFileSync(path.join(work, 'terminated.json'), 'utf8'))).toEqual({ isRestart: false });
  });

  it('routes: closures, path and query params, require of the hooks folder, onAfterBootstrap, a .pb.ts file', async () => {
    const res = await call('GET', '/hello/world?q=hey');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'hello world', loud: 'HEY!', booted: 'yes' });
    const typed = await call('GET', '/typed');
    expect(typed.body.typed).toBe(true);
  });

  it("$apis' middlewares answer as 0.22's, a JS middleware wraps its route", async () => {
    expect(await call('GET', '/api/mine')).toMatchObject({ status: 401, body: { code: 401, message: 'The request requires valid record authorization token to be set.', data: {} } });
    const mine = await call('GET', '/api/mine', { token: userToken });
    expect(mine.body.email).toBe('u@example.com');
    expect((await call('GET', '/admin-only', { token: userToken })).status).toBe(401);
    const admin = await call('GET', '/admin-only', { token: adminToken });
    expect(admin.body).toBe(`admin ${ADMIN.email}`);
    const counted = await call('POST', '/notes-count', { body: { q: 'zzz-none' } });
    expect(counted.body).toEqual({ count: 0 });
    expect(counted.headers.get('x-stamp')).toBe('1');
  });

  it('record hooks: a before hook changes the record, throws 0.22 errors, returns false; tags select the collection', async () => {
    const created = await call('POST', '/api/collections/notes/records', { body: { title: ' first ' } });
    expect(created.status).toBe(200);
    expect(created.body.title).toBe('first (checked)');
    expect((await call('GET', '/typed')).body.last).toBe(created.body.id);

    const bad = await call('POST', '/api/collections/notes/records', { body: { title: 'bad one' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 400, message: 'Invalid title.', data: { title: { code: 'invalid_title', message: 'Bad words' } } });

    const before = (await call('GET', '/api/collections/notes/records?perPage=1')).body.totalItems;
    const stopped = await call('POST', '/api/collections/notes/records', { body: { title: 'stop' } });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toBe(null);
    expect((await call('GET', '/api/collections/notes/records?perPage=1')).body.totalItems).toBe(before);

    const other = await call('POST', '/api/collections/other/records', { body: { title: 'x' } });
    expect(other.body.message).toBe('Not for notes.');

    const custom = await call('POST', '/api/collections/notes/records', { body: { title: 'custom' } });
    expect((await call('GET', `/api/collections/notes/records/${custom.body.id}`)).body).toEqual({ custom: true });
  });

  it('model hooks around the API writes: before changes or refuses, after follows create and delete', async () => {
    const note = (await call('POST', '/api/collections/notes/records', { body: { title: 'model' } })).body;
    expect((await call('GET', '/model-events')).body.created).toBe(note.id);
    const renamed = await call('PATCH', `/api/collections/notes/records/${note.id}`, { token: adminToken, body: { title: 'renamed' } });
    expect(renamed.body.title).toBe('renamed by a model hook');
    const frozen = await call('PATCH', `/api/collections/notes/records/${note.id}`, { token: adminToken, body: { title: 'frozen' } });
    expect(frozen.body).toEqual({ code: 400, message: 'Failed to update record.', data: {} });
    expect((await call('GET', `/api/collections/notes/records/${note.id}`)).body.title).toBe('renamed by a model hook');
    expect((await call('DELETE', `/api/collections/notes/records/${note.id}`, { token: adminToken })).status).toBe(204);
    expect((await call('GET', '/model-events')).body.deleted).toBe(note.id);
  });

  it("model hooks around a hook's own Dao writes: before changes, skips or refuses the save; after follows it, at the commit in a transaction", async () => {
    const ok = (await call('POST', '/dao-write/ok')).body;
    expect(ok).toMatchObject({ title: 'dao ok (model hook)', stored: 1 });
    expect(ok.lastCreated).toBe(ok.id);
    expect(await call('POST', '/dao-write/refuse')).toMatchObject({ status: 400, body: { error: 'Refused by a model hook.' } });
    const skipped = (await call('POST', '/dao-write/skip')).body;
    expect(skipped).toMatchObject({ title: 'dao skip', stored: 0, lastCreated: ok.id });
    expect(skipped.id).toMatch(/^[a-z0-9]{15}$/);
    // a rolled-back transaction's after hooks never run; a committed one's run after the commit
    const before = (await call('POST', '/tx/ok')).body.count;
    const created = (await call('GET', '/model-events')).body.created;
    expect((await call('POST', '/tx/fail')).body.rolledBack).toBe(true);
    expect((await call('GET', '/model-events')).body.created).toBe(created);
    expect((await call('POST', '/tx/ok')).body.count).toBe(before + 1);
    const events = (await call('GET', '/model-events')).body;
    expect(events.created).not.toBe(created);
    // the before hook's e.dao read inside the transaction: the committed rows so far
    expect(events.seenInTx).toBe(before);
  });

  it('sign-in hooks: a before hook picks the record for a custom identity, onRecordAuthRequest sees the token', async () => {
    const signIn = await call('POST', '/api/collections/users/auth-with-password', { body: { identity: 'alias', password: 'user-pass-1' } });
    expect(signIn.status).toBe(200);
    expect(signIn.body.record.email).toBe('u@example.com');
    expect((await call('GET', '/last-auth')).body).toBe(`${signIn.body.record.id} with token`);
    const wrong = await call('POST', '/api/collections/users/auth-with-password', { body: { identity: 'alias', password: 'nope-nope' } });
    expect(wrong.body).toEqual({ code: 400, message: 'Failed to authenticate.', data: {} });
  });

  it('mailer hooks: a before hook changes the mail or keeps it from being sent; the after hook follows the send', async () => {
    // a new account each start (0.22 sends one reset mail per account every 2 minutes)
    const email = `mail-${startName}@example.com`;
    await call('POST', '/api/collections/users/records', { body: { email, password: 'user-pass-1', passwordConfirm: 'user-pass-1' } });
    const before = smtp.mails.length;
    expect((await call('POST', '/api/collections/users/request-password-reset', { body: { email } })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe(`Custom reset for ${email} (token given)`);
    for (let i = 0; i < 50 && (await call('GET', '/reset-sent')).body !== email; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await call('GET', '/reset-sent')).body).toBe(email);
    expect((await call('POST', '/api/collections/users/request-verification', { body: { email } })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.slice(before).map((m) => m.subject)).toEqual([`Custom reset for ${email} (token given)`]);
  });

  it("0.22's leniencies: a route path without its slash, a constructor without new, $app.logger(), $apis.requestInfo(), routerUse, custom commands", async () => {
    const res = await call('GET', '/no-slash?q=1');
    expect(res.body).toEqual({ title: 'made without new', q: '1', agent: 'yes' });
    for (const p of ['/api/health', '/no-slash', '/api/collections/notes/records']) {
      expect(await http(srv.url, 'GET', p, { headers: { 'X-Block': '1' } }), p).toMatchObject({ status: 403, body: { blocked: true } });
    }
    expect((await call('GET', '/api/health')).status).toBe(200);
    const logs = await call('GET', `/api/logs?filter=${encodeURIComponent('message = "compat route"')}`, { token: adminToken });
    for (let i = 0; i < 50 && !logs.body.items?.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      Object.assign(logs, await call('GET', `/api/logs?filter=${encodeURIComponent('message = "compat route"')}`, { token: adminToken }));
    }
    expect(logs.body.items[0]).toMatchObject({ level: 0, message: 'compat route', data: { title: 'made without new' } });
    // the custom command loads; `outpost hello` runs it (tests/server/hooks-namespaces-more.test.ts)
    expect(srv.output()).not.toContain('custom command');
  });

  it('realtime hooks: a before-subscribe handler adds or refuses subscriptions, after and disconnect follow', async () => {
    const sse = await connectSse(srv.url);
    const refused = await call('POST', '/api/realtime', { body: { clientId: sse.clientId, subscriptions: ['forbidden'] } });
    expect(refused.body).toEqual({ code: 403, message: 'Not that one.', data: {} });
    expect((await call('POST', '/api/realtime', { body: { clientId: sse.clientId, subscriptions: ['other'] } })).status).toBe(204);
    expect((await call('GET', '/realtime-events')).body.subscribed).toBe(`${sse.clientId}:other,notes`);
    // the subscription the handler added works: a new note reaches the client
    const created = (await call('POST', '/api/collections/notes/records', { body: { title: 'live' } })).body;
    const frame = await sse.next((f) => f.event === 'notes');
    expect(frame.data.record.id).toBe(created.id);
    sse.close();
    await expect.poll(async () => (await call('GET', '/realtime-events')).body.disconnected).toBe(sse.clientId);
  });

  it('the Dao: a transaction that throws rolls back, one that returns commits; realtime hears of committed writes only', async () => {
    const sse = await connectSse(srv.url);
    expect((await call('POST', '/api/realtime', { body: { clientId: sse.clientId, subscriptions: ['notes'] } })).status).toBe(204);
    const failed = await call('POST', '/tx/fail');
    expect(failed.body.rolledBack).toBe(true);
    const committed = await call('POST', '/tx/ok');
    expect(committed.body.rolledBack).toBe(false);
    expect(committed.body.count).toBe(failed.body.count + 1);
    const frame = await sse.next((f) => f.event === 'notes');
    expect(frame.data).toMatchObject({ action: 'create', record: { title: 'in tx' } });
    // the rolled-back write was never announced: the first notes event is the committed one
    expect(sse.frames.filter((f) => f.event === 'notes')).toHaveLength(1);
    sse.close();
  });

  it("errors as 0.22's API maps them: no rows is a 404, anything else a 400 that hides its detail", async () => {
    expect(await call('GET', '/missing')).toMatchObject({ status: 404, body: { code: 404, message: "The requested resource wasn't found.", data: {} } });
    const boom = await call('GET', '/boom');
    expect(boom.body).toEqual({ code: 400, message: 'Something went wrong while processing your request.', data: {} });
  });

  it("c.realIP() is the client's address as the trusted proxy settings resolve it; c.request().remoteAddr the socket's", async () => {
    const ip = (headers: Record<string, string>) => call('GET', '/ip', { headers }).then((r) => r.body);
    expect(await ip({ 'X-Forwarded-For': '203.0.113.9' })).toEqual({ real: '127.0.0.1', remote: '127.0.0.1' });
    const patched = await call('PATCH', '/api/settings', { token: adminToken, body: { trustedProxy: { headers: ['X-Forwarded-For'], useLeftmostIP: false } } });
    expect([patched.status, patched.body.trustedProxy]).toEqual([200, { headers: ['X-Forwarded-For'], useLeftmostIP: false }]);
    try {
      expect(await ip({ 'X-Forwarded-For': '203.0.113.9' })).toEqual({ real: '203.0.113.9', remote: '127.0.0.1' });
    } finally {
      await call('PATCH', '/api/settings', { token: adminToken, body: { trustedProxy: { headers: [], useLeftmostIP: false } } });
    }
  });

  it('a mail from a hook to a slow SMTP server holds up only its own request', async () => {
    const slowSmtp = await startSmtp({ delayMs: 2000 });
    const smtpOf = (port: number) => ({ smtp: { enabled: true, host: '127.0.0.1', port, tls: false } });
    expect((await call('PATCH', '/api/settings', { token: adminToken, body: smtpOf(slowSmtp.port) })).status).toBe(200);
    try {
      const t0 = Date.now();
      const mailed = call('POST', '/mail-now').then((r) => ({ ...r, ms: Date.now() - t0 }));
      await new Promise((r) => setTimeout(r, 300));
      // meanwhile the server, and another hook route, answer at once
      for (const p of ['/api/health', '/hello/x']) {
        const t1 = Date.now();
        expect((await call('GET', p)).status).toBe(200);
        expect(Date.now() - t1).toBeLessThan(1000);
      }
      const done = await mailed;
      expect([done.status, done.body]).toEqual([200, { sent: true }]);
      expect(done.ms).toBeGreaterThanOrEqual(1900);
      expect((await slowSmtp.waitFor((m) => m.to.includes('slow@example.com'))).subject).toBe('From a hook');
    } finally {
      await call('PATCH', '/api/settings', { token: adminToken, body: smtpOf(smtp.port) });
      await slowSmtp.close();
    }
  });

  it("require() of an npm package from the project folder's node_modules and of Node's built-ins", async () => {
    expect((await call('GET', '/npm')).body).toEqual({ padded: '007', sha1: '11f6ad8e' });
  });

  it("c.response().writeHeader() and write(): echo's Response as a writer", async () => {
    const res = await fetch(`${srv.url}/streamed`);
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([201, 'text/csv', 'a,b\n1,2\n']);
  });

  it("the request log as 0.22 keeps it: a route's successes only behind $apis.activityLogger, its errors always", async () => {
    const tag = `?at=${Date.now()}`;
    for (const p of ['/hello/log', '/logged', '/boom']) await call('GET', p + tag);
    const logged = async () => {
      const res = await call('GET', `/api/logs?perPage=50&filter=${encodeURIComponent(`data.url ~ "${tag}"`)}`, { token: adminToken });
      return (res.body.items as Array<{ data: { url: string; status: number } }>).map((i) => `${i.data.url.split('?')[0]} ${i.data.status}`).sort();
    };
    let urls: string[] = [];
    for (let i = 0; i < 50 && urls.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      urls = await logged();
    }
    expect(urls).toEqual(['/boom 400', '/logged 200']);
  });

  it('a blocking handler holds up only its own request; a runaway one is stopped and the server goes on', async () => {
    let slowDone = false;
    const slow = Promise.all([1, 2, 3].map(() => call('GET', '/slow'))).finally(() => (slowDone = true));
    await new Promise((r) => setTimeout(r, 100));
    // answered while the three handlers still sleep (each blocks its own executor only)
    expect((await call('GET', '/api/health')).status).toBe(200);
    expect((await call('GET', '/hello/x')).status).toBe(200);
    expect(slowDone).toBe(false);
    expect((await slow).map((r) => r.body)).toEqual(['slept', 'slept', 'slept']);

    const runaway = await call('GET', '/forever');
    expect(runaway.body).toEqual({ code: 400, message: 'Something went wrong while processing your request.', data: {} });
    expect((await call('GET', '/hello/again')).body.message).toBe('hello again');
  });
});

describe('hook files that do not load', () => {
  async function serveWith(files: Record<string, string>): Promise<{ code: number | null; out: string }> {
    const dir = tempDir('outpost-hooks-bad-');
    try {
      fs.mkdirSync(path.join(dir, 'pb_hooks'));
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'pb_hooks', name), text);
      const res = await runCli(['serve', `--dir=${path.join(dir, 'pb_data')}`, '--http=127.0.0.1:0'], dir);
      return { code: res.code, out: res.stdout + res.stderr };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('a syntax error, a throw at load and a bad cron expression stop serve with the file and line', async () => {
    const syntax = await serveWith({ 'a.pb.js': 'routerAdd("GET", "/x", (c) => {\n  return c.json(200, {;\n});\n' });
    expect(syntax.code).toBe(1);
    expect(syntax.out).toMatch(/a\.pb\.js/);
    const thrown = await serveWith({ 'b.pb.js': '// b\nthrow new Error("not today");\n' });
    expect(thrown.code).toBe(1);
    expect(thrown.out).toContain('Failed to execute b.pb.js:2: not today');
    const cron = await serveWith({ 'c.pb.js': 'cronAdd("x", "* * * * * *", () => {});\n' });
    expect(cron.code).toBe(1);
    expect(cron.out).toContain('invalid cron expression');
    const boot = await serveWith({ 'd.pb.js': 'onAfterBootstrap((e) => {\n  $app.dao().findCollectionByNameOrId("nothing");\n});\n' });
    expect(boot.code).toBe(1);
    expect(boot.out).toContain('onAfterBootstrap failed (d.pb.js:2): sql: no rows in result set');
  });
});
