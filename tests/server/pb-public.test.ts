// pb_public served at / by `outpost serve` (the real CLI in a child process), as 0.22's prebuilt
// executable serves it: files, folders' index.html, the SPA fallback (and --indexFallback=false),
// caching, compression and security headers, no way out of the folder (traversal, symlinks
// pointing out, FIFOs), and /api/ and /_/ never answered from it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request sent with its path exactly as written (fetch would resolve dot segments first). */
function raw(base: string, rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer for ${rawPath}`)));
    req.on('error', reject);
    req.end();
  });
}

const INDEX = '<!doctype html><html><body><div id="public-app">pb_public index</div></body></html>';
const APP_JS = `// the app\n${'console.log("a line of the public app");\n'.repeat(100)}`;
const SECRET = 'TOP-SECRET-OUTSIDE-THE-FOLDER';

let project = '';
let server: ServerProcess;

beforeAll(async () => {
  project = tempDir('outpost-public-');
  const pub = path.join(project, 'pb_public');
  fs.mkdirSync(path.join(pub, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(pub, 'docs'));
  fs.mkdirSync(path.join(pub, 'api'));
  fs.writeFileSync(path.join(pub, 'index.html'), INDEX);
  fs.writeFileSync(path.join(pub, 'app.js'), APP_JS);
  fs.writeFileSync(path.join(pub, 'assets', 'index-B4f3xYz1.js'), 'export const hashed = 1;\n');
  fs.writeFileSync(path.join(pub, 'docs', 'index.html'), '<p>docs index</p>');
  fs.writeFileSync(path.join(pub, 'api', 'x.txt'), 'shadow of the API');
  fs.writeFileSync(path.join(pub, 'style.css'), `body { color: red; }\n${'p { margin: 0 }\n'.repeat(100)}`);
  fs.writeFileSync(path.join(pub, 'style.css.br'), zlib.brotliCompressSync(fs.readFileSync(path.join(pub, 'style.css'))));
  // outside the folder, and ways to point at it
  fs.writeFileSync(path.join(project, 'secret.txt'), SECRET);
  fs.mkdirSync(path.join(project, 'outside'));
  fs.writeFileSync(path.join(project, 'outside', 'file.txt'), SECRET);
  fs.symlinkSync(path.join(project, 'secret.txt'), path.join(pub, 'leak.txt'));
  fs.symlinkSync('../outside', path.join(pub, 'outdir'));
  fs.symlinkSync('index.html', path.join(pub, 'alias.html'));
  execFileSync('mkfifo', [path.join(pub, 'pipe.txt')]);
  // the default --publicDir is ./pb_public of the working directory
  server = await startCliServer(['--dir=pb_data'], project);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(project, { recursive: true, force: true });
});

describe('files', () => {
  it('serves index.html at / with the secure headers, revalidated, without the dashboard CSP', async () => {
    const res = await raw(server.url, '/');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(INDEX);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(Date.parse(String(res.headers['last-modified']))).not.toBeNaN();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-xss-protection']).toBe('1; mode=block');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['content-security-policy']).toBeUndefined();
    const head = await raw(server.url, '/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('compresses text on the fly, sends a .br sibling as written, and caches hashed assets for good', async () => {
    const js = await raw(server.url, '/app.js', { 'accept-encoding': 'br' });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(js.body).toString()).toBe(APP_JS);
    expect(js.headers['cache-control']).toBe('public, max-age=3600');
    const plain = await raw(server.url, '/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(APP_JS);

    const css = await raw(server.url, '/style.css', { 'accept-encoding': 'gzip, br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers.vary).toMatch(/accept-encoding/i);
    expect(css.body.equals(fs.readFileSync(path.join(project, 'pb_public', 'style.css.br')))).toBe(true);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');

    const hashed = await raw(server.url, '/assets/index-B4f3xYz1.js');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers ranges and preconditions as Go ServeContent', async () => {
    const part = await raw(server.url, '/app.js', { range: 'bytes=0-9', 'accept-encoding': 'br' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${Buffer.byteLength(APP_JS)}`);
    expect(part.body.toString()).toBe(APP_JS.slice(0, 10));
    const first = await raw(server.url, '/app.js');
    const again = await raw(server.url, '/app.js', { 'if-modified-since': String(first.headers['last-modified']) });
    expect(again.status).toBe(304);
  });

  it("answers a folder with its index.html, a missing path with the root index.html (SPA routes), a link inside the folder", async () => {
    for (const p of ['/docs', '/docs/']) expect((await raw(server.url, p)).body.toString()).toBe('<p>docs index</p>');
    for (const p of ['/some/spa/route', '/missing.js', '/docs/nothing-here']) {
      const res = await raw(server.url, p);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect((await raw(server.url, '/alias.html')).body.toString()).toBe(INDEX);
  });
});

describe('the way out is closed', () => {
  it('never serves a file above the folder, however the path is spelled', async () => {
    const paths = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/docs/../../secret.txt',
      '/docs/%2e%2e/%2e%2e/secret.txt',
      '//..//..//secret.txt',
      '/..\\secret.txt',
      `/${encodeURIComponent(path.join(project, 'secret.txt'))}`,
      '/outdir/../../secret.txt',
    ];
    for (const p of paths) {
      const res = await raw(server.url, p);
      expect(res.body.toString(), p).not.toContain(SECRET);
      expect([200, 400, 404], p).toContain(res.status);
    }
  });

  it('refuses a symlink pointing out of the folder with a 404 and says so in the console', async () => {
    for (const p of ['/leak.txt', '/outdir/file.txt', '/outdir/']) {
      const res = await raw(server.url, p);
      expect(res.status, p).toBe(404);
      expect(res.body.toString(), p).not.toContain(SECRET);
    }
    expect(server.output()).toContain('[public] refused /leak.txt');
    expect(server.output()).toMatch(/outside .*pb_public/);
  });

  it('never opens what is not a regular file (a FIFO would hang the request)', async () => {
    const res = await raw(server.url, '/pipe.txt');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(INDEX);
  });

  it('never answers /api/ or /_/ from the folder', async () => {
    for (const p of ['/api/x.txt', '/%61pi/x.txt', '/api/']) {
      const res = await raw(server.url, p);
      expect(res.status, p).toBe(404);
      expect(res.body.toString(), p).not.toContain('shadow of the API');
    }
    const api = await raw(server.url, '/api/x.txt');
    expect(JSON.parse(api.body.toString())).toEqual({ code: 404, message: 'Not Found.', data: {} });
    const health = await raw(server.url, '/api/health');
    expect(JSON.parse(health.body.toString()).message).toBe('API is healthy.');
    const dashboard = await raw(server.url, '/_/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.toString()).not.toContain('public-app');
    expect((await raw(server.url, '/_/no-such-asset.js')).body.toString()).not.toContain('public-app');
  });
});

describe('other folders and options', () => {
  it('--publicDir elsewhere with --indexFallback=false: missing paths 404; no folder: / goes to the dashboard', async () => {
    const dir = tempDir('outpost-public2-');
    fs.mkdirSync(path.join(dir, 'site'));
    fs.writeFileSync(path.join(dir, 'site', 'index.html'), 'other site');
    const other = await startCliServer(['--dir=pb_data', `--publicDir=${path.join(dir, 'site')}`, '--indexFallback=false'], dir);
    const none = await startCliServer(['--dir=pb_data', '--publicDir=./no-such-folder'], dir);
    try {
      expect((await raw(other.url, '/')).body.toString()).toBe('other site');
      expect((await raw(other.url, '/index.html')).body.toString()).toBe('other site');
      const missing = await raw(other.url, '/spa/route');
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body.toString())).toEqual({ code: 404, message: 'Not Found.', data: {} });

      const root = await raw(none.url, '/');
      expect(root.status).toBe(307);
      expect(root.headers.location).toBe('/_/');
      expect((await raw(none.url, '/x.js')).status).toBe(404);
    } finally {
      await Promise.all([other.stop(), none.stop()]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
