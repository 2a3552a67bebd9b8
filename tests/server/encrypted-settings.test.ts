// Settings encrypted at rest with `--encryptionEnv` (the real CLI in a child process): a settings row
// encrypted in this test with PocketBase 0.22's algorithm (tools/security/encrypt.go: AES-256-GCM,
// random 12-byte nonce prefixed, standard base64) opens, saves stay encrypted, a plain row gets
// encrypted, and a wrong, missing, unset or mis-sized key stops the start with a clear message and
// leaves pb_data byte for byte as it was.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';

const KEY = 'an-example-key-of-32-characters!';
const OTHER_KEY = 'another-key-of-32-characters-ok!';
const VAR = 'OUTPOST_TEST_SETTINGS_KEY';

/** 0.22's security.Encrypt, written from its description. */
function encryptLike022(plain: string, key: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(key), nonce);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([nonce, sealed]).toString('base64');
}

/** 0.22's security.Decrypt. */
function decryptLike022(stored: string, key: string): string {
  const bytes = Buffer.from(stored, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(key), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
}

function settingsRow(dataDir: string): string {
  const db = new Database(path.join(dataDir, 'data.db'), { readonly: true });
  try {
    return (db.prepare("SELECT value FROM _params WHERE key = 'settings'").get() as { value: string }).value;
  } finally {
    db.close();
  }
}

function setSettingsRow(dataDir: string, value: string): void {
  const db = new Database(path.join(dataDir, 'data.db'));
  try {
    db.prepare("UPDATE _params SET value = ? WHERE key = 'settings'").run(value);
  } finally {
    db.close();
  }
}

/** Every file under `dir` with a digest of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = path.join(dir, f);
    out[f] = fs.statSync(p).isFile() ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'dir';
  }
  return out;
}

let root = '';
/** A copy of the fixture whose settings row 0.22 would have written with KEY. */
function encryptedFixture(name: string, appName = 'Encrypted by 0.22'): string {
  const dataDir = path.join(root, name, 'pb_data');
  fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  const settings = JSON.parse(settingsRow(dataDir)) as { meta: { appName: string } };
  settings.meta.appName = appName;
  setSettingsRow(dataDir, encryptLike022(JSON.stringify(settings), KEY));
  return dataDir;
}

beforeAll(() => {
  root = tempDir('outpost-encrypted-');
});

afterAll(() => {
  delete process.env[VAR];
  fs.rmSync(root, { recursive: true, force: true });
});

describe('with the right key', () => {
  it('opens settings 0.22 encrypted, and keeps them encrypted when saved', async () => {
    const dataDir = encryptedFixture('open');
    process.env[VAR] = KEY;
    const server = await startCliServer([`--dir=${dataDir}`, `--encryptionEnv=${VAR}`, '--publicDir=none'], path.dirname(dataDir));
    try {
      const read = await http(server.url, 'GET', '/api/settings', { token: FIXTURE_ADMIN_TOKEN });
      expect(read.status).toBe(200);
      expect(read.body.meta.appName).toBe('Encrypted by 0.22');
      const saved = await http(server.url, 'PATCH', '/api/settings', { token: FIXTURE_ADMIN_TOKEN, body: { meta: { appName: 'Saved encrypted' } } });
      expect(saved.status).toBe(200);
    } finally {
      await server.stop();
    }
    const stored = settingsRow(dataDir);
    expect(() => JSON.parse(stored)).toThrow();
    expect(stored).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const settings = JSON.parse(decryptLike022(stored, KEY)) as { meta: { appName: string }; smtp: unknown };
    expect(settings.meta.appName).toBe('Saved encrypted');
    expect(settings.smtp).toEqual(expect.objectContaining({ enabled: expect.any(Boolean), host: expect.any(String), port: expect.any(Number) }));
  });

  it('encrypts a plain settings row at start, values kept; a new pb_data is encrypted from the first start', async () => {
    const dataDir = path.join(root, 'plain', 'pb_data');
    fs.cpSync(FIXTURE_DIR, dataDir, { recursive: true });
    const before = JSON.parse(settingsRow(dataDir)) as { meta: { appName: string } };
    const fresh = path.join(root, 'fresh', 'pb_data');
    process.env[VAR] = KEY;
    const created = await runCli(['admin', 'create', 'first@example.com', '1234567890', `--dir=${fresh}`, `--encryptionEnv=${VAR}`], root);
    expect(created.stdout).toContain('Successfully created new admin first@example.com!');
    const server = await startCliServer([`--dir=${dataDir}`, `--encryptionEnv=${VAR}`, '--publicDir=none'], root);
    try {
      expect(server.output()).toContain(`the stored settings are now encrypted with the key in ${VAR}`);
      expect((await http(server.url, 'GET', '/api/settings', { token: FIXTURE_ADMIN_TOKEN })).body.meta.appName).toBe(before.meta.appName);
    } finally {
      await server.stop();
    }
    expect((JSON.parse(decryptLike022(settingsRow(dataDir), KEY)) as typeof before).meta.appName).toBe(before.meta.appName);
    expect(JSON.parse(decryptLike022(settingsRow(fresh), KEY))).toHaveProperty('meta');
  });
});

describe('a start that cannot read the settings changes nothing', () => {
  const cases: Array<{ name: string; args: (dir: string) => string[]; env: string | undefined; message: RegExp }> = [
    { name: 'a wrong key', args: (d) => ['serve', '--http=127.0.0.1:0', `--dir=${d}`, `--encryptionEnv=${VAR}`], env: OTHER_KEY, message: new RegExp(`cannot be decrypted with the key in ${VAR}`) },
    { name: 'no key', args: (d) => ['serve', '--http=127.0.0.1:0', `--dir=${d}`], env: undefined, message: /The stored settings are encrypted .*--encryptionEnv=VAR/ },
    { name: 'an unset variable', args: (d) => ['serve', '--http=127.0.0.1:0', `--dir=${d}`, `--encryptionEnv=${VAR}`], env: undefined, message: new RegExp(`environment variable ${VAR} is not set`) },
    { name: 'a key of the wrong size', args: (d) => ['serve', '--http=127.0.0.1:0', `--dir=${d}`, `--encryptionEnv=${VAR}`], env: 'short', message: /is 5 bytes long; it must be 32 characters/ },
    { name: 'a wrong key, for admin create', args: (d) => ['admin', 'create', 'x@example.com', '1234567890', `--dir=${d}`, `--encryptionEnv=${VAR}`], env: OTHER_KEY, message: /cannot be decrypted/ },
  ];
  for (const c of cases) {
    it(`${c.name}: a clear error, exit 1, pb_data unchanged byte for byte`, async () => {
      const dataDir = encryptedFixture(c.name.replace(/\W+/g, '-'));
      const before = snapshot(dataDir);
      const result = await runCli(c.args(dataDir), root, { [VAR]: c.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(c.message);
      expect(result.stderr).toContain('Nothing was changed.');
      expect(result.stdout).not.toContain('REST API');
      expect(snapshot(dataDir)).toEqual(before);
    });
  }
});
