// pb_data/.autocert_cache in the layout of Go's autocert.DirCache, which PocketBase 0.22 writes:
// one file per domain named after it, holding the certificate's private key (PEM) followed by its
// chain (PEM, leaf first), and the ACME account's key in `acme_account+key`. A folder 0.22 filled
// is read as it is, and 0.22 reads what Outpost writes. Files are 0600 in a 0700 folder, as there.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ACCOUNT_KEY = 'acme_account+key';
// autocert's name before golang.org/x/crypto moved to "+key"; still read
const LEGACY_ACCOUNT_KEY = 'acme_account.key';

/** A certificate usable for `domain` now: its key and chain (PEM) and when it expires. */
interface CachedCertificate {
  keyPem: string;
  chainPem: string;
  notAfter: Date;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----\r?\n?/g;

function writePrivate(dir: string, name: string, data: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // written aside then renamed: a crash never leaves half a key in the cache
  const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.renameSync(tmp, path.join(dir, name));
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The account key kept in the cache (PEM), or null before the first order. */
export function readAccountKey(dir: string): string | null {
  return readOrNull(path.join(dir, ACCOUNT_KEY)) ?? readOrNull(path.join(dir, LEGACY_ACCOUNT_KEY));
}

export function writeAccountKey(dir: string, keyPem: string): void {
  writePrivate(dir, ACCOUNT_KEY, keyPem);
}

/**
 * The cached certificate for `domain` when autocert would use it too: key and leaf match, the leaf
 * names the domain and is valid now. Anything else (missing, unreadable, expired) is null, and a
 * new certificate is asked for.
 */
export function readCertificate(dir: string, domain: string, now = new Date()): CachedCertificate | null {
  const text = readOrNull(path.join(dir, domain));
  if (!text) return null;
  const blocks = [...text.matchAll(PEM_BLOCK)];
  const keyBlock = blocks.find((b) => b[1].includes('PRIVATE KEY'));
  const certs = blocks.filter((b) => b[1] === 'CERTIFICATE').map((b) => b[0]);
  if (!keyBlock || !certs.length) return null;
  try {
    const leaf = new crypto.X509Certificate(certs[0]);
    const key = crypto.createPrivateKey(keyBlock[0]);
    const notAfter = new Date(leaf.validTo);
    if (!(new Date(leaf.validFrom) <= now && now < notAfter)) return null;
    if (!leaf.checkHost(domain) || !leaf.checkPrivateKey(key)) return null;
    return { keyPem: keyBlock[0], chainPem: certs.join(''), notAfter };
  } catch {
    return null;
  }
}

export function writeCertificate(dir: string, domain: string, keyPem: string, chainPem: string): void {
  const withNewline = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);
  writePrivate(dir, domain, withNewline(keyPem) + withNewline(chainPem));
}
