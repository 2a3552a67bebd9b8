// `$security` as 0.22's tools/security: hex digests and HMACs, random strings, HS256 JWTs
// (createJWT's claims encoded as Go encodes a map, so a token matches 0.22's byte for byte;
// parseJWT accepts HS256 only; exp, iat and nbf are checked as golang-jwt v4 checks them) and
// AES-GCM with the nonce before the sealed text, in standard base64 (the scheme of the settings
// encryption, ../../../services/settings-crypto.ts).
import crypto from 'node:crypto';
import { namespace } from '../../../migrations/js-unsupported';
import { randomString } from '../../../services/passwords';
import { decryptSettings, encryptSettings } from '../../../services/settings-crypto';
import { goJson } from './go-json';

const text = (v: unknown) => (v === undefined || v === null ? '' : v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : Array.isArray(v) ? Buffer.from(v.map(Number)).toString('utf8') : String(v));
const digest = (algo: string) => (value: unknown) => crypto.createHash(algo).update(text(value)).digest('hex');
const hmac = (algo: string) => (value: unknown, secret: unknown) => crypto.createHmac(algo, text(secret)).update(text(value)).digest('hex');

type Claims = Record<string, unknown>;

const JWT_HEADER = Buffer.from(goJson({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const sign = (input: string, key: string) => crypto.createHmac('sha256', key).update(input).digest('base64url');

function decodeSegment(segment: string, what: string): Claims {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new Error(`token is malformed: could not JSON decode ${what}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`token is malformed: could not JSON decode ${what}`);
  return value as Claims;
}

function split(token: unknown): [string, string, string] {
  const parts = text(token).split('.');
  if (parts.length !== 3) throw new Error('token contains an invalid number of segments');
  return parts as [string, string, string];
}

/** jwt.MapClaims.Valid (v4): exp, iat and nbf checked when present (0 counts as absent, a non-number fails). */
function checkTimes(claims: Claims): void {
  const now = Math.floor(Date.now() / 1000);
  const holds = (key: string, ok: (at: number) => boolean) => {
    const v = claims[key];
    if (v === undefined || v === 0) return true;
    return typeof v === 'number' && ok(v);
  };
  let error = '';
  if (!holds('exp', (at) => now < at)) error = 'token is expired';
  if (!holds('iat', (at) => now >= at)) error = 'token used before issued';
  if (!holds('nbf', (at) => now >= at)) error = 'token is not valid yet';
  if (error) throw new Error(error);
}

function parseUnverifiedJWT(token: unknown): Claims {
  const [head, body] = split(token);
  decodeSegment(head, 'header');
  const claims = decodeSegment(body, 'claims');
  checkTimes(claims);
  return claims;
}

function parseJWT(token: unknown, key: unknown): Claims {
  const [head, body, signature] = split(token);
  const header = decodeSegment(head, 'header');
  const claims = decodeSegment(body, 'claims');
  if (header.alg !== 'HS256') throw new Error(`signing method ${String(header.alg)} is invalid`);
  const expected = Buffer.from(sign(`${head}.${body}`, text(key)));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw new Error('signature is invalid');
  checkTimes(claims);
  return claims;
}

function createJWT(payload: unknown, key: unknown, seconds: unknown): string {
  const claims: Claims = { exp: Math.floor(Date.now() / 1000 + (Math.trunc(Number(seconds)) || 0)) };
  if (payload && typeof payload === 'object') Object.assign(claims, payload);
  const body = Buffer.from(goJson(claims)).toString('base64url');
  return `${JWT_HEADER}.${body}.${sign(`${JWT_HEADER}.${body}`, text(key))}`;
}

/** Go's aes.NewCipher: a key of 16, 24 or 32 bytes. */
function aesKey(key: unknown): Buffer {
  const bytes = Buffer.from(text(key), 'utf8');
  if (![16, 24, 32].includes(bytes.length)) throw new Error(`crypto/aes: invalid key size ${bytes.length}`);
  return bytes;
}

function decrypt(cipherText: unknown, key: unknown): string {
  const k = aesKey(key);
  try {
    return decryptSettings(text(cipherText), k, '');
  } catch {
    throw new Error('cipher: message authentication failed');
  }
}

export function securityNamespace(): object {
  return namespace('$security', {
    randomString: (n: unknown) => randomString(Number(n)),
    randomStringWithAlphabet: (n: unknown, alphabet: unknown) => randomString(Number(n), String(alphabet)),
    pseudorandomString: (n: unknown) => randomString(Number(n)),
    pseudorandomStringWithAlphabet: (n: unknown, alphabet: unknown) => randomString(Number(n), String(alphabet)),
    md5: digest('md5'),
    sha256: digest('sha256'),
    sha512: digest('sha512'),
    hs256: hmac('sha256'),
    hs512: hmac('sha512'),
    equal: (a: unknown, b: unknown) => {
      const x = Buffer.from(text(a));
      const y = Buffer.from(text(b));
      return x.length === y.length && crypto.timingSafeEqual(x, y);
    },
    parseUnverifiedJWT,
    parseJWT,
    createJWT,
    encrypt: (data: unknown, key: unknown) => encryptSettings(text(data), aesKey(key)),
    decrypt,
  });
}
