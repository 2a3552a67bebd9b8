// Delivery over HTTP on the real server: PocketBase 0.22's CORS (echo's middleware with the
// `--origins` list) and Secure-middleware headers on API, files and dashboard; the dashboard's CSP;
// brotli/gzip by negotiation for API answers above the threshold and precompressed dashboard
// assets; never for event streams, stored files or ranges. Raw bytes are read with node:http
// (fetch would inflate them silently).
import fs from 'node:fs';
import nodeHttp from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../server/app';
import { CORS_METHODS } from '../../server/http/cors';
import { DASHBOARD_CSP } from '../../server/http/security-headers';
import { precompressDir } from '../../scripts/vite-plugin-precompress';
import { http, tempDir, type TestServer } from '../helpers/server';

interface RawResponse {
  status: number;
  headers: nodeHttp.IncomingHttpHeaders;
  /** the bytes as sent */
  raw: Buffer;
  /** the body after undoing Content-Encoding */
  body: Buffer;
}

function rawRequest(base: string, method: string, p: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request({ hostname, port, path: p, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const body = enc === 'br' ? zlib.brotliDecompressSync(raw) : enc === 'gzip' ? zlib.gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const SECURE = {
  'x-xss-protection': '1; mode=block',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  // beyond 0.22: no dashboard URL (record ids, filters) leaks to another origin
  'referrer-policy': 'strict-origin-when-cross-origin',
};

let srv: TestServer;
let admin = '';
let dashboardDir = '';
let fileUrl = '';
const textFile = Buffer.from('Outpost range test line.\n'.repeat(800)); // 20 KB of compressible text

beforeAll(async () => {
  // a small dashboard build of our own, precompressed by the same build step as the real one
  dashboardDir = tempDir('outpost-dash-');
  fs.mkdirSync(path.join(dashboardDir, 'assets'));
  fs.writeFileSync(path.join(dashboardDir, 'index.html'), `<!doctype html><html><head><title>Outpost</title></head><body>${'<p>filler</p>'.repeat(200)}</body></html>`);
  fs.writeFileSync(path.join(dashboardDir, 'assets', 'app-abc123.js'), `console.log(${JSON.stringify('x'.repeat(10))});\n`.repeat(300));
  fs.writeFileSync(path.join(dashboardDir, 'assets', 'tiny.js'), 'export {};\n');
  expect(await precompressDir(dashboardDir)).toBe(2); // index.html and app-abc123.js; tiny.js is too small

  const app = await createApp({ dataDir: path.join(tempDir(), 'pb_data'), dashboardDir });
  const url = await app.listen('127.0.0.1', 0);
  srv = { app, url, dataDir: app.ctx.dataDir, client: () => { throw new Error('unused'); }, close: () => app.close() } as TestServer;

  const creds = { email: 'delivery@example.com', password: '1234567890' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...creds, passwordConfirm: creds.password } });
  admin = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: creds.email, password: creds.password } })).body.token;
  const coll = await http(srv.url, 'POST', '/api/collections', {
    token: admin,
    body: {
      name: 'notes',
      listRule: '',
      viewRule: '',
      schema: [
        { name: 'title', type: 'text' },
        { name: 'doc', type: 'file', options: { maxSelect: 1, maxSize: 5_000_000 } },
      ],
    },
  });
  expect(coll.status, JSON.stringify(coll.body)).toBe(200);
  const form = new FormData();
  form.append('title', 'with a text file');
  form.append('doc', new Blob([new Uint8Array(textFile)], { type: 'text/plain' }), 'notes.txt');
  const rec = await fetch(`${srv.url}/api/collections/notes/records`, { method: 'POST', headers: { Authorization: admin }, body: form });
  const recBody = (await rec.json()) as { id: string; doc: string; collectionId: string };
  expect(rec.status, JSON.stringify(recBody)).toBe(200);
  fileUrl = `/api/files/${recBody.collectionId}/${recBody.id}/${recBody.doc}`;
  // enough records for a list answer well above the compression threshold
  for (let i = 0; i < 30; i++) {
    await http(srv.url, 'POST', '/api/collections/notes/records', { token: admin, body: { title: `note ${i} `.repeat(60) } });
  }
});

afterAll(async () => {
  await srv?.close();
  fs.rmSync(dashboardDir, { recursive: true, force: true });
});

