// pb_hooks (issue 34): 0.22's namespaces inside a handler (tests/helpers/hooks-namespaces-project.ts)
// run by `serve` (the built server in the 'server-built' project), started twice, against real
// parts on loopback: an HTTP server of the test (echo, redirect, gzip, a slow answer), the same
// Outpost ($http.send to itself does not deadlock), an SMTP server receiving the hook's mail, files
// under a temp folder, commands, records found with $dbx expressions. A 2 s $http.send holds up
// only its own request: /api/health and other routes answer meanwhile.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http as call, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';
import type { ServerProcess } from '../helpers/server-process';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { NAMESPACE_HOOK_FILES } from '../helpers/hooks-namespaces-project';

const ADMIN = { email: 'ns@example.com', password: 'ns-pass-1234' };
const work = tempDir('outpost-hooks-ns-');
const dataDir = path.join(work, 'pb_data');
const files = path.join(work, 'files');
let srv: ServerProcess;
let smtp: TestSmtp;
let remote: http.Server;
let base = '';
let adminToken = '';

/** The test's own HTTP server: echoes requests, redirects, answers gzip or slowly. */
function startRemote(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (url.pathname === '/slow') {
        const timer = setTimeout(() => res.end('slow done'), Number(url.searchParams.get('ms')));
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (url.pathname === '/redirect') {
        res.writeHead(302, { location: '/echo?from=redirect' }).end();
        return;
      }
      if (url.pathname === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(zlib.gzipSync(JSON.stringify({ zipped: true })));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.replace(/-/g, '_'), String(v)]));
      res.setHeader('X-Custom', 'custom_header');
      res.setHeader('Set-Cookie', ['sessionId=123456; Path=/; HttpOnly', 'other=1']);
      res.statusCode = Number(url.searchParams.get('status') ?? 200);
      res.end(JSON.stringify({ method: req.method, headers, body: Buffer.concat(chunks).toString('utf8'), query: url.search }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function start(): Promise<void> {
  srv = await startCliServer([`--dir=${dataDir}`, '--automigrate=false'], work);
  adminToken = (await call(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: ADMIN.email, password: ADMIN.password } })).body.token;
}

