// pb_hooks (issue 34): the file hooks (onFileDownloadRequest, onFile{Before,After}TokenRequest),
// the API error hooks (onBeforeApiError, onAfterApiError) and the realtime connect and message
// hooks (onRealtimeConnectRequest, onRealtime{Before,After}MessageSend) fire as 0.22.12's do. The
// specification is 0.22.12's apis/file_test.go and apis/realtime_test.go (their ExpectedEvents, and
// the API error pair 0.22's test harness adds to every error answer), replayed with
// tests/helpers/hooks-events-runner.ts on a copy of the 0.22.12 fixture against a server whose
// hooks folder notes every hook as it fires (tests/helpers/hooks-events-project.ts); then what
// each event gives its handlers and what they may do (change it, return false, write a response,
// throw), and tags. The built server in 'server-built', started twice.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/cli';
import { EVENTS_HOOK_FILES } from '../helpers/hooks-events-project';
import { counts, eventsClient, expectedEvents, holdsInOrder, jsName, type Scenario } from '../helpers/hooks-events-runner';
import { T, USER1 } from '../helpers/record-auth-fixture';
import { FIXTURE_DIR, http as apiCall, tempDir } from '../helpers/server';
import type { ServerProcess } from '../helpers/server-process';

const ADMIN_ID = 'sywbhecnh46rhm0';
const PNG = '/api/files/_pb_users_auth_/4q1xlclmfloku33/300_1SEi6Q6U72.png';
const TXT = '/api/files/_pb_users_auth_/oap640cot4yru2s/test_kfd2wYLxkz.txt';
const PROTECTED = '/api/files/demo1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png';
// the fixture's file tokens: valid until 2029-12-31, and an expired one (apis/file_test.go's)
const ADMIN_FILE =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsImV4cCI6MTg5MzQ1MjQ2MSwidHlwZSI6ImFkbWluIn0.LyAMpSfaHVsuUqIlqqEbhDQSdFzoPz_EIDcb2VJMBsU';
const ADMIN_FILE_EXPIRED =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6InN5d2JoZWNuaDQ2cmhtMCIsImV4cCI6MTY0MDk5MTY2MSwidHlwZSI6ImFkbWluIn0.g7Q_3UX6H--JWJ7yt1Hoe-1ugTX1KpbKzdt0zjGSe-E';
const USER1_FILE =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IjRxMXhsY2xtZmxva3UzMyIsImV4cCI6MTg5MzQ1MjQ2MSwiY29sbGVjdGlvbklkIjoiX3BiX3VzZXJzX2F1dGhfIiwidHlwZSI6ImF1dGhSZWNvcmQifQ.0d_0EO6kfn9ijZIQWAqgRi8Bo1z7MKcg1LQpXhQsEPk';
const FILE_TOKENS_VALID = Date.now() < Date.UTC(2029, 11, 31, 23, 0, 0);

/** Tagged handlers beside the events project: each notes that it ran ("tag:" keys, cleared with the events). */
const TAGS_FILE = `/// <reference path="../pb_data/types.d.ts" />
onFileDownloadRequest((e) => { $app.store().set("tag:download:" + e.collection.name, true); }, "demo1");
onFileBeforeTokenRequest((e) => { $app.store().set("tag:token:" + e.model.id, true); }, "_admins");
onFileAfterTokenRequest((e) => { $app.store().set("tag:token-after:" + e.model.id, true); }, "_pb_users_auth_");
// ?servedPath=<key> serves that storage key instead
onFileDownloadRequest((e) => { const to = e.httpContext.queryParam("servedPath"); if (to) e.servedPath = to; });
routerAdd("GET", "/__tags", (c) => c.json(200, Object.keys($app.store().getAll()).filter((k) => k.startsWith("tag:")).sort()));
`;

