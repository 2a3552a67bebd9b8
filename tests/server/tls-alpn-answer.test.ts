// The HTTPS listener's answer to a CA's TLS-ALPN-01 validation (server/tls/certificates.ts), in
// process and without a CA: while a challenge is pending for a name, a client offering only ALPN
// acme-tls/1 gets the challenge's certificate, in TLS 1.3 (OpenSSL calls the ALPN callback first)
// and in TLS 1.2 (the certificate callback comes first; the ALPN callback replaces it); other
// clients get the domain's certificate with HTTP/1.1, and a client offering only h2 a TLS alert.
// tls-acme.test.ts runs the whole validation against pebble (TLS 1.3).
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alpnChallengeCertificate } from '../../server/tls/alpn-certificate';
import { writeCertificate } from '../../server/tls/autocert-cache';
import { Certificates } from '../../server/tls/certificates';
import { selfSigned } from '../helpers/pebble';
import { tempDir } from '../helpers/server';

const DOMAIN = 'test.example';

let work = '';
let server: tls.Server;
let certs: Certificates;
let challengeFingerprint = '';
let domainFingerprint = '';

interface Handshake {
  protocol: string | null;
  alpn: string | false | null;
  fingerprint: string;
}

function handshake(opts: { alpn: string[]; version?: tls.SecureVersion }): Promise<Handshake> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port, servername: DOMAIN, ALPNProtocols: opts.alpn, rejectUnauthorized: false, minVersion: opts.version, maxVersion: opts.version },
      () => {
        resolve({ protocol: socket.getProtocol(), alpn: socket.alpnProtocol, fingerprint: socket.getPeerX509Certificate()?.fingerprint256 ?? '' });
        socket.end();
      },
    );
    socket.on('error', reject);
  });
}

/** A TLS-ALPN-01 challenge pending for DOMAIN, as an order sets one. */
async function pendingChallenge(): Promise<void> {
  const { keyPem, certPem } = await alpnChallengeCertificate(DOMAIN, 'token.thumbprint');
  certs.answers.tlsAlpn.set(DOMAIN, tls.createSecureContext({ key: keyPem, cert: certPem }));
  challengeFingerprint = new crypto.X509Certificate(certPem).fingerprint256;
}

beforeAll(async () => {
  work = tempDir('outpost-tls-alpn-');
  const cacheDir = path.join(work, '.autocert_cache');
  fs.mkdirSync(cacheDir, { mode: 0o700 });
  const own = selfSigned(work, 'domain', DOMAIN, `DNS:${DOMAIN}`, 60);
  writeCertificate(cacheDir, DOMAIN, fs.readFileSync(own.key, 'utf8'), fs.readFileSync(own.cert, 'utf8'));
  domainFingerprint = new crypto.X509Certificate(fs.readFileSync(own.cert)).fingerprint256;
  // no CA: the directory is never asked (the domain's certificate is cached)
  certs = new Certificates({ hostNames: [DOMAIN], cacheDir, directoryUrl: 'https://127.0.0.1:9/dir', httpChallenges: true });
  await pendingChallenge();
  server = tls.createServer({ SNICallback: certs.sniCallback, ALPNCallback: certs.alpnCallback, minVersion: 'TLSv1.2' }, (s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  certs?.close();
  await new Promise((r) => server?.close(r));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('a TLS-ALPN-01 validation on the HTTPS listener', () => {
  it.each(['TLSv1.3', 'TLSv1.2'] as const)('%s: acme-tls/1 gets the challenge certificate', async (version) => {
    const res = await handshake({ alpn: ['acme-tls/1'], version });
    expect(res).toEqual({ protocol: version, alpn: 'acme-tls/1', fingerprint: challengeFingerprint });
  });

  it("TLS 1.3: a browser gets the domain's certificate and HTTP/1.1, even while a challenge is pending", async () => {
    expect(await handshake({ alpn: ['h2', 'http/1.1'], version: 'TLSv1.3' })).toEqual({ protocol: 'TLSv1.3', alpn: 'http/1.1', fingerprint: domainFingerprint });
    expect(await handshake({ alpn: [], version: 'TLSv1.3' })).toMatchObject({ alpn: false, fingerprint: domainFingerprint });
  });

  it("TLS 1.2: the domain's certificate once no challenge is pending", async () => {
    certs.answers.tlsAlpn.delete(DOMAIN);
    try {
      expect(await handshake({ alpn: ['http/1.1'], version: 'TLSv1.2' })).toEqual({ protocol: 'TLSv1.2', alpn: 'http/1.1', fingerprint: domainFingerprint });
      // acme-tls/1 without a pending challenge: no certificate, a TLS alert
      await expect(handshake({ alpn: ['acme-tls/1'] })).rejects.toThrow(/alert/i);
    } finally {
      await pendingChallenge();
    }
  });

  it('a client offering only h2 is refused with a TLS alert', async () => {
    await expect(handshake({ alpn: ['h2'] })).rejects.toThrow(/alert/i);
  });
});

describe('the challenge certificate (RFC 8737)', () => {
  it('is for the domain alone, usable for TLS 1.2 signatures, with the key authorization digest in the critical acmeIdentifier extension', async () => {
    const { certPem } = await alpnChallengeCertificate(DOMAIN, 'token.thumbprint');
    const cert = new crypto.X509Certificate(certPem);
    expect(cert.subjectAltName).toBe(`DNS:${DOMAIN}`);
    expect(cert.ca).toBe(false);
    const digest = crypto.createHash('sha256').update('token.thumbprint').digest();
    // the extension as DER: OID 1.3.6.1.5.5.7.1.31, critical, an OCTET STRING holding OCTET STRING(digest)
    const der = cert.raw;
    const ext = Buffer.concat([Buffer.from('06082b0601050507011f0101ff0422', 'hex'), Buffer.from([0x04, 0x20]), digest]);
    expect(der.includes(ext)).toBe(true);
  });
});