beforeAll(async () => {
  fs.mkdirSync(path.join(work, 'pb_hooks'), { recursive: true });
  fs.mkdirSync(files);
  for (const [name, text] of Object.entries(NAMESPACE_HOOK_FILES)) fs.writeFileSync(path.join(work, 'pb_hooks', name), text);
  [smtp, remote] = await Promise.all([startSmtp(), startRemote()]);
  base = `http://127.0.0.1:${(remote.address() as { port: number }).port}`;
  expect((await runCli(['admin', 'create', ADMIN.email, ADMIN.password, `--dir=${dataDir}`], work)).stdout).toContain('Successfully created');
  await start();
  const settings = await call(srv.url, 'PATCH', '/api/settings', { token: adminToken, body: { smtp: { enabled: true, host: '127.0.0.1', port: smtp.port, tls: false } } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const schema = [
    { name: 'title', type: 'text' },
    { name: 'kind', type: 'text' },
    { name: 'qty', type: 'number' },
  ];
  const items = await call(srv.url, 'POST', '/api/collections', { token: adminToken, body: { name: 'dbx_items', type: 'base', schema } });
  expect(items.status, JSON.stringify(items.body)).toBe(200);
  for (const [title, kind, qty] of [['apple', 'fruit', 1], ['banana', 'fruit', 2], ['carrot', 'veg', 3], ['avocado', 'fruit', 4]]) {
    expect((await call(srv.url, 'POST', '/api/collections/dbx_items/records', { token: adminToken, body: { title, kind, qty } })).status).toBe(200);
  }
});

afterAll(async () => {
  await srv?.stop();
  await smtp?.close();
  await new Promise((r) => remote?.close(r));
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(['first', 'second'])('0.22 namespaces in a handler (%s start)', (startName) => {
  beforeAll(async () => {
    if (startName === 'second') {
      await srv.stop();
      await start();
    }
  });

  it('$http.send: 0.22 request defaults, answer shape, FormData, redirects, gzip; throws on timeout and network errors, not on 4xx', async () => {
    const res = await call(srv.url, 'GET', `/ns/http?base=${encodeURIComponent(base)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body;
    expect(r.errorStatus.statusCode).toBe(400);
    expect(r.basic).toMatchObject({ statusCode: 200, headers: { 'X-Custom': ['custom_header'], 'Set-Cookie': ['sessionId=123456; Path=/; HttpOnly', 'other=1'] }, cookies: ['sessionId', 'other'] });
    expect(r.basic.json).toMatchObject({ method: 'POST', body: '789', headers: { header1: '123', header2: '456', content_type: 'application/json', user_agent: 'Go-http-client/1.1', content_length: '3' } });
    expect(r.sessionCookie).toBe('sessionId=123456; Path=/; HttpOnly');
    expect(r.cookieValue).toBe('123456');
    expect(r.typed.json).toMatchObject({ method: 'GET', body: '', headers: { content_type: 'text/plain' } });
    expect(r.multipart.json.headers.content_type).toMatch(/^multipart\/form-data; boundary=[0-9a-f]{60}$/);
    expect(r.multipart.json.body).toContain('\r\nContent-Disposition: form-data; name="title"\r\n\r\n123\r\n--');
    expect(r.multipart.json.body.match(/name="tags"/g)).toHaveLength(2);
    expect(r.form).toEqual({ keys: ['title', 'tags'], values: ['123', 'a', 'b'], entries: [['title', '123'], ['tags', 'a'], ['tags', 'b']], get: 'a', getAll: ['a', 'b'], has: true, none: null });
    // the legacy `data`: JSON as Go writes a map (sorted keys, HTML-safe)
    expect(r.legacy.json).toMatchObject({ method: 'PUT', body: '{"a":"\\u003cx\\u003e","b":2}' });
    // a 302 after a POST goes on as a GET without the body, as Go's client does
    expect(r.redirected.json).toMatchObject({ method: 'GET', body: '', query: '?from=redirect' });
    expect(r.gzip).toMatchObject({ json: { zipped: true }, raw: '{"zipped":true}' });
    expect(r.gzip.headers['Content-Encoding']).toBeUndefined();
    expect(r.timeout.error).toBe(`Get "${base}/slow?ms=3000": context deadline exceeded`);
    expect(r.refused.error).toBe('Get "http://127.0.0.1:1/x": dial tcp 127.0.0.1:1: connect: connection refused');
    expect(r.scheme.error).toBe('Get "ftp://127.0.0.1/x": unsupported protocol scheme "ftp"');
  });

  it('a 2 s $http.send holds up only its own request; a handler calling its own server does not deadlock', async () => {
    let slowDone = false;
    const slow = call(srv.url, 'GET', `/ns/http/slow?base=${encodeURIComponent(base)}`).finally(() => (slowDone = true));
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    expect((await call(srv.url, 'GET', '/api/health')).status).toBe(200);
    expect((await call(srv.url, 'GET', '/ns/hello')).body).toEqual({ hello: 'world' });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(slowDone).toBe(false);
    const done = await slow;
    expect(done.body.raw).toBe('slow done');
    expect(done.body.ms).toBeGreaterThanOrEqual(1900);

    const self = await call(srv.url, 'GET', '/ns/http/self');
    expect(self.body).toEqual({ statusCode: 200, json: { hello: 'world' } });
  });

  it('mail: a MailerMessage sent with $app.newMailClient() reaches the SMTP server with its subject, recipients, html and text', async () => {
    const to = `reader-${startName}@example.com`;
    const res = await call(srv.url, 'POST', '/ns/mail', { body: { to, subject: `Hello from a hook (${startName})`, name: 'Ada' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(to));
    expect(mail.subject).toBe(`Hello from a hook (${startName})`);
    expect(mail.from).toBe('hooks@example.com');
    expect(mail.to.sort()).toEqual(['cc@example.com', to].sort());
    expect(mail.html).toContain('Hello <b>Ada</b>');
    expect(mail.raw).toMatch(/^X-Hook: yes$/m);
    expect(mail.raw).toMatch(/^Message-ID: <[A-Za-z0-9]{15}@example\.com>$/im);
    expect(mail.raw).toContain('[link](https://example.com)');
  });

  it('$security: JWTs as 0.22 signs and checks them, AES-GCM round trip', async () => {
    const r = (await call(srv.url, 'GET', '/ns/security')).body;
    expect(r.parsed).toMatchObject({ id: 'u1', role: '<admin>' });
    expect(r.parsed.exp).toBeGreaterThan(Date.now() / 1000);
    expect(r.unverified).toEqual({ sub: '1234567890', name: 'John Doe' });
    expect(r.sample).toEqual({ sub: '1234567890', name: 'John Doe' });
    expect(r.fixed).toBe('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjEyM30.7gbv7w672gApdBRASI6OniCtKwkKjhieSxsr6vxSrtw');
    expect(r.wrongKey.error).toBe('signature is invalid');
    expect(r.expired.error).toBe('token is expired');
    expect(r.cipherIsNew).toBe(true);
    expect(r.decrypted).toBe('secret text');
    expect(r.badKey.error).toBe('cipher: message authentication failed');
    expect(r.shortKey.error).toBe('crypto/aes: invalid key size 5');
    expect(r.sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('$os: files and folders under a temp dir, commands with output, exit refused', async () => {
    const r = (await call(srv.url, 'GET', `/ns/os?dir=${encodeURIComponent(files)}`)).body;
    const dir = path.join(files, 'work');
    expect(r.listed).toEqual([
      { name: 'b', dir: true, size: null },
      { name: 'uno.txt', dir: false, size: 5 },
    ]);
    expect(r.read).toBe('hi');
    expect(r.mkdirTwice.error).toBe(`mkdir ${path.join(dir, 'a')}: file exists`);
    expect(r.removeFull.error).toBe(`remove ${path.join(dir, 'a')}: directory not empty`);
    expect(r.missing.error).toBe(`open ${path.join(dir, 'nope.txt')}: no such file or directory`);
    expect(r.out).toBe('out\n');
    expect(r.combined).toBe('out\nerr\n');
    expect(r.withDirEnv).toBe(`${dir}\nhi\n`);
    expect(r.failed.error).toBe('exit status 3');
    expect(r.notFound.error).toBe('exec: "outpost-no-such-command": executable file not found in $PATH');
    expect(r.exit.error).toContain('a hook must not stop the server');
    expect(r.gone.error).toBe(`open ${dir}: no such file or directory`);
    expect(r).toMatchObject({ tempDir: 'string', env: true });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("$filepath: Go's path semantics, glob, walk and walkDir in lexical order", async () => {
    const r = (await call(srv.url, 'GET', `/ns/filepath?dir=${encodeURIComponent(files)}`)).body;
    expect(r.walked).toEqual(['./', 'a.js', 'b.txt', 'x/', 'x/c.js', 'x/y/', 'x/y/d.js']);
    expect(r.walkedDir).toEqual(r.walked);
    expect(r.stopped.error).toBe('stop here');
    expect(r.globbed).toEqual(['x/c.js']);
    expect(r).toMatchObject({
      clean: ['.', '../b/c', '/x'],
      base: ['.', '/', 'b'],
      dir: ['a/b', '.'],
      ext: ['.bashrc', '.gz'],
      join: ['b', ''],
      split: ['a/b/', 'c.txt'],
      splitList: [[], ['/a', '/b']],
      rel: ['../c/d', { error: "Rel: can't make b relative to /a" }],
      match: [true, false, true, { error: 'syntax error in pattern' }],
      isAbs: [true, false],
    });
  });

  it('$dbx: build() as 0.22 pins it; findRecordsByExpr runs the expressions with bound values', async () => {
    const r = (await call(srv.url, 'GET', '/ns/dbx')).body;
    expect(r.built).toEqual([
      ['`a`={:p0} AND `b` IS NULL AND `c` IN ({:p1}, {:p2}, {:p3})', { p0: 1, p1: 1, p2: 2, p3: 3 }],
      ['(a = 1) AND ((b = {:b}) OR (NOT (c = 3)))', { b: 2 }],
      ['`a` LIKE {:p0}', { p0: 'x\\%y%' }],
      ['`n` NOT BETWEEN {:p0} AND {:p1}', { p0: 1, p1: 2 }],
      ['0=1', {}],
    ]);
    expect(r).toMatchObject({
      byHash: ['apple', 'avocado', 'banana'],
      byTwo: ['apple', 'avocado'],
      byLike: ['banana', 'carrot'],
      byIn: ['apple', 'carrot'],
      byBetween: ['banana', 'carrot'],
      all: ['apple', 'avocado', 'banana', 'carrot'],
      injection: [],
      isRecord: 'dbx_items',
    });
  });

  it('DateTime and Cookie as 0.22 writes them; what stays unsupported says so', async () => {
    const r = (await call(srv.url, 'GET', '/ns/values')).body;
    expect(r).toEqual({
      string: '2023-01-01 00:00:00.000Z',
      unix: 1672531200,
      timeUnix: 1672531200,
      isZero: false,
      nowIsZero: false,
      zero: [true, ''],
      parsed: '2024-05-06 07:08:09.000Z',
      cookie: 'example_name=example_value; Path=/example_path; Domain=example.com; Max-Age=10; HttpOnly; Secure; SameSite=Strict',
      spaced: 'n="a b"; Max-Age=0',
    });
    const u = (await call(srv.url, 'GET', '/ns/unsupported')).body;
    expect(u.dirFS.error).toBe("$os.dirFS() is not supported by Outpost's pb_hooks");
    expect(u.start.error).toContain("is not supported by Outpost's pb_hooks");
    expect(u.template.error).toBe("$template.loadFS() is not supported by Outpost's pb_hooks");
  });
});
