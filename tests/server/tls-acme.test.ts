// TLS without a proxy (issue 35), end to end: `serve test.example --http --https` (the built server
// in the 'server-built' project) gets a real certificate from Debian's pebble, Let's Encrypt's test
// CA, started here on loopback (tests/helpers/pebble.ts): the order at the first handshake naming
// the domain, TLS-ALPN-01 tried first (pebble validates it on a closed port: it fails) and the
// HTTP-01 challenge answered on the HTTP port with a second order, the chain verified against pebble's
// root, HSTS on the answers; HTTP redirected to HTTPS as autocert does; the www. variant; a name
// outside the host policy refused with a TLS alert; the cached certificate reused by the next start
// (no new order); one near its expiry served and renewed; a CA that cannot be reached logged and
// answered with a TLS alert, the server going on. Then a CA that can validate only TLS-ALPN-01 (its
// HTTP-01 port closed, its TLS-ALPN-01 one the server's HTTPS port).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { PeerCertificate } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server';
import { spawnCli } from '../helpers/cli';
import { freePort } from '../helpers/server-process';
import { selfSigned, startPebble, type Pebble } from '../helpers/pebble';

const DOMAIN = 'test.example';

let work = '';
let pebble: Pebble;
let httpPort = 0;
let httpsPort = 0;

interface Running {
  output(): string;
  stop(): Promise<void>;
}

/** `outpost serve test.example --http … --https …` on `dataDir`, once its banner is out. */
async function serve(dataDir: string, directoryUrl = pebble.directoryUrl, ca = pebble): Promise<Running> {
  const args = ['serve', DOMAIN, '--http', `127.0.0.1:${httpPort}`, '--https', `127.0.0.1:${httpsPort}`, `--acmeDirectory=${directoryUrl}`, `--dir=${dataDir}`];
  const child: ChildProcess = spawnCli(args, work, { NODE_EXTRA_CA_CERTS: ca.listenerCaFile });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const t0 = Date.now();
  while (!out.includes('is running')) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${out}`);
    if (Date.now() - t0 > 60_000) throw new Error(`no start in 60 s: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
      expect(child.exitCode).toBe(0);
    },
  };
}

/** Waits (5 s at most) for `ok`: the server's output reaches the test through a pipe. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(ok()).toBe(true);
}

interface TlsAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  cert: PeerCertificate;
}

/** A request to the HTTPS port with `servername` as SNI and Host, trusting `ca` only. */
function tlsGet(servername: string, p: string, ca: string | string[]): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port: httpsPort, servername, path: p, ca, agent: false, headers: { host: `${servername}:${httpsPort}` } },
      (res) => {
        const cert = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, cert }));
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.end();
  });
}

/** A request to the HTTP port with `host` as Host. */
function plain(method: string, p: string, host: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: httpPort, method, path: p, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  work = tempDir('outpost-tls-');
  [httpPort, httpsPort] = await Promise.all([freePort(), freePort()]);
  pebble = await startPebble(path.join(work, 'pebble'), httpPort);
});

