// The built server (`npm run build` → dist-server/main.mjs) run as users run it: plain node, no
// tsx, from a foreign working directory, started, stopped and started again on the same pb_data.
// The second start is what every later `npm start` looks like: it runs with the code cache the
// first one wrote. Each start exercises every module the server loads on first use (sharp for a
// thumb, nodemailer for a mail to a real SMTP server, file-type for an upload's sniff, the zip
// libraries for a backup and its restore, the S3 SDK against a real S3 server, the read pool's
// children, the lazily loaded helpers of the static files), so a start that breaks a first-use
// load fails here. OUTPOST_TEST_NODE runs the built server with another Node binary, and
// OUTPOST_TEST_BUILT_DIR builds it elsewhere (a folder whose node_modules hold that Node's addons).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, ROOT, http, tempDir } from '../helpers/server';
import { checkMail, checkSniffAndThumb } from '../helpers/first-use';
import { spawnServer, type ServerProcess } from '../helpers/server-process';
import { startS3, type TestS3 } from '../helpers/s3';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const NODE = process.env.OUTPOST_TEST_NODE ?? process.execPath;
/** Node 22.8+ keeps the cache itself (module.enableCompileCache); older Node runs the V8 cache. */
const NODE_COMPILE_CACHE = spawnSync(NODE, ['-p', "typeof require('node:module').enableCompileCache"], { encoding: 'utf8' }).stdout.trim() === 'function';

const outdir = process.env.OUTPOST_TEST_BUILT_DIR ?? path.join(ROOT, 'tests', '.tmp', 'built-server');
const v8Cache = path.join(outdir, 'server.cjs.cache');
const compileCache = path.join(outdir, '.compile-cache');
let dir = '';
let smtp: TestSmtp;
let s3: TestS3;
let server: ServerProcess | undefined;
let url = '';
let startedAt = 0;

/** Starts the built server on the same data dir (a new port each time), from an unrelated folder. */
async function start() {
  startedAt = Date.now();
  server = await spawnServer(NODE, [path.join(outdir, 'main.mjs'), 'serve', '--dir=pb_data'], dir);
  url = server.url;
}
const output = () => server?.output() ?? '';

const admin = (method: string, p: string, body?: unknown) => http(url, method, p, { token: FIXTURE_ADMIN_TOKEN, body });
const fileToken = async () => (await admin('POST', '/api/files/token')).body.token as string;

