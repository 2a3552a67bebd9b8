// A client behind a reverse proxy, as the proxy tests play one: each request from a socket bound to
// its own loopback address (127.0.0.2, 127.0.0.3, …: a user's address as the proxy sees it), and the
// checks every proxy configuration must pass: the request log's addresses, a realtime stream
// through the proxy, an upload near the server's body limit.
import { expect } from 'vitest';
import { requestJson, type JsonReply } from './json-request';
import { FIXTURE_ADMIN_TOKEN, http as direct } from './server';
import { connectSse } from './sse';

/** A request to `proxyUrl` from a socket bound to `from`. */
export function requestFrom(
  proxyUrl: string,
  from: string,
  method: string,
  p: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonReply> {
  return requestJson(`${proxyUrl}${p}`, { method, localAddress: from, agent: false, ...opts });
}

/** Waits (15 s at most) until the proxy answers /api/health; `exited` names a proxy that gave up. */
export async function waitForProxy(proxyUrl: string, exited: () => string | null): Promise<void> {
  for (const t0 = Date.now(); ; ) {
    const gone = exited();
    if (gone) throw new Error(gone);
    const ok = await requestFrom(proxyUrl, '127.0.0.1', 'GET', '/api/health').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() - t0 > 15_000) throw new Error(`the proxy did not answer on ${proxyUrl}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The request log's entry for a URL (the batch writer flushes within about 3 s). */
export async function loggedIps(serverUrl: string, url: string): Promise<{ userIp: string; remoteIp: string }> {
  const filter = encodeURIComponent(`data.url = "${url}"`);
  for (let i = 0; i < 100; i++) {
    const res = await direct(serverUrl, 'GET', `/api/logs?filter=${filter}`, { token: FIXTURE_ADMIN_TOKEN });
    if (res.body.items?.length) return res.body.items[0].data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no log entry for ${url}`);
}

export async function setTrustedProxy(serverUrl: string, trustedProxy: { headers: string[]; useLeftmostIP: boolean }): Promise<void> {
  const res = await direct(serverUrl, 'PATCH', '/api/settings', { token: FIXTURE_ADMIN_TOKEN, body: { trustedProxy } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.trustedProxy).toEqual(trustedProxy);
}

/** A public collection with one file field taking up to 30 MB, for uploads through a proxy. */
export async function createUploadsCollection(serverUrl: string, name: string): Promise<void> {
  const res = await direct(serverUrl, 'POST', '/api/collections', {
    token: FIXTURE_ADMIN_TOKEN,
    body: {
      name,
      type: 'base',
      listRule: '',
      viewRule: '',
      createRule: '',
      schema: [{ name: 'doc', type: 'file', options: { maxSelect: 1, maxSize: 30 << 20, mimeTypes: [], thumbs: [], protected: false } }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Uploads `bytes` bytes through the proxy into `collection` and reads the file back through it. */
export async function uploadThrough(proxyUrl: string, collection: string, bytes: number): Promise<void> {
  const data = Buffer.alloc(bytes, 7);
  data.write('outpost upload check', 0);
  const form = new FormData();
  form.append('doc', new Blob([data], { type: 'application/octet-stream' }), 'large.bin');
  const res = await fetch(`${proxyUrl}/api/collections/${collection}/records`, { method: 'POST', body: form });
  const record = (await res.json()) as { id: string; doc: string };
  expect(res.status, JSON.stringify(record)).toBe(200);
  const file = await fetch(`${proxyUrl}/api/files/${collection}/${record.id}/${record.doc}`);
  expect(file.status).toBe(200);
  const back = Buffer.from(await file.arrayBuffer());
  expect(back.length).toBe(bytes);
  expect(back.equals(data)).toBe(true);
}

/** A realtime client through the proxy gets PB_CONNECT, subscribes, and receives a create made directly. */
export async function realtimeThrough(proxyUrl: string, serverUrl: string, collection: string): Promise<void> {
  const sse = await connectSse(proxyUrl);
  try {
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    const sub = await direct(proxyUrl, 'POST', '/api/realtime', { body: { clientId: sse.clientId, subscriptions: [collection] } });
    expect(sub.status).toBe(204);
    const form = new FormData();
    form.append('doc', new Blob([Buffer.from('small')], { type: 'text/plain' }), 'small.txt');
    const created = await fetch(`${serverUrl}/api/collections/${collection}/records`, { method: 'POST', body: form });
    const record = (await created.json()) as { id: string };
    expect(created.status).toBe(200);
    // the event arrives while the stream stays open: the proxy does not buffer it
    const event = await sse.next((f) => f.event === collection, 10_000);
    expect(event.data).toMatchObject({ action: 'create', record: { id: record.id } });
    expect(sse.isClosed()).toBe(false);
  } finally {
    sse.close();
  }
}
