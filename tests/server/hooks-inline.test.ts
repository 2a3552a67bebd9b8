// pb_hooks handlers on the main thread (server/hooks/inline-runner.ts): record request handlers
// that can only touch their event run without the hand-off to an executor, with the same results
// an executor gives (a field set, a validation error with its data, `return false`, a response
// written, a crash with its file and line), their console lines printed; a handler that tries
// blocking work (a record's password, which hashes) is given to an executor whole, even when it
// catches the refusal; a handler over a file variable runs in an executor. Settings › Hooks says
// which run where. The built server ('server-built'), started twice.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';

const ADMIN = { email: 'hooks-inline@example.com', password: 'hooks-inline-pass-1' };

const MAIN = `/// <reference path="../pb_data/types.d.ts" />
// small handlers of their event only: on the main thread
onRecordBeforeCreateRequest((e) => {
  const title = e.record.getString("title");
  if (title === "refuse") throw new BadRequestError("Refused by a hook.", { title: new ValidationError("hook_refused", "Not this title.") });
  if (title === "stop") return false;
  e.record.set("slug", title.toLowerCase().split(" ").join("-"));
  console.log("inline before create:", title);
}, "notes");

onRecordAfterCreateRequest((e) => {
  if (e.record.getString("title") === "answer") return e.httpContext.json(201, { answered: e.record.getString("slug") });
}, "notes");

onRecordAfterCreateRequest((e) => {
  if (e.record.getString("title") === "crash") return e.record.get("nothing").deeper;
}, "notes");

// a password set hashes: tried on the main thread, then given to an executor
onRecordBeforeCreateRequest((e) => {
  try {
    e.record.set("password", "from-the-hook-1");
    e.record.set("passwordConfirm", "from-the-hook-1");
  } catch (err) {}
  e.record.set("name", "hooked");
}, "users");

// a file variable: in an executor
let updates = 0;
onRecordBeforeUpdateRequest((e) => {
  updates++;
  e.record.set("count", updates);
}, "notes");
`;

/** The 1-based line of `text` in MAIN. */
const lineOf = (text: string) => MAIN.split('\n').findIndex((l) => l.includes(text)) + 1;

const work = tempDir('outpost-hooks-inline-');
const dataDir = path.join(work, 'pb_data');
const hooksDir = path.join(work, 'pb_hooks');
let srv: ServerProcess;
let token = '';

const call = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { token, body });
const guest = (method: string, p: string, body?: unknown) => http(srv.url, method, p, { body });

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  token = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
}

beforeAll(async () => {
  fs.mkdirSync(hooksDir, { recursive: true });
  fs.writeFileSync(path.join(hooksDir, 'main.pb.js'), MAIN);
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  const notes = await call('POST', '/api/collections', {
    name: 'notes',
    type: 'base',
    createRule: '',
    updateRule: '',
    viewRule: '',
    listRule: '',
    schema: [
      { name: 'title', type: 'text' },
      { name: 'slug', type: 'text' },
      { name: 'count', type: 'number' },
    ],
  });
  expect(notes.status).toBe(200);
  const users = await call('PATCH', '/api/collections/users', { createRule: '' });
  expect(users.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('record hooks on the main thread (%s start)', (startName) => {
  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
    }
  });

  it('Settings › Hooks says which handlers run on the main thread', async () => {
    const { body } = await call('GET', '/api/outpost/hooks');
    expect(body.hooks.map((h: { name: string; tags: string[]; mainThread: boolean }) => [h.name, h.tags, h.mainThread])).toEqual([
      ['onRecordBeforeCreateRequest', ['notes'], true],
      ['onRecordAfterCreateRequest', ['notes'], true],
      ['onRecordAfterCreateRequest', ['notes'], true],
      ['onRecordBeforeCreateRequest', ['users'], true],
      ['onRecordBeforeUpdateRequest', ['notes'], false],
    ]);
  });

  it('a field set by a handler is saved, and its console line printed', async () => {
    const title = `Hello ${startName} World`;
    const created = await guest('POST', '/api/collections/notes/records', { title });
    expect(created).toMatchObject({ status: 200, body: { title, slug: `hello-${startName}-world` } });
    expect((await guest('GET', `/api/collections/notes/records/${created.body.id}`)).body.slug).toBe(`hello-${startName}-world`);
    await expect.poll(() => srv.output()).toContain(`inline before create: ${title}`);
  });

  it("a handler's error is the answer, with its status, message and field errors", async () => {
    const before = (await guest('GET', '/api/collections/notes/records?perPage=1')).body.totalItems;
    expect(await guest('POST', '/api/collections/notes/records', { title: 'refuse' })).toMatchObject({
      status: 400,
      body: { code: 400, message: 'Refused by a hook.', data: { title: { code: 'hook_refused', message: 'Not this title.' } } },
    });
    expect((await guest('GET', '/api/collections/notes/records?perPage=1')).body.totalItems).toBe(before);
  });

  it('return false ends the flow: 200 with no body, nothing saved', async () => {
    const before = (await guest('GET', '/api/collections/notes/records?perPage=1')).body.totalItems;
    const res = await guest('POST', '/api/collections/notes/records', { title: 'stop' });
    expect(res).toMatchObject({ status: 200, body: null });
    expect((await guest('GET', '/api/collections/notes/records?perPage=1')).body.totalItems).toBe(before);
  });

  it('a response a handler writes is the answer', async () => {
    expect(await guest('POST', '/api/collections/notes/records', { title: 'answer' })).toMatchObject({ status: 201, body: { answered: 'answer' } });
  });

  it("a crash answers 0.22's generic 400 and is listed with its file and line", async () => {
    expect(await guest('POST', '/api/collections/notes/records', { title: 'crash' })).toMatchObject({ status: 400, body: { code: 400, message: 'Something went wrong while processing your request.', data: {} } });
    const { body } = await call('GET', '/api/outpost/hooks');
    expect(body.errors[0]).toMatchObject({ kind: 'hook', source: 'onRecordAfterCreateRequest (notes)', place: `main.pb.js:${lineOf('e.record.get("nothing")')}` });
    expect(body.errors[0].message).toContain('deeper');
  });

  it('a password set (it hashes) runs in an executor, even when the handler catches the refusal', async () => {
    const email = `hooked-${startName}@example.com`;
    const created = await guest('POST', '/api/collections/users/records', { email, password: 'typed-by-user-1', passwordConfirm: 'typed-by-user-1' });
    expect(created).toMatchObject({ status: 200, body: { name: 'hooked' } });
    expect((await guest('POST', '/api/collections/users/auth-with-password', { identity: email, password: 'from-the-hook-1' })).status).toBe(200);
    expect((await guest('POST', '/api/collections/users/auth-with-password', { identity: email, password: 'typed-by-user-1' })).status).toBe(400);
  });

  it("a handler over its file's variable runs in an executor, its variable kept between calls", async () => {
    const created = await guest('POST', '/api/collections/notes/records', { title: 'counted' });
    const first = await guest('PATCH', `/api/collections/notes/records/${created.body.id}`, { title: 'counted' });
    const second = await guest('PATCH', `/api/collections/notes/records/${created.body.id}`, { title: 'counted' });
    expect(second.body.count).toBe(first.body.count + 1);
  });
});
