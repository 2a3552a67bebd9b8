// Behind Caddy (issue 35): Debian's caddy, started here on loopback as an ordinary process (`caddy
// run`, its admin endpoint off, no certificates: an http:// site address), in front of the server
// (the built one in the 'server-built' project), running deploy/Caddyfile, the configuration README
// "Deploying" shows, with the test's addresses (tests/helpers/deploy-files.ts). Clients bind their
// own loopback addresses (127.0.0.2 the victim, 127.0.0.3 the attacker); Caddy writes the address
// it sees into X-Real-IP, replacing what a client sent. With the setting the Caddyfile names,
// each client is itself for the sign-in limiters and the request log; realtime streams and uploads
// near the server's limit pass through it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployFile, trustedHeaderOf } from '../helpers/deploy-files';
import { createUploadsCollection, loggedIps, realtimeThrough, requestFrom, setTrustedProxy, uploadThrough, waitForProxy } from '../helpers/proxy-client';
import { FIXTURE_PASSWORD, http as direct, startServer, tempDir, type TestServer } from '../helpers/server';
import { freePort } from '../helpers/server-process';

const VICTIM = '127.0.0.2';
const ATTACKER = '127.0.0.3';

/** Debian's caddy (CADDY_PATH overrides); a machine without it fails here: README, Set-up. */
function findCaddy(): string {
  const candidates = [process.env.CADDY_PATH, '/usr/bin/caddy', spawnSync('sh', ['-c', 'command -v caddy'], { encoding: 'utf8' }).stdout.trim()];
  const found = candidates.find((p): p is string => Boolean(p) && fs.existsSync(p as string));
  if (!found) throw new Error('caddy is not installed: `apt-get install -y caddy` (see README, Set-up)');
  return found;
}

let server: TestServer;
let caddy: ChildProcess;
let caddyOutput = '';
let proxyUrl = '';
let dir = '';

const userSignIn = (from: string, identity: string, password: string, headers?: Record<string, string>) =>
  requestFrom(proxyUrl, from, 'POST', '/api/collections/users/auth-with-password', { body: { identity, password }, headers });

beforeAll(async () => {
  const bin = findCaddy();
  server = await startServer({ fixture: true });
  dir = tempDir('outpost-caddy-');
  const proxyPort = await freePort();
  proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const site = deployFile('Caddyfile', [
    // plain HTTP on a loopback port: no certificate to get
    ['example.com {', `${proxyUrl} {`],
    ['reverse_proxy 127.0.0.1:8090', `reverse_proxy ${new URL(server.url).host}`],
  ]);
  // no admin endpoint (its port 2019 would clash with another caddy on the machine)
  fs.writeFileSync(path.join(dir, 'Caddyfile'), `{\n\tadmin off\n}\n\n${site}`);
  // caddy keeps its state under $HOME / XDG folders: the test's folder
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') };
  caddy = spawn(bin, ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  caddy.stdout?.on('data', (c: Buffer) => (caddyOutput += c.toString()));
  caddy.stderr?.on('data', (c: Buffer) => (caddyOutput += c.toString()));
  await waitForProxy(proxyUrl, () => (caddy.exitCode !== null ? `caddy exited (${caddy.exitCode}): ${caddyOutput}` : null));
  await setTrustedProxy(server.url, { headers: [trustedHeaderOf('Caddyfile')], useLeftmostIP: false });
  await createUploadsCollection(server.url, 'caddy_uploads');
}, 60_000);

afterAll(async () => {
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((r) => caddy.once('exit', r));
    caddy.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('deploy/Caddyfile with the setting it names', () => {
  it('names X-Real-IP, the header it sets', () => {
    expect(trustedHeaderOf('Caddyfile')).toBe('X-Real-IP');
  });

  it("the victim signs in after an attacker's failures from another address", async () => {
    for (let i = 0; i < 5; i++) expect((await userSignIn(ATTACKER, 'test@example.com', `wrong-${i}`)).status).toBe(400);
    expect((await userSignIn(ATTACKER, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(429);
    expect((await userSignIn(VICTIM, 'test@example.com', FIXTURE_PASSWORD)).status).toBe(200);
  }, 90_000);

  it('the log shows the real client; forwarding headers the client made up change nothing', async () => {
    expect((await requestFrom(proxyUrl, VICTIM, 'GET', '/api/caddy-probe-victim')).status).toBe(404);
    const madeUp = { 'X-Real-IP': '203.0.113.65', 'X-Forwarded-For': '203.0.113.66' };
    expect((await requestFrom(proxyUrl, ATTACKER, 'GET', '/api/caddy-probe-attacker', { headers: madeUp })).status).toBe(404);
    expect(await loggedIps(server.url, '/api/caddy-probe-victim')).toMatchObject({ userIp: VICTIM, remoteIp: '127.0.0.1' });
    expect(await loggedIps(server.url, '/api/caddy-probe-attacker')).toMatchObject({ userIp: ATTACKER, remoteIp: '127.0.0.1' });
  });

  it('a spoofed X-Forwarded-For sent to the server directly is ignored', async () => {
    expect((await direct(server.url, 'GET', '/api/caddy-direct-probe', { headers: { 'X-Forwarded-For': '203.0.113.77' } })).status).toBe(404);
    expect(await loggedIps(server.url, '/api/caddy-direct-probe')).toMatchObject({ userIp: '127.0.0.1', remoteIp: '127.0.0.1' });
  });

  it('a realtime stream gets its events through Caddy', async () => {
    await realtimeThrough(proxyUrl, server.url, 'caddy_uploads');
  });

  it('a 25 MB upload passes (request_body max_size) and reads back whole', async () => {
    await uploadThrough(proxyUrl, 'caddy_uploads', 25 << 20);
  }, 60_000);
});