describe('security headers (echo Secure middleware, as 0.22)', () => {
  it('are on API answers, errors, 404s, files and the dashboard', async () => {
    for (const p of ['/api/health', '/api/collections', '/api/nope', '/api/collections/notes/records?filter=(((', fileUrl, '/_/', '/_/assets/app-abc123.js', '/nothing']) {
      const res = await rawRequest(srv.url, 'GET', p);
      expect(res.status, p).toBeLessThan(500);
      for (const [k, v] of Object.entries(SECURE)) {
        // 0.22 lets stored files be framed (apis/file.go deletes X-Frame-Options for them)
        expect(res.headers[k], `${k} on ${p}`).toBe(p === fileUrl && k === 'x-frame-options' ? undefined : v);
      }
    }
  });

  it('the dashboard carries the strict CSP: no inline script, no eval', async () => {
    for (const p of ['/_/', '/_/assets/app-abc123.js']) {
      const res = await rawRequest(srv.url, 'GET', p);
      expect(res.headers['content-security-policy'], p).toBe(DASHBOARD_CSP);
    }
    const scriptSrc = DASHBOARD_CSP.split('; ').find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-eval');
    // API answers are not documents: no dashboard CSP there; files keep their sandboxing CSP
    expect((await rawRequest(srv.url, 'GET', '/api/health')).headers['content-security-policy']).toBeUndefined();
    expect((await rawRequest(srv.url, 'GET', fileUrl)).headers['content-security-policy']).toContain('sandbox');
  });
});

