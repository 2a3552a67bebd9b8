// The built server (`npm run build` → dist-server/main.mjs) started as `npm start` / `npm run
// serve` start it: plain node, no tsx, from a foreign working directory. It must find its schemas,
// screens and the built dashboard, answer /api/health and the dashboard, and validate settings with
// the schema files (proof that they were found at run time).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, ROOT, http, tempDir } from '../helpers/server';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

let dir = '';
let child: ChildProcess | undefined;
let url = '';
let output = '';
let smtp: TestSmtp | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

beforeAll(async () => {
  dir = tempDir('outpost-built-');
  // the dashboard build the product serves (built once if this checkout has none yet)
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    expect(spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' }).status).toBe(0);
  }
  // a fresh bundle of the current sources, inside the project (where node_modules resolve)
  const outdir = path.join(ROOT, 'tests', '.tmp', 'built-server');
  const bundle = path.join(outdir, 'main.mjs');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), outdir], { cwd: ROOT, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);

  const dataDir = path.join(dir, 'pb_data');
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // started from an unrelated folder, with a relative --dir
  child = spawn(process.execPath, [bundle, 'serve', `--http=127.0.0.1:${port}`, '--dir=pb_data'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const t0 = Date.now();
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`the built server exited: ${output}`);
    if (Date.now() - t0 > 60_000) throw new Error(`the built server did not answer: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}, 240_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('answers /api/health', async () => {
  const res = await http(url, 'GET', '/api/health');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: 'API is healthy.', code: 200, data: { canBackup: true } });
  expect(output).toContain('REST API');
});

it('serves the built dashboard (precompressed) with its CSP', async () => {
  const res = await fetch(`${url}/_/`, { headers: { 'Accept-Encoding': 'br' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('br');
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  const html = await res.text();
  expect(html).toBe(fs.readFileSync(path.join(ROOT, 'dist', 'index.html'), 'utf8'));
  const script = html.match(/src="\/_\/(assets\/[^"]+\.js)"/)?.[1];
  expect(script).toBeTruthy();
  const asset = await fetch(`${url}/_/${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toMatch(/javascript/);
});

it('finds the schema files at run time (settings validated by schemas/settings/*.schema.json)', async () => {
  const res = await http(url, 'PATCH', '/api/settings', { token: FIXTURE_ADMIN_TOKEN, body: { meta: { appUrl: '' } } });
  expect(res.status).toBe(400);
  expect(res.body.data.meta.appUrl.code).toBe('validation_required');
  const ok = await http(url, 'GET', '/api/settings', { token: FIXTURE_ADMIN_TOKEN });
  expect(ok.status).toBe(200);
});

it('loads the packages it defers to first use: sharp (thumbs) and nodemailer (mail)', async () => {
  const fileToken = (await http(url, 'POST', '/api/files/token', { token: FIXTURE_ADMIN_TOKEN })).body.token;
  const thumb = await fetch(`${url}/api/files/demo1/al1h9ijdeojtsjy/300_Jsjq7RdBgA.png?thumb=100x100&token=${fileToken}`);
  expect(thumb.status).toBe(200);
  expect(thumb.headers.get('content-type')).toBe('image/png');
  const png = Buffer.from(await thumb.arrayBuffer());
  expect(png.readUInt32BE(16)).toBe(100); // IHDR width: a real 100x100 thumb (the default size), not the 300 px original
  expect(png.readUInt32BE(20)).toBe(100);

  smtp = await startSmtp();
  const on = await http(url, 'PATCH', '/api/settings', {
    token: FIXTURE_ADMIN_TOKEN,
    body: { smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false, password: '', authMethod: 'PLAIN' } },
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  const sent = await http(url, 'POST', '/api/settings/test/email', { token: FIXTURE_ADMIN_TOKEN, body: { email: 'built@example.com', template: 'verification' } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(204);
  await smtp.waitFor((m) => m.to.includes('built@example.com'));
});

// The bundle bundles the SQLite driver's JavaScript (its addon named by path) and defers some
// packages to first use (scripts/build-server.mjs LAZY): each path below loads one of them.
it('reads through the pool of read processes (the children open the addon by path too)', async () => {
  const res = await http(url, 'GET', `/api/collections/demo1/records?filter=${encodeURIComponent("text != ''")}&perPage=2`, { token: FIXTURE_ADMIN_TOKEN });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.items.length).toBeGreaterThan(0);
});

it('answers the error paths of the static files (http-errors loaded on first use)', async () => {
  const missing = await fetch(`${url}/_/assets/does-not-exist.js`);
  expect(missing.status).toBe(404);
  await missing.arrayBuffer();
  const html = await fetch(`${url}/_/`, { headers: { Range: 'bytes=5-1', 'Accept-Encoding': 'identity' } });
  expect(html.status).toBe(416);
  await html.arrayBuffer();
});

it('makes and downloads a backup (zip libraries and mime-db loaded on first use)', async () => {
  const made = await http(url, 'POST', '/api/backups', { token: FIXTURE_ADMIN_TOKEN, body: { name: 'built.zip' } });
  expect(made.status, JSON.stringify(made.body)).toBe(204);
  const fileToken = (await http(url, 'POST', '/api/files/token', { token: FIXTURE_ADMIN_TOKEN })).body.token;
  const zip = await fetch(`${url}/api/backups/built.zip?token=${fileToken}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
  expect(zip.status).toBe(200);
  // application/zip is not in our compressible pattern; mime-db says it is not compressible either
  expect(zip.headers.get('content-encoding')).toBeNull();
  const bytes = Buffer.from(await zip.arrayBuffer());
  expect(bytes.subarray(0, 4).toString('binary')).toBe('PK\x03\x04');
});
