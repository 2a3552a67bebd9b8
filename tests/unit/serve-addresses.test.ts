// `serve [domain(s)] --http --https`: the addresses, host policy and banner by PocketBase 0.22's
// rules (cmd/serve.go, apis/serve.go), and the cached certificates autocert would use (its
// DirCache layout: key then chain, one file per domain).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveAddresses } from '../../server/cli/serve-addresses';
import { readCertificate } from '../../server/tls/autocert-cache';
import { normalizeHost } from '../../server/tls/certificates';

describe('serveAddresses', () => {
  it('without a domain: plain HTTP on 127.0.0.1:8090, no TLS', () => {
    expect(serveAddresses([], '', '')).toMatchObject({ http: '127.0.0.1:8090', https: '', bannerUrl: 'http://127.0.0.1:8090' });
    expect(serveAddresses([], '0.0.0.0:9000', '').http).toBe('0.0.0.0:9000');
  });

  it('with domains: HTTP on :80 and HTTPS on :443 unless given; www. variants added and redirected', () => {
    const a = serveAddresses(['example.com', 'api.example.com'], '', '');
    expect(a).toEqual({
      http: '0.0.0.0:80',
      https: '0.0.0.0:443',
      hostNames: ['example.com', 'api.example.com', 'www.example.com', 'www.api.example.com'],
      wwwRedirects: ['www.example.com', 'www.api.example.com'],
      bannerUrl: 'https://example.com',
    });
    // a www. domain given explicitly is served, not redirected
    const b = serveAddresses(['example.com', 'www.example.com'], '127.0.0.1:8080', '127.0.0.1:8443');
    expect(b).toMatchObject({ http: '127.0.0.1:8080', https: '127.0.0.1:8443', hostNames: ['example.com', 'www.example.com'], wwwRedirects: [] });
  });

  it('--https alone: the policy is the HTTPS address host, the HTTP address stays 127.0.0.1:8090 (redirecting)', () => {
    expect(serveAddresses([], '', 'example.com:443')).toEqual({
      http: '127.0.0.1:8090',
      https: 'example.com:443',
      hostNames: ['example.com', 'www.example.com'],
      wwwRedirects: ['www.example.com'],
      bannerUrl: 'https://example.com:443',
    });
  });

  it('refuses a name no certificate can have', () => {
    for (const bad of ['localhost', 'example.com:443', 'http://example.com', '']) expect(() => serveAddresses([bad], '', '')).toThrow(/invalid domain/);
  });

  it('compares names as autocert does (case, trailing dot, IDNA)', () => {
    expect(normalizeHost('Example.COM.')).toBe('example.com');
    expect(normalizeHost('bücher.example')).toBe('xn--bcher-kva.example');
  });
});

describe('readCertificate (autocert cache)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-autocert-'));

  it('returns null for a missing or unreadable file', () => {
    expect(readCertificate(dir, 'missing.example')).toBeNull();
    fs.writeFileSync(path.join(dir, 'junk.example'), 'not a pem');
    expect(readCertificate(dir, 'junk.example')).toBeNull();
  });

  it('returns null for a key without its certificate (a valid file: tls-acme.test.ts)', () => {
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    fs.writeFileSync(path.join(dir, 'keyonly.example'), privateKey.export({ type: 'sec1', format: 'pem' }).toString());
    expect(readCertificate(dir, 'keyonly.example')).toBeNull();
  });
});
