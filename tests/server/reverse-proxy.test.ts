// Behind a real reverse proxy (issue 35): Debian's nginx, started here on loopback, in front of the
// server (the built one in the 'server-built' project), running deploy/nginx.conf, the site
// configuration README "Deploying" shows, with the test's ports (tests/helpers/deploy-files.ts)
// inside a minimal main configuration. The clients differ by address as real users do: each binds
// its socket to its own loopback address (127.0.0.2 the victim, 127.0.0.3 the attacker) and nginx
// writes the address it sees into X-Real-IP and appends it to X-Forwarded-For. Without the
// trustedProxy setting the server sees only nginx (the lockout the issue measured); with the one the
// configuration names, each client is itself for the sign-in limiters and the request log, and a
// forwarding header nobody listed is never believed. Realtime streams and uploads near the server's
// limit pass through it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployFile, trustedHeaderOf } from '../helpers/deploy-files';
import { createUploadsCollection, loggedIps as logged, realtimeThrough, requestFrom, setTrustedProxy as setTrusted, uploadThrough, waitForProxy } from '../helpers/proxy-client';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_PASSWORD, http as direct, startServer, tempDir, type TestServer } from '../helpers/server';
import { freePort } from '../helpers/server-process';

const VICTIM = '127.0.0.2';
const ATTACKER = '127.0.0.3';
const token = FIXTURE_ADMIN_TOKEN;

/** Debian's nginx (NGINX_PATH overrides); a machine without it fails here: README, Set-up. */
function findNginx(): string {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim()];
  const found = candidates.find((p): p is string => Boolean(p) && fs.existsSync(p as string));
  if (!found) throw new Error('nginx is not installed: `apt-get install -y nginx` (see README, Set-up)');
  return found;
}

