// The application settings, stored as plain JSON in `_params` (key "settings") as PocketBase 0.22
// stores them. Their keys and defaults come from the settings schemas (./settings-defaults.ts); a
// stored row missing keys is read over the defaults (./settings-merge.ts). The types below are what
// server code reads; they add no key.
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { stringifyLikeGo } from '../core/json';
import { newId } from './passwords';
import { loadProviders, type AuthProviderConfig } from './providers';
import { defaultSettings } from './settings-defaults';
import { mergeStored } from './settings-merge';
import { isObject } from '../../src/lib/json';

export type { AuthProviderConfig };

export interface EmailTemplate {
  body: string;
  subject: string;
  actionUrl: string;
  hidden: boolean;
}
export interface MetaSettings {
  appName: string;
  appUrl: string;
  hideControls: boolean;
  senderName: string;
  senderAddress: string;
  verificationTemplate: EmailTemplate;
  resetPasswordTemplate: EmailTemplate;
  confirmEmailChangeTemplate: EmailTemplate;
}
export interface LogsSettings {
  maxDays: number;
  minLevel: number;
  logIp: boolean;
}
export interface SmtpSettings {
  enabled: boolean;
  host: string;
  port: number;
  username: string;
  password: string;
  /** "PLAIN" (also when empty) or "LOGIN". */
  authMethod: string;
  /** true: implicit TLS; false: StartTLS when the server offers it. */
  tls: boolean;
  /** EHLO/HELO name; empty means "localhost". */
  localName: string;
}
export interface S3Settings {
  enabled: boolean;
  bucket: string;
  region: string;
  endpoint: string;
  accessKey: string;
  secret: string;
  forcePathStyle: boolean;
}
export interface BackupsSettings {
  cron: string;
  cronMaxKeep: number;
  s3: S3Settings;
}
export interface TokenConfig {
  secret: string;
  duration: number;
}
/** Deprecated in 0.22 but still part of the stored JSON. */
export interface EmailAuthSettings {
  enabled: boolean;
  exceptDomains: string[] | null;
  onlyDomains: string[] | null;
  minPasswordLength: number;
}
export const TOKEN_KINDS = [
  'adminAuthToken',
  'adminPasswordResetToken',
  'adminFileToken',
  'recordAuthToken',
  'recordPasswordResetToken',
  'recordEmailChangeToken',
  'recordVerificationToken',
  'recordFileToken',
] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export type Settings = {
  meta: MetaSettings;
  logs: LogsSettings;
  smtp: SmtpSettings;
  s3: S3Settings;
  backups: BackupsSettings;
  emailAuth: EmailAuthSettings;
} & Record<TokenKind, TokenConfig> & {
  /** One block per OAuth2 provider file (`<name>Auth`, see ./providers.ts); read them with providerConfig. */
  readonly [providerKey: string]: unknown;
};

/** The settings block of a provider key ("googleAuth"), or undefined when no provider file has it. */
export function providerConfig(settings: Settings, key: string): AuthProviderConfig | undefined {
  return loadProviders().some((p) => p.key === key) ? (settings[key] as AuthProviderConfig) : undefined;
}

export interface SettingsStore {
  /** The current settings (treat as read-only; use save to change them). */
  get(): Settings;
  /** Persists `next` to _params and notifies subscribers. */
  save(next: Settings): void;
  subscribe(fn: (s: Settings) => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// The store

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
