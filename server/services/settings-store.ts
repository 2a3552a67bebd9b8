// The settings store: the document in `_params` (key "settings"), as PocketBase 0.22 stores it
// (plain JSON, or encrypted with the --encryptionEnv key: settings-crypto.ts), read over the schema
// defaults on start and written back on save.
import { transaction, type DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { stringifyLikeGo } from '../core/json';
import { isObject } from '../../src/lib/json';
import { newId } from './passwords';
import { TOKEN_KINDS, type Settings } from './settings';
import { defaultSettings } from './settings-defaults';
import { mergeStored } from './settings-merge';
import { decryptSettings, encryptSettings, missingKeyError, SettingsKeyError } from './settings-crypto';

export interface SettingsStore {
  /** The current settings (treat as read-only; use save to change them). */
  get(): Settings;
  /**
   * Persists `next` to _params, with `alongside` (an audit entry) in the same transaction, and
   * notifies subscribers once that committed: a cluster member they tell reads the row then.
   */
  save(next: Settings, alongside?: () => void): void;
  /** The `_params` row the settings are kept in (its id and dates: a model hook's e.model); null before the first save. */
  param(): { id: string; created: string; updated: string } | null;
  subscribe(fn: (s: Settings) => void): () => void;
  /** Reads the row again and notifies subscribers (another member of a cluster saved it). */
  reload(): void;
}

const SETTINGS_KEY = 'settings';

/** The key the settings are stored encrypted with, and the variable it came from (for messages). */
export interface SettingsEncryption {
  key: Buffer;
  env: string;
}

export function createSettingsStore(db: DB, encryption: SettingsEncryption | null = null): SettingsStore {
  let current = load(db, encryption);
  const subscribers = new Set<(s: Settings) => void>();

  const notify = () => {
    for (const fn of subscribers) {
      try {
        fn(current);
      } catch (err) {
        console.error('[settings] subscriber failed:', err);
      }
    }
  };
  return {
    get: () => current,
    save(next, alongside) {
      transaction(db, () => {
        alongside?.();
        persist(db, next, encryption);
      });
      current = next;
      notify();
    },
    reload() {
      current = load(db, encryption);
      notify();
    },
    param: () => (db.prepare('SELECT id, created, updated FROM _params WHERE key = ?').get(SETTINGS_KEY) as { id: string; created: string; updated: string } | undefined) ?? null,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}

/**
 * The stored document as 0.22's FindSettings reads it: JSON first, else decrypted with the key.
 * Undefined when there is no row (or no table yet). Throws a SettingsKeyError, before anything is
 * written, when the row is encrypted and the key is missing or wrong.
 */
export function readStoredSettings(db: DB, encryption: SettingsEncryption | null): { stored: unknown; encrypted: boolean } | undefined {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_params'").get();
  if (!table) return undefined;
  const row = db.prepare('SELECT value FROM _params WHERE key = ?').get(SETTINGS_KEY) as { value: unknown } | undefined;
  if (!row) return undefined;
  const text = Buffer.isBuffer(row.value) ? row.value.toString('utf8') : typeof row.value === 'string' ? row.value : 'null';
  try {
    return { stored: JSON.parse(text), encrypted: false };
  } catch {
    // not JSON: encrypted by 0.22 (or by us) with --encryptionEnv
  }
  if (!encryption) throw missingKeyError();
  const plain = decryptSettings(text, encryption.key, encryption.env);
  try {
    return { stored: JSON.parse(plain), encrypted: true };
  } catch {
    throw new SettingsKeyError('The stored settings decrypt to something that is not JSON; they cannot be read. Nothing was changed.');
  }
}

function load(db: DB, encryption: SettingsEncryption | null): Settings {
  const defaults = defaultSettings();
  const read = readStoredSettings(db, encryption);
  if (!read) {
    // First run: persist the defaults so the generated token secrets survive restarts.
    persist(db, defaults, encryption);
    return defaults;
  }
  const { stored } = read;
  if (!isObject(stored)) {
    // JSON but not a document (null): 0.22 decodes that as its defaults
    console.warn('[settings] the stored settings are not a JSON object; using defaults in memory.');
    return defaults;
  }
  const merged = mergeStored(defaults, stored);
  // with a key, settings are kept encrypted: a plain row is encrypted now rather than at the next save
  if (encryption && !read.encrypted) {
    persist(db, merged, encryption);
    console.log(`[settings] the stored settings are now encrypted with the key in ${encryption.env}.`);
    return merged;
  }
  // A row without some token secret would get a new random one on every start (and so sign
  // tokens nobody can verify after a restart): write the generated ones back once.
  const missingSecret = TOKEN_KINDS.some((k) => {
    const cfg = stored[k];
    return !isObject(cfg) || typeof cfg.secret !== 'string' || cfg.secret === '';
  });
  if (missingSecret) persist(db, merged, encryption);
  return merged;
}

function persist(db: DB, settings: Settings, encryption: SettingsEncryption | null): void {
  const json = stringifyLikeGo(settings);
  const value = encryption ? encryptSettings(json, encryption.key) : json;
  const now = nowDateTime();
  const updated = db.prepare('UPDATE _params SET value = ?, updated = ? WHERE key = ?').run(value, now, SETTINGS_KEY);
  if (updated.changes === 0) {
    db.prepare('INSERT INTO _params (id, key, value, created, updated) VALUES (?, ?, ?, ?, ?)').run(
      newId(),
      SETTINGS_KEY,
      value,
      now,
      now,
    );
  }
}
