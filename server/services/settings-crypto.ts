// Settings encrypted at rest, as PocketBase 0.22 does it with `--encryptionEnv=VAR`: the `_params`
// row `settings` holds base64 (standard alphabet, padded) of nonce ‖ ciphertext ‖ tag, AES-GCM with
// a 12-byte random nonce and the key's bytes as the AES key (tools/security/encrypt.go; 32
// characters → AES-256; Go's AES also takes 16 or 24 bytes, so such keys work here too). A row
// that is plain JSON is read as is (0.22 tries JSON first).
import crypto from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = new Set([16, 24, 32]);
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The stored settings cannot be read with the key given (or without one): the app must not start. */
export class SettingsKeyError extends Error {}

/** The key in the environment variable `encryptionEnv` names; null when no variable is named. */
export function settingsEncryption(encryptionEnv: string | undefined): { key: Buffer; env: string } | null {
  if (!encryptionEnv) return null;
  const value = process.env[encryptionEnv];
  if (!value) {
    throw new SettingsKeyError(
      `--encryptionEnv=${encryptionEnv}: the environment variable ${encryptionEnv} is not set (or empty); ` +
        'it must hold the 32-character key of the settings. Nothing was changed.',
    );
  }
  const key = Buffer.from(value, 'utf8');
  if (!KEY_BYTES.has(key.length)) {
    throw new SettingsKeyError(
      `--encryptionEnv=${encryptionEnv}: the key in ${encryptionEnv} is ${key.length} bytes long; it must be 32 characters. Nothing was changed.`,
    );
  }
  return { key, env: encryptionEnv };
}

const algorithm = (key: Buffer) => `aes-${key.length * 8}-gcm` as crypto.CipherGCMTypes;

/** `plain` encrypted as 0.22's security.Encrypt does. */
export function encryptSettings(plain: string, key: Buffer): string {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv(algorithm(key), key, nonce);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/** The text 0.22's security.Encrypt sealed in `stored`, or a SettingsKeyError naming `encryptionEnv`. */
export function decryptSettings(stored: string, key: Buffer, encryptionEnv: string): string {
  const wrong = new SettingsKeyError(
    `The stored settings cannot be decrypted with the key in ${encryptionEnv} (a wrong key, or a value that is not ` +
      'encrypted settings). Start with the key they were encrypted with. Nothing was changed.',
  );
  if (!STD_BASE64.test(stored)) throw wrong;
  const bytes = Buffer.from(stored, 'base64');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw wrong;
  try {
    const decipher = crypto.createDecipheriv(algorithm(key), key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw wrong;
  }
}

/** The error for an encrypted row met without a key (0.22: "missing or invalid encryption key"). */
export function missingKeyError(): SettingsKeyError {
  return new SettingsKeyError(
    'The stored settings are encrypted (PocketBase --encryptionEnv): start with --encryptionEnv=VAR, the ' +
      'environment variable VAR holding their 32-character key. Nothing was changed.',
  );
}