afterAll(async () => {
  await pebble?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('serve <domain> with certificates from an ACME CA (pebble)', () => {
  const dataDir = () => path.join(work, 'pb_data');
  const cacheDir = () => path.join(dataDir(), '.autocert_cache');
  let server: Running;
  let firstFingerprint = '';

  beforeAll(async () => {
    server = await serve(dataDir());
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('obtains a certificate at the first handshake naming the domain, and answers over TLS with HSTS', async () => {
    const res = await tlsGet(DOMAIN, '/api/health', pebble.root);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ code: 200, message: 'API is healthy.' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    // verified against pebble's root (the request trusts nothing else); issued for the domain
    expect(res.cert.subjectaltname).toBe(`DNS:${DOMAIN}`);
    expect(String(res.cert.issuer.CN)).toMatch(/^Pebble Intermediate CA/);
    firstFingerprint = res.cert.fingerprint256;
    // TLS-ALPN-01 first (autocert's order), which this CA cannot validate, then HTTP-01
    expect(server.output()).toContain(`[tls] obtained a certificate for ${DOMAIN} with http-01`);
    // the banner names the domain, as 0.22's does
    expect(server.output()).toContain(`REST API:  https://${DOMAIN}/api/`);
    // autocert's cache layout: the account key and one file per domain (key, then the chain), private
    expect(fs.readdirSync(cacheDir()).sort()).toEqual(['acme_account+key', DOMAIN]);
    const cached = fs.readFileSync(path.join(cacheDir(), DOMAIN), 'utf8');
    expect(cached).toMatch(/^-----BEGIN (EC )?PRIVATE KEY-----[\s\S]+-----BEGIN CERTIFICATE-----[\s\S]+-----BEGIN CERTIFICATE-----/);
    expect(fs.statSync(path.join(cacheDir(), DOMAIN)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir()).mode & 0o777).toBe(0o700);
  });

  it('the HTTP address redirects to HTTPS as autocert does and answers only known challenges', async () => {
    const get = await plain('GET', '/api/health?x=1', `${DOMAIN}:${httpPort}`);
    expect(get.status).toBe(302);
    // autocert's stripPort: a Host with a port is sent to :443
    expect(get.headers.location).toBe(`https://${DOMAIN}:443/api/health?x=1`);
    expect((await plain('HEAD', '/_/', DOMAIN)).headers.location).toBe(`https://${DOMAIN}/_/`);
    const post = await plain('POST', '/api/collections/x/records', DOMAIN);
    expect([post.status, post.body]).toEqual([400, 'Use HTTPS\n']);
    const unknown = await plain('GET', '/.well-known/acme-challenge/nope', DOMAIN);
    expect(unknown.status).toBe(404);
    const foreign = await plain('GET', '/.well-known/acme-challenge/nope', 'other.example');
    expect(foreign.status).toBe(403);
  });

  it('covers the www. variant and redirects it to the bare domain (307)', async () => {
    const res = await tlsGet(`www.${DOMAIN}`, '/api/health?y=2', pebble.root);
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(`https://${DOMAIN}:${httpsPort}/api/health?y=2`);
    expect(res.cert.subjectaltname).toBe(`DNS:www.${DOMAIN}`);
  });

  it('refuses a name outside the host policy with a TLS alert, and goes on serving', async () => {
    await expect(tlsGet('other.example', '/api/health', pebble.root)).rejects.toThrow(/alert handshake failure/i);
    await until(() => server.output().includes('[tls] refused a TLS handshake for "other.example"'));
    expect((await tlsGet(DOMAIN, '/api/health', pebble.root)).status).toBe(200);
  });

  it('a second start uses the cached certificate: no new order', async () => {
    await server.stop();
    server = await serve(dataDir());
    const res = await tlsGet(DOMAIN, '/api/health', pebble.root);
    expect(res.status).toBe(200);
    expect(res.cert.fingerprint256).toBe(firstFingerprint);
    expect(server.output()).toContain(`[tls] using the cached certificate for ${DOMAIN}`);
    expect(server.output()).not.toContain('[tls] asking');
  });

  it('a cached certificate within 30 days of its expiry is served, then renewed from the CA', async () => {
    await server.stop();
    // a certificate 10 days from expiry in its place (autocert renews 30 days before)
    const old = selfSigned(work, 'expiring', DOMAIN, `DNS:${DOMAIN}`, 10);
    const oldPem = fs.readFileSync(old.cert, 'utf8');
    fs.mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(cacheDir(), DOMAIN), fs.readFileSync(old.key, 'utf8') + oldPem, { mode: 0o600 });
    server = await serve(dataDir());
    const first = await tlsGet(DOMAIN, '/api/health', [pebble.root, oldPem]);
    expect(first.cert.issuer.CN).toBe(DOMAIN);
    let renewed = first;
    for (let i = 0; i < 200 && renewed.cert.issuer.CN === DOMAIN; i++) {
      await new Promise((r) => setTimeout(r, 100));
      renewed = await tlsGet(DOMAIN, '/api/health', [pebble.root, oldPem]);
    }
    expect(String(renewed.cert.issuer.CN), server.output()).toMatch(/^Pebble Intermediate CA/);
    expect(server.output()).toContain(`[tls] renewing the certificate for ${DOMAIN}`);
    expect(fs.readFileSync(path.join(cacheDir(), DOMAIN), 'utf8')).not.toContain(oldPem.trim());
  });
});

describe('a certificate that cannot be obtained', () => {
  it('is a log line and a TLS alert, never a crash', async () => {
    // a directory URL the CA does not serve (404): the order fails at once
    const server = await serve(path.join(work, 'pb_data_2'), pebble.directoryUrl.replace(/\/dir$/, '/no-such-directory'));
    try {
      await expect(tlsGet(DOMAIN, '/api/health', pebble.root)).rejects.toThrow(/alert handshake failure/i);
      await until(() => /\[tls\] could not obtain a certificate for test\.example from .*next attempt in 60 s/.test(server.output()));
      // within the back-off the next handshake fails at once, without another order
      await expect(tlsGet(DOMAIN, '/api/health', pebble.root)).rejects.toThrow(/alert handshake failure/i);
      expect(server.output().match(/\[tls\] asking/g)).toHaveLength(1);
      // the server still answers
      expect((await plain('GET', '/api/health', DOMAIN)).status).toBe(302);
    } finally {
      await server.stop();
    }
  });
});

describe('a CA that can validate only TLS-ALPN-01', () => {
  it('gets the certificate through the acme-tls/1 answer on the HTTPS port', async () => {
    // pebble's HTTP-01 requests go to a port nothing listens on; its TLS-ALPN-01 ones to the HTTPS port
    const closedPort = await freePort();
    const alpnPebble = await startPebble(path.join(work, 'pebble-alpn'), closedPort, httpsPort);
    const server = await serve(path.join(work, 'pb_data_alpn'), alpnPebble.directoryUrl, alpnPebble);
    try {
      const res = await tlsGet(DOMAIN, '/api/health', alpnPebble.root);
      expect(res.status, server.output()).toBe(200);
      expect(res.cert.subjectaltname).toBe(`DNS:${DOMAIN}`);
      expect(String(res.cert.issuer.CN)).toMatch(/^Pebble Intermediate CA/);
      expect(server.output()).toContain(`[tls] obtained a certificate for ${DOMAIN} with tls-alpn-01`);
      // one order: the first challenge tried succeeded
      expect(server.output().match(/\[tls\] asking/g)).toHaveLength(1);
    } finally {
      await server.stop();
      await alpnPebble.stop();
    }
  });
});
