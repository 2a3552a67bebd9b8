// Password hashing and the random strings PocketBase uses for ids and token keys.
import { randomInt } from 'node:crypto';
import bcrypt from 'bcryptjs';

/** PocketBase 0.22 hashes admin passwords with bcrypt cost 12 (the fixture's are 13; both verify). */
const BCRYPT_COST = 12;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

export async function hashPassword(plain: string): Promise<string> {
  const hash = await bcrypt.hash(plain, BCRYPT_COST);
  // bcryptjs writes $2b$, Go writes $2a$; for passwords under 255 bytes both name the same
  // algorithm, so keep PocketBase's prefix and stay byte-compatible with its data files.
  return hash.startsWith('$2b$') ? `$2a$${hash.slice(4)}` : hash;
}

/** Checks a plain password against a $2a$/$2b$/$2y$ hash; a malformed hash is simply a mismatch. */
export async function verifyPassword(plain: string, hash: unknown): Promise<boolean> {
  if (typeof hash !== 'string' || !hash.startsWith('$2')) return false;
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
}

/** Cryptographically random string from `alphabet` (PocketBase's security.RandomString). */
export function randomString(length: number, alphabet = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A new account tokenKey: 50 random [A-Za-z0-9]; replacing it invalidates every issued token. */
export const newTokenKey = (): string => randomString(50);

/** A new model id: 15 random [a-z0-9], like PocketBase's generated ids. */
export const newId = (): string => randomString(15, LOWER_ALPHANUMERIC);
