// HS256 JWTs as PocketBase 0.22 issues them. The signing key is the account's tokenKey plus the
// secret of the token kind from the settings, so renewing either one revokes the tokens.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Claims = Record<string, unknown>;

/** The token kinds of the settings (each has {secret, duration}). */
export type TokenKind =
  | 'adminAuthToken'
  | 'adminPasswordResetToken'
  | 'adminFileToken'
  | 'recordAuthToken'
  | 'recordPasswordResetToken'
  | 'recordEmailChangeToken'
  | 'recordVerificationToken'
  | 'recordFileToken';

/** Anything with the eight token configs (the Settings object). */
export type TokenSettings = Record<TokenKind, { secret: string; duration: number }>;

export const TOKEN_TYPE_ADMIN = 'admin';
export const TOKEN_TYPE_AUTH_RECORD = 'authRecord';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function hmac(input: string, key: string): Buffer {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(input).digest();
}

/** Signs `claims` plus an `exp` `durationSeconds` from now. Keys are sorted like Go's map encoding. */
function signJwt(claims: Claims, key: string, durationSeconds: number): string {
  const all: Claims = { ...claims, exp: Math.floor(Date.now() / 1000) + Math.trunc(durationSeconds) };
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
  const body = `${HEADER}.${b64url(JSON.stringify(sorted))}`;
  return `${body}.${hmac(body, key).toString('base64url')}`;
}

/** The claims of a well-formed JWT without checking its signature (null when it is not one). */
export function decodeJwtUnverified(token: string): Claims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Claims) : null;
  } catch {
    return null;
  }
}

/**
 * Signatures already checked, by key then token: the token's claims. HMAC is deterministic, so a
 * token that verified under a key verifies again (a changed tokenKey or secret is another key);
 * only the time claims can change their answer, and they are checked on every call. Each request of
 * a signed-in client paid the HMAC (a key, a hash object, two buffers) for the same token again.
 * Bounded: past VERIFIED_KEPT tokens the memo starts over. Failures are not kept.
 */
const VERIFIED_KEPT = 1000;
const verified = new Map<string, Map<string, Claims>>();
let verifiedCount = 0;

/** Verifies an HS256 signature and the time claims (exp, nbf, iat); returns the claims or null. */
function verifyJwt(token: string, key: string): Claims | null {
  let claims = verified.get(key)?.get(token) ?? verifySignature(token, key);
  if (!claims) return null;
  const now = Date.now() / 1000;
  if (claims.exp !== undefined && !(typeof claims.exp === 'number' && now < claims.exp)) return null;
  if (claims.nbf !== undefined && !(typeof claims.nbf === 'number' && now >= claims.nbf)) return null;
  if (claims.iat !== undefined && !(typeof claims.iat === 'number' && now >= claims.iat)) return null;
  // the kept claims stay as verified, whatever a caller does with its copy
  claims = { ...claims };
  return claims;
}

/** The claims of `token` when its HS256 signature is right for `key` (kept in the memo), else null. */
function verifySignature(token: string, key: string): Claims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  // Only HS256, like PocketBase's parser (no "none", no algorithm confusion).
  if (!header || typeof header !== 'object' || (header as Claims).alg !== 'HS256') return null;
  const expected = hmac(`${parts[0]}.${parts[1]}`, key);
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = decodeJwtUnverified(token);
  if (!claims) return null;
  if (verifiedCount >= VERIFIED_KEPT) {
    verified.clear();
    verifiedCount = 0;
  }
  let byToken = verified.get(key);
  if (!byToken) verified.set(key, (byToken = new Map()));
  byToken.set(token, claims);
  verifiedCount++;
  return claims;
}

/** Signs a token of `kind` for an account (admin or auth record) with its tokenKey. */
function signAccountToken(settings: TokenSettings, kind: TokenKind, tokenKey: string, claims: Claims): string {
  const cfg = settings[kind];
  return signJwt(claims, tokenKey + cfg.secret, cfg.duration);
}

/** Verifies a token of `kind` against an account's tokenKey. */
export function verifyAccountToken(settings: TokenSettings, kind: TokenKind, tokenKey: string, token: string): Claims | null {
  return verifyJwt(token, tokenKey + settings[kind].secret);
}

interface AdminKeys {
  id: string;
  tokenKey: string;
  email?: string;
}
interface RecordKeys {
  id: string;
  tokenKey: string;
  collectionId: string;
  email?: string;
}

export const newAdminAuthToken = (s: TokenSettings, a: AdminKeys) =>
  signAccountToken(s, 'adminAuthToken', a.tokenKey, { id: a.id, type: TOKEN_TYPE_ADMIN });

export const newAdminPasswordResetToken = (s: TokenSettings, a: AdminKeys) =>
  signAccountToken(s, 'adminPasswordResetToken', a.tokenKey, { id: a.id, type: TOKEN_TYPE_ADMIN, email: a.email ?? '' });

export const newAdminFileToken = (s: TokenSettings, a: AdminKeys) =>
  signAccountToken(s, 'adminFileToken', a.tokenKey, { id: a.id, type: TOKEN_TYPE_ADMIN });

const recordClaims = (r: RecordKeys) => ({ id: r.id, type: TOKEN_TYPE_AUTH_RECORD, collectionId: r.collectionId });

export const newRecordAuthToken = (s: TokenSettings, r: RecordKeys) =>
  signAccountToken(s, 'recordAuthToken', r.tokenKey, recordClaims(r));

export const newRecordVerificationToken = (s: TokenSettings, r: RecordKeys) =>
  signAccountToken(s, 'recordVerificationToken', r.tokenKey, { ...recordClaims(r), email: r.email ?? '' });

export const newRecordPasswordResetToken = (s: TokenSettings, r: RecordKeys) =>
  signAccountToken(s, 'recordPasswordResetToken', r.tokenKey, { ...recordClaims(r), email: r.email ?? '' });

export const newRecordEmailChangeToken = (s: TokenSettings, r: RecordKeys, newEmail: string) =>
  signAccountToken(s, 'recordEmailChangeToken', r.tokenKey, { ...recordClaims(r), email: r.email ?? '', newEmail });

export const newRecordFileToken = (s: TokenSettings, r: RecordKeys) =>
  signAccountToken(s, 'recordFileToken', r.tokenKey, recordClaims(r));
