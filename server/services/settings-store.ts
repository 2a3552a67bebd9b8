// The settings store: the document in `_params` (key "settings"), as PocketBase 0.22 stores it
// (plain JSON), read over the schema defaults on start and written back on save.
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { stringifyLikeGo } from '../core/json';
import { isObject } from '../../src/lib/json';
import { newId } from './passwords';
import { TOKEN_KINDS, type Settings } from './settings';
import { defaultSettings } from './settings-defaults';
import { mergeStored } from './settings-merge';

export interface SettingsStore {
  /** The current settings (treat as read-only; use save to change them). */
  get(): Settings;
  /** Persists `next` to _params and notifies subscribers. */
  save(next: Settings): void;
  subscribe(fn: (s: Settings) => void): () => void;
}

const SETTINGS_KEY = 'settings';

export function createSettingsStore(db: DB): SettingsStore {
  let current = load(db);
  const subscribers = new Set<(s: Settings) => void>();

  return {
    get: () => current,
    save(next) {
      persist(db, next);
      current = next;
      for (const fn of subscribers) {
        try {
          fn(next);
        } catch (err) {
          console.error('[settings] subscriber failed:', err);
        }
      }
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}

function load(db: DB): Settings {
  const defaults = defaultSettings();
  const row = db.prepare('SELECT value FROM _params WHERE key = ?').get(SETTINGS_KEY) as { value: unknown } | undefined;
  if (!row) {
    // First run: persist the defaults so the generated token secrets survive restarts.
    persist(db, defaults);
    return defaults;
  }
  let stored: unknown;
  try {
    stored = typeof row.value === 'string' ? JSON.parse(row.value) : null;
  } catch {
    stored = null;
  }
  if (!isObject(stored)) {
    // PocketBase can encrypt this row (PB_ENCRYPTION); we cannot read that, and must not clobber it.
    console.warn('[settings] the stored settings are not plain JSON (encrypted?); using defaults in memory.');
    return defaults;
  }
  const merged = mergeStored(defaults, stored);
  // A row without some token secret would get a new random one on every start (and so sign
  // tokens nobody can verify after a restart): write the generated ones back once.
  const missingSecret = TOKEN_KINDS.some((k) => {
    const cfg = stored[k];
    return !isObject(cfg) || typeof cfg.secret !== 'string' || cfg.secret === '';
  });
  if (missingSecret) persist(db, merged);
  return merged;
}

function persist(db: DB, settings: Settings): void {
  const value = stringifyLikeGo(settings);
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