/** What /etc/nginx/nginx.conf provides around a site file, kept inside the test's folder. */
function mainConfig(siteFile: string): string {
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid nginx.pid;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path tmp/body;
  proxy_temp_path tmp/proxy;
  fastcgi_temp_path tmp/fastcgi;
  uwsgi_temp_path tmp/uwsgi;
  scgi_temp_path tmp/scgi;
  include ${siteFile};
}
`;
}

let server: TestServer;
let nginx: ChildProcess;
let nginxOutput = '';
let proxyUrl = '';
let dir = '';

/** A request through nginx from a socket bound to `from` (the client's own address). */
const viaProxy = (from: string, method: string, p: string, opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) =>
  requestFrom(proxyUrl, from, method, p, opts);

const adminSignIn = (from: string, identity: string, password: string, headers?: Record<string, string>) =>
  viaProxy(from, 'POST', '/api/admins/auth-with-password', { body: { identity, password }, headers });
const userSignIn = (from: string, identity: string, password: string) => viaProxy(from, 'POST', '/api/collections/users/auth-with-password', { body: { identity, password } });
const setTrustedProxy = (trustedProxy: { headers: string[]; useLeftmostIP: boolean }) => setTrusted(server.url, trustedProxy);
const loggedIps = (url: string) => logged(server.url, url);

beforeAll(async () => {
  const bin = findNginx();
  server = await startServer({ fixture: true });
  dir = tempDir('outpost-nginx-');
  fs.mkdirSync(path.join(dir, 'tmp'));
  const proxyPort = await freePort();
  proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const site = deployFile('nginx.conf', [
    ['listen 80;', `listen 127.0.0.1:${proxyPort};`],
    ['proxy_pass http://127.0.0.1:8090;', `proxy_pass ${server.url};`],
  ]);
  fs.writeFileSync(path.join(dir, 'outpost.conf'), site);
  fs.writeFileSync(path.join(dir, 'nginx.conf'), mainConfig(path.join(dir, 'outpost.conf')));
  // -e: the error log before the config is read (the default /var/log/nginx may not be writable)
  nginx = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  nginx.stdout?.on('data', (c: Buffer) => (nginxOutput += c.toString()));
  nginx.stderr?.on('data', (c: Buffer) => (nginxOutput += c.toString()));
  await waitForProxy(proxyUrl, () => (nginx.exitCode !== null ? `nginx exited (${nginx.exitCode}): ${nginxOutput}` : null));
}, 60_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('without the setting', () => {
  it('the server sees nginx for everyone: an attacker\'s failures lock the victim out (the issue\'s measurement), and health names the untrusted header', async () => {
    const health = await viaProxy(VICTIM, 'GET', '/api/health', { token });
    expect(health.body.data).toMatchObject({ realIP: '127.0.0.1', possibleProxyHeader: 'X-Forwarded-For' });
    for (let i = 0; i < 5; i++) expect((await adminSignIn(ATTACKER, 'test@example.com', `wrong-${i}`)).status).toBe(400);
    expect((await adminSignIn(VICTIM, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(429);
  }, 90_000);
});

describe('trusting X-Real-IP, the header nginx sets from the address it sees', () => {
  // the setting deploy/nginx.conf names
  beforeAll(() => setTrustedProxy({ headers: [trustedHeaderOf('nginx.conf')], useLeftmostIP: false }));

  it('deploy/nginx.conf names X-Real-IP', () => {
    expect(trustedHeaderOf('nginx.conf')).toBe('X-Real-IP');
  });

  it('the victim signs in after an attacker\'s failures from another address', async () => {
    for (let i = 0; i < 5; i++) expect((await userSignIn(ATTACKER, 'test@example.com', `wrong-${i}`)).status).toBe(400);
    expect((await userSignIn(ATTACKER, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(429);
    expect((await userSignIn(VICTIM, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(200);
    // the admin the attacker locked out above (as nginx) signs in again
    expect((await adminSignIn(VICTIM, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(200);
  }, 90_000);

  it('60 failures across 60 made-up identities from one client do not block another client', async () => {
    // all at once: one after the other they may take longer than the limiter's minute on a loaded machine
    const statuses = (await Promise.all(Array.from({ length: 60 }, (_, i) => adminSignIn(ATTACKER, `made-up-${i}@example.com`, 'guess')))).map((r) => r.status);
    // the per-address limit (50 a minute) stops the attacker, and only the attacker
    expect(statuses.filter((s) => s === 400)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect((await adminSignIn(ATTACKER, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(429);
    expect((await adminSignIn(VICTIM, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(200);
  }, 180_000);

  it('the log shows the real client (userIp) next to nginx (remoteIp), and health the resolved address', async () => {
    expect((await viaProxy(VICTIM, 'GET', '/api/proxy-probe-victim')).status).toBe(404);
    expect((await viaProxy(ATTACKER, 'GET', '/api/proxy-probe-attacker', { headers: { 'X-Forwarded-For': '203.0.113.66' } })).status).toBe(404);
    expect(await loggedIps('/api/proxy-probe-victim')).toMatchObject({ userIp: VICTIM, remoteIp: '127.0.0.1' });
    // a forwarding header the client made up (nginx appends to it) is not what the server believes
    expect(await loggedIps('/api/proxy-probe-attacker')).toMatchObject({ userIp: ATTACKER, remoteIp: '127.0.0.1' });
    expect((await viaProxy(VICTIM, 'GET', '/api/health', { token })).body.data).toMatchObject({ realIP: VICTIM, possibleProxyHeader: 'X-Real-IP' });
  });

  it('a spoofed X-Forwarded-For sent directly to the server is ignored', async () => {
    const res = await direct(server.url, 'GET', '/api/direct-spoof-probe', { headers: { 'X-Forwarded-For': '203.0.113.77' } });
    expect(res.status).toBe(404);
    expect(await loggedIps('/api/direct-spoof-probe')).toMatchObject({ userIp: '127.0.0.1', remoteIp: '127.0.0.1' });
    // nor does it pick a sign-in counter: 5 direct failures under made-up addresses are counted for the socket's
    for (let i = 0; i < 5; i++) {
      const r = await direct(server.url, 'POST', '/api/collections/users/auth-with-password', {
        body: { identity: 'test2@example.com', password: `wrong-${i}` },
        headers: { 'X-Forwarded-For': `198.51.100.${i}` },
      });
      expect(r.status).toBe(400);
    }
    const sixth = await direct(server.url, 'POST', '/api/collections/users/auth-with-password', {
      body: { identity: 'test2@example.com', password: FIXTURE_PASSWORD },
      headers: { 'X-Forwarded-For': '198.51.100.99' },
    });
    expect(sixth.status).toBe(429);
  }, 90_000);
});

describe('trusting X-Forwarded-For', () => {
  it('rightmost (the default) is the address nginx appended, whatever the client put before it; leftmost believes the client', async () => {
    await setTrustedProxy({ headers: ['X-Forwarded-For'], useLeftmostIP: false });
    expect((await viaProxy(ATTACKER, 'GET', '/api/xff-right-probe', { headers: { 'X-Forwarded-For': '203.0.113.88' } })).status).toBe(404);
    expect(await loggedIps('/api/xff-right-probe')).toMatchObject({ userIp: ATTACKER, remoteIp: '127.0.0.1' });

    await setTrustedProxy({ headers: ['X-Forwarded-For'], useLeftmostIP: true });
    expect((await viaProxy(ATTACKER, 'GET', '/api/xff-left-probe', { headers: { 'X-Forwarded-For': '203.0.113.88' } })).status).toBe(404);
    expect(await loggedIps('/api/xff-left-probe')).toMatchObject({ userIp: '203.0.113.88' });
  }, 90_000);
});

describe('realtime and uploads through nginx', () => {
  beforeAll(() => createUploadsCollection(server.url, 'proxied_uploads'));

  it('a realtime stream gets its events through nginx', async () => {
    await realtimeThrough(proxyUrl, server.url, 'proxied_uploads');
  });

  it('a 25 MB upload passes (client_max_body_size) and reads back whole', async () => {
    await uploadThrough(proxyUrl, 'proxied_uploads', 25 << 20);
  }, 60_000);
});