describe('CORS (0.22 default: every origin)', () => {
  it('answers Access-Control-Allow-Origin: * on API, files and dashboard', async () => {
    for (const p of ['/api/health', '/api/collections/notes/records', fileUrl, '/_/', '/api/nope']) {
      const res = await rawRequest(srv.url, 'GET', p, { Origin: 'https://app.example.com' });
      expect(res.headers['access-control-allow-origin'], p).toBe('*');
      expect(res.headers.vary, p).toMatch(/Origin/);
    }
  });

  it('answers a preflight with 204, the allowed methods and the requested headers, before any guard', async () => {
    for (const p of ['/api/collections/notes/records', '/api/admins', '/api/settings', fileUrl, '/_/', '/api/unknown/route']) {
      const res = await rawRequest(srv.url, 'OPTIONS', p, {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization,content-type,x-custom',
      });
      expect(res.status, p).toBe(204);
      expect(res.raw.length).toBe(0);
      expect(res.headers['access-control-allow-origin'], p).toBe('*');
      expect(res.headers['access-control-allow-methods'], p).toBe(CORS_METHODS);
      expect(res.headers['access-control-allow-headers'], p).toBe('authorization,content-type,x-custom');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('lets a browser client on another origin call the API (authorised request after a preflight)', async () => {
    const res = await rawRequest(srv.url, 'GET', '/api/collections/notes/records?perPage=1', {
      Origin: 'http://localhost:5173',
      Authorization: admin,
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(res.body.toString()).perPage).toBe(1);
  });
});

describe('CORS restricted with --origins', () => {
  let app: App;
  let url = '';
  beforeAll(async () => {
    app = await createApp({ dataDir: path.join(tempDir(), 'pb_data'), allowedOrigins: ['https://admin.example.com', 'https://*.apps.example.com'] });
    url = await app.listen('127.0.0.1', 0);
  });
  afterAll(() => app?.close());

  it('echoes an allowed origin (exact or wildcard) and withholds the header from others', async () => {
    const ok = await rawRequest(url, 'GET', '/api/health', { Origin: 'https://admin.example.com' });
    expect(ok.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    const wild = await rawRequest(url, 'GET', '/api/health', { Origin: 'https://shop.apps.example.com' });
    expect(wild.headers['access-control-allow-origin']).toBe('https://shop.apps.example.com');
    for (const origin of ['https://evil.example.com', 'https://admin.example.com.evil.net', 'null', 'x'.repeat(5000)]) {
      const res = await rawRequest(url, 'GET', '/api/health', { Origin: origin });
      expect(res.status).toBe(200); // the request itself is served; the browser withholds the answer
      expect(res.headers['access-control-allow-origin'], origin.slice(0, 40)).toBeUndefined();
    }
    // no Origin: a non-browser client, nothing to allow
    expect((await rawRequest(url, 'GET', '/api/health')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight from a foreign origin with 204 and no CORS grant', async () => {
    const res = await rawRequest(url, 'OPTIONS', '/api/collections', {
      Origin: 'https://evil.example.com',
      'Access-Control-Request-Method': 'DELETE',
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    const good = await rawRequest(url, 'OPTIONS', '/api/collections', {
      Origin: 'https://admin.example.com',
      'Access-Control-Request-Method': 'DELETE',
    });
    expect(good.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(good.headers['access-control-allow-methods']).toBe(CORS_METHODS);
  });
});

describe('compression', () => {
  const list = '/api/collections/notes/records?perPage=100';

  it('compresses a JSON answer above the threshold by negotiation (br preferred, gzip, identity)', async () => {
    const plain = await rawRequest(srv.url, 'GET', list);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.length).toBeGreaterThan(14 * 1024);
    const expected = JSON.parse(plain.raw.toString());

    const br = await rawRequest(srv.url, 'GET', list, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.raw.length).toBeLessThan(plain.raw.length / 3);
    expect(JSON.parse(br.body.toString())).toEqual(expected);

    const gz = await rawRequest(srv.url, 'GET', list, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gz.body.toString())).toEqual(expected);

    const identity = await rawRequest(srv.url, 'GET', list, { 'Accept-Encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('sends answers up to the threshold (14 KB: one initial congestion window) as they are', async () => {
    const res = await rawRequest(srv.url, 'GET', '/api/collections/notes/records?perPage=1&fields=id', { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    const page = await rawRequest(srv.url, 'GET', '/api/collections/notes/records?perPage=10', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(page.raw.length).toBeGreaterThan(4096);
    expect(page.raw.length).toBeLessThan(14 * 1024);
    expect(page.headers['content-encoding']).toBeUndefined();
    const health = await rawRequest(srv.url, 'GET', '/api/health', { 'Accept-Encoding': 'br, gzip' });
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses stored files: full downloads and ranges keep the stored bytes and lengths', async () => {
    const full = await rawRequest(srv.url, 'GET', fileUrl, { 'Accept-Encoding': 'br, gzip' });
    expect(full.status).toBe(200);
    expect(full.headers['content-encoding']).toBeUndefined();
    expect(full.raw.equals(textFile)).toBe(true);
    expect(Number(full.headers['content-length'])).toBe(textFile.length);
    expect(full.headers['accept-ranges']).toBe('bytes');

    const part = await rawRequest(srv.url, 'GET', fileUrl, { 'Accept-Encoding': 'br, gzip', Range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 100-199/${textFile.length}`);
    expect(part.raw.equals(textFile.subarray(100, 200))).toBe(true);
  });

  it('never compresses an event stream (each message must reach the client as it is written)', async () => {
    // the realtime stream, asked for with compression: PB_CONNECT arrives as written, uncompressed
    const { hostname, port } = new URL(srv.url);
    const first = await new Promise<{ headers: nodeHttp.IncomingHttpHeaders; chunk: string }>((resolve, reject) => {
      const req = nodeHttp.get({ hostname, port, path: '/api/realtime', headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
        res.once('data', (c: Buffer) => {
          resolve({ headers: res.headers, chunk: c.toString() });
          req.destroy();
        });
      });
      req.on('error', reject);
    });
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.chunk).toContain('event:PB_CONNECT');
    // the stream writes its own head: the CORS and security headers are still on it
    expect(first.headers['access-control-allow-origin']).toBe('*');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
  });

  it('ignores compressed request bodies (no inflating past the body limit)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 << 20, 0x20));
    const res = await rawRequest(srv.url, 'POST', '/api/collections/notes/records', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Authorization: admin }, bomb);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: 400 });
  });
});

describe('precompressed dashboard assets', () => {
  it('sends the .br or .gz copy written at build time by Accept-Encoding, else the file', async () => {
    const index = fs.readFileSync(path.join(dashboardDir, 'index.html'));
    const js = fs.readFileSync(path.join(dashboardDir, 'assets', 'app-abc123.js'));
    for (const [p, file] of [['/_/', index], ['/_/assets/app-abc123.js', js]] as const) {
      const br = await rawRequest(srv.url, 'GET', p, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
      expect(br.status, p).toBe(200);
      expect(br.headers['content-encoding'], p).toBe('br');
      expect(br.raw.length, p).toBeLessThan(file.length / 4);
      expect(br.body.equals(file), p).toBe(true);
      expect(br.headers.vary, p).toMatch(/accept-encoding/i);

      const gz = await rawRequest(srv.url, 'GET', p, { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding'], p).toBe('gzip');
      expect(gz.body.equals(file), p).toBe(true);

      const plain = await rawRequest(srv.url, 'GET', p);
      expect(plain.headers['content-encoding'], p).toBeUndefined();
      expect(plain.raw.equals(file), p).toBe(true);
    }
    // the types are those of the original files, and index.html is never cached
    const html = await rawRequest(srv.url, 'GET', '/_/', { 'Accept-Encoding': 'br' });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['cache-control']).toBe('no-cache');
    const script = await rawRequest(srv.url, 'GET', '/_/assets/app-abc123.js', { 'Accept-Encoding': 'br' });
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toContain('immutable');
  });

  it('sends a file without a compressed copy as it is, and range requests of assets unencoded', async () => {
    const tiny = await rawRequest(srv.url, 'GET', '/_/assets/tiny.js', { 'Accept-Encoding': 'br, gzip' });
    expect(tiny.status).toBe(200);
    expect(tiny.body.toString()).toBe('export {};\n');
    const range = await rawRequest(srv.url, 'GET', '/_/assets/app-abc123.js', { Range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.raw.length).toBe(10);
  });
});