const work = tempDir('outpost-hooks-events-files-');
const dataDir = path.join(work, 'pb_data');
let srv: ServerProcess;
const call = (method: string, p: string, opts: Parameters<typeof apiCall>[3] = {}) => apiCall(srv.url, method, p, opts);
const { recorded, act, probe, waitFor, check } = eventsClient(call);

// ---- an SSE connection with request headers (X-Fail-Hook, ...), read as it comes -------------

interface Sse {
  status: number;
  body: string;
  frames: Array<{ event: string; data: string }>;
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

const openStreams = new Set<Sse>();

function openSse(headers: Record<string, string> = {}): Promise<Sse> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${srv.url}/api/realtime`, { agent: false, headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      let ended = false;
      let done!: () => void;
      const sse: Sse = { status: res.statusCode ?? 0, body: '', frames: [], ended: new Promise((r) => (done = r)), isEnded: () => ended, close: () => req.destroy() };
      res.on('data', (chunk: string) => {
        sse.body += chunk;
        sse.frames = sse.body
          .split('\n\n')
          .slice(0, -1)
          .map((raw) => {
            const line = (key: string) => raw.split('\n').find((l) => l.startsWith(`${key}:`))?.slice(key.length + 1) ?? '';
            return { event: line('event'), data: line('data') };
          });
      });
      const finish = () => {
        if (ended) return;
        ended = true;
        openStreams.delete(sse);
        done();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      openStreams.add(sse);
      resolve(sse);
    });
    req.on('error', reject);
  });
}

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (await cond()) return;
  throw new Error(`timed out waiting for ${what}`);
}

/** A connected realtime client whose PB_CONNECT events are all recorded (they do not leak into what follows). */
async function connected(): Promise<{ sse: Sse; clientId: string }> {
  const sse = await openSse();
  await until(() => sse.frames.some((f) => f.event === 'PB_CONNECT'), 'PB_CONNECT');
  await waitFor('onRealtimeAfterMessageSend');
  return { sse, clientId: (JSON.parse(sse.frames[0].data) as { clientId: string }).clientId };
}

/** Closes the open streams and waits until their disconnect events were recorded. */
async function closeStreams(): Promise<void> {
  const open = [...openStreams];
  if (!open.length) return;
  for (const s of open) s.close();
  await until(async () => (await recorded()).filter((n) => n === 'onRealtimeDisconnectRequest').length >= open.length, 'the disconnect events');
}

function expectEvents(events: string[], s: Pick<Scenario, 'status' | 'events' | 'order'>): void {
  expect(counts(events), events.join(', ')).toEqual(expectedEvents(s as Scenario));
  for (const sequence of s.order ?? []) {
    const fired = sequence.map(jsName);
    expect(holdsInOrder(events, fired), `${fired.join(' → ')} in ${events.join(', ')}`).toBe(true);
  }
}

// ---- 0.22's scenarios ------------------------------------------------------------------------

interface FileScenario extends Scenario {
  /** Needs the fixture's file tokens (valid until 2029-12-31). */
  fileToken?: boolean;
  /** demo1's viewRule for the scenario (0.22's BeforeTestFunc), put back to null after it. */
  demo1ViewRule?: string;
}

const DOWNLOAD = { OnFileDownloadRequest: 1 };
const TOKEN = { OnFileBeforeTokenRequest: 1, OnFileAfterTokenRequest: 1 };
const SUBSCRIBE = { OnRealtimeBeforeSubscribeRequest: 1, OnRealtimeAfterSubscribeRequest: 1 };

const DOWNLOADS: FileScenario[] = [
  { area: 'TestFileDownload', name: 'missing collection', method: 'GET', url: '/api/files/missing/4q1xlclmfloku33/300_1SEi6Q6U72.png', status: 404, events: {} },
  { area: 'TestFileDownload', name: 'missing record', method: 'GET', url: '/api/files/_pb_users_auth_/missing/300_1SEi6Q6U72.png', status: 404, events: {} },
  { area: 'TestFileDownload', name: 'missing file', method: 'GET', url: '/api/files/_pb_users_auth_/4q1xlclmfloku33/missing.png', status: 404, events: {} },
  { area: 'TestFileDownload', name: 'existing image', method: 'GET', url: PNG, status: 200, events: DOWNLOAD },
  { area: 'TestFileDownload', name: 'existing image - missing thumb (should fallback to the original)', method: 'GET', url: `${PNG}?thumb=999x999`, status: 200, events: DOWNLOAD },
  ...Object.entries({ '70x50': 'crop center', '70x50t': 'crop top', '70x50b': 'crop bottom', '70x50f': 'fit', '0x50': 'zero width', '70x0': 'zero height' }).map(
    ([thumb, kind]): FileScenario => ({ area: 'TestFileDownload', name: `existing image - existing thumb (${kind})`, method: 'GET', url: `${PNG}?thumb=${thumb}`, status: 200, events: DOWNLOAD }),
  ),
  { area: 'TestFileDownload', name: 'existing non image file - thumb parameter should be ignored', method: 'GET', url: `${TXT}?thumb=100x100`, status: 200, events: DOWNLOAD },
  { area: 'TestFileDownload', name: 'protected file - expired token', method: 'GET', url: `${TXT}?thumb=100x100`, status: 200, events: DOWNLOAD },
  { area: 'TestFileDownload', name: 'protected file - admin with expired file token', method: 'GET', url: `${PROTECTED}?token=${ADMIN_FILE_EXPIRED}`, status: 403, events: {} },
  { area: 'TestFileDownload', name: 'protected file - admin with valid file token', method: 'GET', url: `${PROTECTED}?token=${ADMIN_FILE}`, status: 200, events: DOWNLOAD, fileToken: true },
  { area: 'TestFileDownload', name: 'protected file - guest without view access', method: 'GET', url: PROTECTED, status: 403, events: {} },
  { area: 'TestFileDownload', name: 'protected file - guest with view access', method: 'GET', url: PROTECTED, status: 200, events: DOWNLOAD, demo1ViewRule: '' },
  { area: 'TestFileDownload', name: 'protected file - auth record without view access', method: 'GET', url: `${PROTECTED}?token=${USER1_FILE}`, status: 403, events: {}, demo1ViewRule: '@request.auth.verified = true', fileToken: true },
  { area: 'TestFileDownload', name: 'protected file - auth record with view access', method: 'GET', url: `${PROTECTED}?token=${USER1_FILE}`, status: 200, events: DOWNLOAD, demo1ViewRule: '@request.auth.verified = false', fileToken: true },
  { area: 'TestFileDownload', name: "protected file in view (view's View API rule failure)", method: 'GET', url: `/api/files/view1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png?token=${USER1_FILE}`, status: 403, events: {}, fileToken: true },
  { area: 'TestFileDownload', name: "protected file in view (view's View API rule success)", method: 'GET', url: `/api/files/view1/84nmscqy84lsi1t/test_d61b33QdDU.txt?token=${USER1_FILE}`, status: 200, events: DOWNLOAD, fileToken: true },
];

/** A connected client's id as the subscribe body, after `setUp` (subscriptions it had before, its auth). */
const withClient = (subscriptions: string[], setUp?: (clientId: string) => Promise<void>) => async () => {
  const { clientId } = await connected();
  await setUp?.(clientId);
  return { body: { clientId, subscriptions } };
};

const SCENARIOS: FileScenario[] = [
  // ---- apis/file_test.go ----------------------------------------------------------------------
  { area: 'TestFileToken', name: 'unauthorized', method: 'POST', url: '/api/files/token', status: 400, events: { OnFileBeforeTokenRequest: 1 } },
  { area: 'TestFileToken', name: 'auth record', method: 'POST', url: '/api/files/token', token: T.user1, status: 200, events: TOKEN, order: [['OnFileBeforeTokenRequest', 'OnFileAfterTokenRequest']] },
  { area: 'TestFileToken', name: 'admin', method: 'POST', url: '/api/files/token', token: T.admin, status: 200, events: TOKEN, order: [['OnFileBeforeTokenRequest', 'OnFileAfterTokenRequest']] },
  // each download scenario as HEAD first, then GET (0.22 runs both)
  ...DOWNLOADS.flatMap((s): FileScenario[] => [{ ...s, method: 'HEAD', name: `(HEAD) ${s.name}` }, s]),

  // ---- apis/realtime_test.go (TestRealtimeSubscribe; the connect ones below) -------------------
  { area: 'TestRealtimeSubscribe', name: 'missing client', method: 'POST', url: '/api/realtime', body: { clientId: 'missing', subscriptions: ['test1', 'test2'] }, status: 404, events: {} },
  {
    area: 'TestRealtimeSubscribe',
    name: 'existing client - empty subscriptions',
    method: 'POST',
    url: '/api/realtime',
    prepare: withClient([], async (clientId) => void (await call('POST', '/api/realtime', { body: { clientId, subscriptions: ['test0'] } }))),
    status: 204,
    events: SUBSCRIBE,
    order: [['OnRealtimeBeforeSubscribeRequest', 'OnRealtimeAfterSubscribeRequest']],
  },
  {
    area: 'TestRealtimeSubscribe',
    name: 'existing client - 2 new subscriptions',
    method: 'POST',
    url: '/api/realtime',
    prepare: withClient(['test1', 'test2'], async (clientId) => void (await call('POST', '/api/realtime', { body: { clientId, subscriptions: ['test0'] } }))),
    status: 204,
    events: SUBSCRIBE,
  },
  { area: 'TestRealtimeSubscribe', name: 'existing client - authorized admin', method: 'POST', url: '/api/realtime', token: T.admin, prepare: async () => ({ ...(await withClient(['test1', 'test2'])()), token: T.admin }), status: 204, events: SUBSCRIBE },
  { area: 'TestRealtimeSubscribe', name: 'existing client - authorized record', method: 'POST', url: '/api/realtime', prepare: async () => ({ ...(await withClient(['test1', 'test2'])()), token: T.user1 }), status: 204, events: SUBSCRIBE },
  {
    area: 'TestRealtimeSubscribe',
    name: 'existing client - mismatched auth',
    method: 'POST',
    url: '/api/realtime',
    prepare: async () => ({
      ...(await withClient(['test1', 'test2'], async (clientId) => void (await call('POST', '/api/realtime', { token: T.user2, body: { clientId, subscriptions: [] } })))()),
      token: T.user1,
    }),
    status: 403,
    events: {},
  },
];

const CONNECT: Array<Pick<Scenario, 'name' | 'status' | 'events' | 'order'> & { headers?: Record<string, string>; serverCloses: boolean }> = [
  {
    name: '(the connection, its PB_CONNECT and its end)',
    status: 200,
    events: { OnRealtimeConnectRequest: 1, OnRealtimeBeforeMessageSend: 1, OnRealtimeAfterMessageSend: 1, OnRealtimeDisconnectRequest: 1 },
    order: [['OnRealtimeConnectRequest', 'OnRealtimeBeforeMessageSend', 'OnRealtimeAfterMessageSend', 'OnRealtimeDisconnectRequest']],
    serverCloses: false,
  },
  {
    name: 'PB_CONNECT interrupt',
    headers: { 'X-Fail-Hook': 'onRealtimeBeforeMessageSend' },
    status: 200,
    events: { OnRealtimeConnectRequest: 1, OnRealtimeBeforeMessageSend: 1, OnRealtimeDisconnectRequest: 1 },
    order: [['OnRealtimeConnectRequest', 'OnRealtimeBeforeMessageSend', 'OnRealtimeDisconnectRequest']],
    serverCloses: true,
  },
  {
    name: 'Skipping/ignoring messages',
    headers: { 'X-Stop-Hook': 'onRealtimeBeforeMessageSend' },
    status: 200,
    events: { OnRealtimeConnectRequest: 1, OnRealtimeBeforeMessageSend: 1, OnRealtimeDisconnectRequest: 1 },
    order: [['OnRealtimeConnectRequest', 'OnRealtimeBeforeMessageSend', 'OnRealtimeDisconnectRequest']],
    serverCloses: false,
  },
];

const setDemo1ViewRule = async (viewRule: string | null) => {
  const res = await call('PATCH', '/api/collections/demo1', { token: T.admin, body: { viewRule } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

async function start(): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
}

beforeAll(() => {
  fs.mkdirSync(path.join(work, 'pb_hooks'), { recursive: true });
  for (const [name, text] of Object.entries({ ...EVENTS_HOOK_FILES, 'tags.pb.js': TAGS_FILE })) fs.writeFileSync(path.join(work, 'pb_hooks', name), text);
});

afterAll(async () => {
  for (const s of openStreams) s.close();
  await srv?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('0.22 file and realtime scenarios, the hook events they fire (%s start)', () => {
  beforeAll(async () => {
    if (srv) await srv.stop();
    await start();
  });

  for (const s of SCENARIOS) {
    it.skipIf(s.fileToken && !FILE_TOKENS_VALID)(`${s.area} › ${s.name}`, async () => {
      if (s.demo1ViewRule !== undefined) await setDemo1ViewRule(s.demo1ViewRule);
      try {
        await check(s);
      } finally {
        if (s.demo1ViewRule !== undefined) await setDemo1ViewRule(null);
        await closeStreams();
      }
    });
  }

  for (const s of CONNECT) {
    it(`TestRealtimeConnect › ${s.name}`, async () => {
      expect((await call('DELETE', '/__events')).status).toBe(204);
      const sse = await openSse(s.headers);
      expect(sse.status).toBe(s.status);
      await waitFor('onRealtimeBeforeMessageSend');
      if (s.serverCloses) await sse.ended;
      else {
        // the PB_CONNECT frame (or none, skipped), then the client goes
        await new Promise((r) => setTimeout(r, 200));
        expect(sse.isEnded()).toBe(false);
        sse.close();
      }
      await waitFor('onRealtimeDisconnectRequest');
      await new Promise((r) => setTimeout(r, 100));
      expectEvents(await recorded(), s);
      expect(sse.frames.map((f) => f.event)).toEqual(s.name.startsWith('(') ? ['PB_CONNECT'] : []);
    });
  }

  describe('what the file hooks give their handlers, and what the handlers may do', () => {
    it('onFileDownloadRequest: e.record, e.collection, e.fileField, e.servedPath (the storage key) and e.servedName, of the thumb when one is served', async () => {
      expect((await act('X-Probe-Hook', 'onFileDownloadRequest', 'GET', PNG)).status).toBe(200);
      expect(await probe()).toMatchObject({ collection: 'users', record: { id: USER1 }, fileField: 'avatar', servedPath: '_pb_users_auth_/4q1xlclmfloku33/300_1SEi6Q6U72.png', servedName: '300_1SEi6Q6U72.png' });
      expect((await act('X-Probe-Hook', 'onFileDownloadRequest', 'GET', `${PNG}?thumb=70x50`)).status).toBe(200);
      expect(await probe()).toMatchObject({ servedPath: '_pb_users_auth_/4q1xlclmfloku33/thumbs_300_1SEi6Q6U72.png/70x50_300_1SEi6Q6U72.png', servedName: '70x50_300_1SEi6Q6U72.png' });
    });

    it('a changed e.servedPath and e.servedName serve that stored file under that name; a key out of the storage answers 404', async () => {
      const res = await fetch(srv.url + PNG, { headers: { 'X-Change-Hook': 'onFileDownloadRequest' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename=renamed-by-a-hook.txt');
      const txt = fs.readFileSync(path.join(FIXTURE_DIR, 'storage', '_pb_users_auth_', 'oap640cot4yru2s', 'test_kfd2wYLxkz.txt'));
      expect(Buffer.from(await res.arrayBuffer())).toEqual(txt);
      const served = await fetch(`${srv.url}${PNG}?servedPath=${encodeURIComponent('_pb_users_auth_/oap640cot4yru2s/test_kfd2wYLxkz.txt')}`);
      expect([served.status, served.headers.get('content-disposition')]).toEqual([200, 'attachment; filename=300_1SEi6Q6U72.png']);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(txt);
      for (const key of ['../data.db', '_pb_users_auth_/../../data.db', '/etc/passwd', '_pb_users_auth_/4q1xlclmfloku33', 'missing/file.txt']) {
        expect((await call('GET', `${PNG}?servedPath=${encodeURIComponent(key)}`)).body, key).toEqual({ code: 404, message: "The requested resource wasn't found.", data: {} });
      }
    });

    it('return false: 200 with no body; a written response is the answer; a thrown error answers as 0.22 answers it (with the API error hooks)', async () => {
      const stopped = await act('X-Stop-Hook', 'onFileDownloadRequest', 'GET', PNG);
      expect([stopped.status, stopped.body]).toEqual([200, null]);
      const answered = await act('X-Answer-Hook', 'onFileDownloadRequest', 'GET', PNG);
      expect([answered.status, answered.body]).toEqual([418, { answeredBy: 'onFileDownloadRequest' }]);
      const refused = await act('X-Throw-Hook', 'onFileDownloadRequest', 'GET', PNG);
      expect([refused.status, refused.body]).toEqual([403, { code: 403, message: 'Refused by onFileDownloadRequest.', data: {} }]);
      expect(await recorded()).toEqual(['onFileDownloadRequest', 'onBeforeApiError', 'onAfterApiError']);
    });

    it('the token hooks: e.model (the admin, the auth record), e.token, which a handler may change', async () => {
      await act('X-Probe-Hook', 'onFileBeforeTokenRequest', 'POST', '/api/files/token', { token: T.admin });
      expect(await probe()).toMatchObject({ model: ADMIN_ID, token: true });
      await act('X-Probe-Hook', 'onFileAfterTokenRequest', 'POST', '/api/files/token', { token: T.user1 });
      expect(await probe()).toMatchObject({ model: USER1, token: true });
      const changed = await act('X-Change-Hook', 'onFileAfterTokenRequest', 'POST', '/api/files/token', { token: T.user1 });
      expect([changed.status, changed.body]).toEqual([200, { token: 'token-from-a-hook' }]);
    });

    it('TestFileToken › unauthorized with model and token via hook (a before-handler sets e.model and e.token)', async () => {
      const res = await act('X-Change-Hook', 'onFileBeforeTokenRequest', 'POST', '/api/files/token');
      expect([res.status, res.body]).toEqual([200, { token: 'token-from-a-hook' }]);
      expectEvents(await recorded(), { status: 200, events: TOKEN, order: [['OnFileBeforeTokenRequest', 'OnFileAfterTokenRequest']] });
      await act('X-Probe-Hook', 'onFileBeforeTokenRequest', 'POST', '/api/files/token');
      expect(await probe()).toMatchObject({ model: null, token: false });
    });

    it('return false, a written response and a thrown error in the token hooks', async () => {
      const stopped = await act('X-Stop-Hook', 'onFileBeforeTokenRequest', 'POST', '/api/files/token', { token: T.admin });
      expect([stopped.status, stopped.body]).toEqual([200, null]);
      expect(await recorded()).toEqual(['onFileBeforeTokenRequest']);
      const answered = await act('X-Answer-Hook', 'onFileAfterTokenRequest', 'POST', '/api/files/token', { token: T.admin });
      expect([answered.status, answered.body]).toEqual([418, { answeredBy: 'onFileAfterTokenRequest' }]);
      const refused = await act('X-Throw-Hook', 'onFileBeforeTokenRequest', 'POST', '/api/files/token', { token: T.admin });
      expect(refused.body).toEqual({ code: 403, message: 'Refused by onFileBeforeTokenRequest.', data: {} });
    });

    it("tags: a download's collection id or name, a token's model (a record's collection, _admins for an admin)", async () => {
      const tags = async () => (await call('GET', '/__tags')).body as string[];
      await act('X-None', '', 'GET', PNG);
      expect(await tags()).toEqual([]);
      if (FILE_TOKENS_VALID) {
        expect((await call('GET', `${PROTECTED}?token=${ADMIN_FILE}`)).status).toBe(200);
        expect(await tags()).toEqual(['tag:download:demo1']);
      }
      await act('X-None', '', 'POST', '/api/files/token');
      expect(await tags()).toEqual([]);
      await act('X-None', '', 'POST', '/api/files/token', { token: T.admin });
      expect(await tags()).toEqual([`tag:token:${ADMIN_ID}`]);
      await act('X-None', '', 'POST', '/api/files/token', { token: T.user1 });
      expect(await tags()).toEqual([`tag:token-after:${USER1}`]);
    });
  });

  describe('what the API error hooks give their handlers, and what the handlers may do', () => {
    const MISSING = '/api/collections/missing/records';

    it('every error answer fires them, an unknown /api route too; e.error is the ApiError answered (code, message, data, error())', async () => {
      const res = await act('X-Probe-Hook', 'onBeforeApiError', 'GET', MISSING);
      expect(res.status).toBe(404);
      expect(await recorded()).toEqual(['onBeforeApiError', 'onAfterApiError']);
      const message = "The requested resource wasn't found.";
      expect(await probe()).toMatchObject({ error: { code: 404, message, data: {}, text: message } });
      expect((await act('X-None', '', 'GET', '/api/nothing-here')).body).toEqual({ code: 404, message: 'Not Found.', data: {} });
      expect(await recorded()).toEqual(['onBeforeApiError', 'onAfterApiError']);
    });

    it("a before-handler's changes to e.error are the answer, and what onAfterApiError sees", async () => {
      await call('DELETE', '/__events');
      const res = await call('GET', MISSING, { headers: { 'X-Change-Hook': 'onBeforeApiError', 'X-Probe-Hook': 'onAfterApiError' } });
      expect([res.status, res.body]).toEqual([409, { code: 409, message: 'Changed by a hook.', data: { by: 'a hook' } }]);
      expect(await probe()).toMatchObject({ error: { code: 409, message: 'Changed by a hook.', data: { by: 'a hook' } } });
      // an after-handler's change comes too late: the answer is decided
      expect((await act('X-Change-Hook', 'onAfterApiError', 'GET', MISSING)).status).toBe(404);
    });

    it('return false: no default answer (200, no body), onAfterApiError still fires; a written response is the answer; a thrown error is the answer, without onAfterApiError', async () => {
      const stopped = await act('X-Stop-Hook', 'onBeforeApiError', 'GET', MISSING);
      expect([stopped.status, stopped.body]).toEqual([200, null]);
      expect(await recorded()).toEqual(['onBeforeApiError', 'onAfterApiError']);
      const answered = await act('X-Answer-Hook', 'onBeforeApiError', 'GET', MISSING);
      expect([answered.status, answered.body]).toEqual([418, { answeredBy: 'onBeforeApiError' }]);
      const refused = await act('X-Throw-Hook', 'onBeforeApiError', 'GET', MISSING);
      expect([refused.status, refused.body]).toEqual([403, { code: 403, message: 'Refused by onBeforeApiError.', data: {} }]);
      expect(await recorded()).toEqual(['onBeforeApiError']);
      // an after-handler's error leaves the answer as it was
      expect((await act('X-Throw-Hook', 'onAfterApiError', 'GET', MISSING)).status).toBe(404);
    });
  });

  describe('what the realtime connect and message hooks give their handlers, and what the handlers may do', () => {
    it('onRealtimeConnectRequest: e.client and e.idleTimeout (nanoseconds); the message hooks: e.client and e.message', async () => {
      await call('DELETE', '/__events');
      const sse = await openSse({ 'X-Probe-Hook': 'onRealtimeConnectRequest' });
      await until(() => sse.frames.length > 0, 'PB_CONNECT');
      const { clientId } = JSON.parse(sse.frames[0].data) as { clientId: string };
      expect(await probe()).toMatchObject({ client: clientId, idleTimeout: 5 * 60 * 1e9 });
      sse.close();
      await waitFor('onRealtimeDisconnectRequest');
      await call('DELETE', '/__events');
      const probed = await openSse({ 'X-Probe-Hook': 'onRealtimeAfterMessageSend' });
      await waitFor('onRealtimeAfterMessageSend');
      const id = (JSON.parse(probed.frames[0].data) as { clientId: string }).clientId;
      expect(await probe()).toMatchObject({ client: id, sse: { name: 'PB_CONNECT', data: JSON.stringify({ clientId: id }) } });
      // a message to the client later (the OAuth2 hand-over) goes through them too
      expect((await call('POST', '/api/realtime', { body: { clientId: id, subscriptions: ['@oauth2'] } })).status).toBe(204);
      await call('DELETE', '/__events');
      expect((await fetch(`${srv.url}/api/oauth2-redirect?state=${id}&code=abc`, { redirect: 'manual' })).status).toBe(307);
      await until(() => probed.frames.length > 1, 'the @oauth2 message');
      await waitFor('onRealtimeAfterMessageSend');
      expect(await recorded()).toEqual(['onRealtimeBeforeMessageSend', 'onRealtimeAfterMessageSend']);
      expect(await probe()).toMatchObject({ sse: { name: '@oauth2', data: JSON.stringify({ state: id, code: 'abc' }) } });
      await closeStreams();
    });

    it('a changed e.message is what the client gets; a changed e.idleTimeout closes an idle connection then', async () => {
      const changed = await openSse({ 'X-Change-Hook': 'onRealtimeBeforeMessageSend' });
      await until(() => changed.frames.length > 0, 'the first message');
      expect(changed.frames[0]).toEqual({ event: 'PB_CONNECT', data: JSON.stringify({ changedBy: 'a hook', name: 'PB_CONNECT' }) });
      await closeStreams();
      await call('DELETE', '/__events');
      const idle = await openSse({ 'X-Change-Hook': 'onRealtimeConnectRequest' });
      const opened = Date.now();
      await idle.ended;
      expect(Date.now() - opened).toBeLessThan(5000);
      await waitFor('onRealtimeDisconnectRequest');
    });

    it("a connect handler's error is the answer (the stream never opens), a written response too; the client is gone", async () => {
      await call('DELETE', '/__events');
      const refused = await openSse({ 'X-Throw-Hook': 'onRealtimeConnectRequest' });
      await refused.ended;
      expect([refused.status, JSON.parse(refused.body)]).toEqual([403, { code: 403, message: 'Refused by onRealtimeConnectRequest.', data: {} }]);
      await waitFor('onRealtimeDisconnectRequest');
      expect(counts(await recorded())).toEqual(counts(['onRealtimeConnectRequest', 'onRealtimeDisconnectRequest', 'onBeforeApiError', 'onAfterApiError']));
      await call('DELETE', '/__events');
      const answered = await openSse({ 'X-Answer-Hook': 'onRealtimeConnectRequest' });
      await answered.ended;
      expect([answered.status, JSON.parse(answered.body)]).toEqual([418, { answeredBy: 'onRealtimeConnectRequest' }]);
      await waitFor('onRealtimeDisconnectRequest');
    });
  });
});