beforeAll(async () => {
  dir = tempDir('outpost-built-');
  // the dashboard build the product serves (built once if this checkout has none yet)
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    expect(spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' }).status).toBe(0);
  }
  // a fresh bundle of the current sources, inside the project (where node_modules resolve)
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs'), outdir], { cwd: ROOT, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  expect(fs.existsSync(v8Cache) || fs.existsSync(compileCache), 'a build leaves no cache behind').toBe(false);
  fs.cpSync(FIXTURE_DIR, path.join(dir, 'pb_data'), { recursive: true });
  [smtp, s3] = await Promise.all([startSmtp(), startS3()]);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([smtp?.close(), s3?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['first start, no code cache yet', 1],
  ['second start, with the code cache the first one wrote', 2],
])('%s', (_name, n) => {
  let cacheStamp = 0;
  beforeAll(async () => {
    if (n === 2) {
      // the first start wrote its cache (at the latest when it was stopped)
      if (NODE_COMPILE_CACHE) expect(fs.readdirSync(compileCache, { recursive: true }).length).toBeGreaterThan(0);
      else cacheStamp = fs.statSync(v8Cache).mtimeMs;
    }
    await start();
  }, 120_000);
  afterAll(() => server?.stop());

  it('answers /api/health', async () => {
    const res = await http(url, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'API is healthy.', code: 200, data: { canBackup: true } });
    expect(output()).toContain('REST API');
  });

  it('serves the built dashboard (precompressed) with its CSP', async () => {
    const res = await fetch(`${url}/_/`, { headers: { 'Accept-Encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toBe(fs.readFileSync(path.join(ROOT, 'dist', 'index.html'), 'utf8'));
    const script = html.match(/src="\/_\/(assets\/[^"]+\.js)"/)?.[1];
    expect(script).toMatch(/^assets\/.+\.js$/);
    const asset = await fetch(`${url}/_/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  });

  it('finds the schema files at run time (settings validated by schemas/settings/*.schema.json)', async () => {
    const res = await admin('PATCH', '/api/settings', { meta: { appUrl: '' } });
    expect(res.status).toBe(400);
    expect(res.body.data.meta.appUrl.code).toBe('validation_required');
    expect((await admin('GET', '/api/settings')).status).toBe(200);
  });

  it('sniffs an upload (file-type) and makes its thumb (sharp)', async () => {
    await checkSniffAndThumb(url, FIXTURE_ADMIN_TOKEN, `start${n}`);
    expect(output()).not.toContain('thumb generation failed');
  });

  it('sends a mail to a real SMTP server (nodemailer)', () => checkMail(url, FIXTURE_ADMIN_TOKEN, smtp, `start${n}`));

  it('reads through the pool of read processes (the children open the addon by path too)', async () => {
    const res = await admin('GET', `/api/collections/demo1/records?filter=${encodeURIComponent("text != ''")}&perPage=2`);
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

  it('makes, downloads and restores a backup (the zip libraries, mime-db)', async () => {
    const key = `start${n}.zip`;
    const made = await admin('POST', '/api/backups', { name: key });
    expect(made.status, JSON.stringify(made.body)).toBe(204);
    const zip = await fetch(`${url}/api/backups/${key}?token=${await fileToken()}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(zip.status).toBe(200);
    // application/zip is not in our compressible pattern; mime-db says it is not compressible either
    expect(zip.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 4).toString('binary')).toBe('PK\x03\x04');

    // a record made after the backup is gone once the backup is restored (in-process restart)
    const extra = await admin('POST', '/api/collections/demo1/records', { text: `after backup ${n}` });
    expect(extra.status, JSON.stringify(extra.body)).toBe(200);
    const restore = await admin('POST', `/api/backups/${key}/restore`);
    expect(restore.status, JSON.stringify(restore.body)).toBe(204);
    let gone = false;
    for (let i = 0; i < 200 && !gone; i++) {
      await new Promise((r) => setTimeout(r, 100));
      gone = await admin('GET', `/api/collections/demo1/records/${extra.body.id}`).then((r) => r.status === 404, () => false);
    }
    expect(gone, output()).toBe(true);
    await server?.waitHealthy();
    expect((await admin('GET', '/api/collections/shots')).status).toBe(200);
  });

  it('stores a backup on a real S3 server (the S3 SDK)', async () => {
    const cfg = { enabled: true, endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKey: s3.accessKey, secret: s3.secret, forcePathStyle: true };
    expect((await admin('PATCH', '/api/settings', { backups: { s3: cfg } })).status).toBe(200);
    const tested = await admin('POST', '/api/settings/test/s3', { filesystem: 'backups' });
    expect(tested.status, JSON.stringify(tested.body)).toBe(204);
    const key = `s3-start${n}.zip`;
    expect((await admin('POST', '/api/backups', { name: key })).status).toBe(204);
    const list = await admin('GET', '/api/backups');
    expect(list.body.map((b: { key: string }) => b.key)).toContain(key);
    // local backups again for the next start's restore
    expect((await admin('PATCH', '/api/settings', { backups: { s3: { ...cfg, enabled: false } } })).status).toBe(200);
  });

  if (n === 2) {
    it('ran with the cache the first start wrote (V8 accepted it: not rewritten)', async () => {
      if (NODE_COMPILE_CACHE) return; // Node's own cache: checked above, its acceptance is Node's business
      // a rejected cache is rewritten 3 s after the start
      await new Promise((r) => setTimeout(r, Math.max(0, startedAt + 4000 - Date.now())));
      expect(fs.statSync(v8Cache).mtimeMs).toBe(cacheStamp);
    });
  }
});
