// The application settings: PocketBase 0.22's Settings struct, stored as plain JSON in `_params`
// (key "settings"). A stored row missing keys is read over the defaults, the way Go unmarshals
// into a default struct; secrets are masked on the way out and masked values ignored on the way in.
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { stringifyLikeGo } from '../core/json';
import { newId, randomString } from './passwords';
import { loadProviders, providerDefaults, type AuthProviderConfig } from './providers';
import { settingsSchemaDefaults } from './settings-validate';

export type { AuthProviderConfig };

export const SECRET_MASK = '******';

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
// Defaults (0.22's settings.New and its three templates)

const templateBody = (lines: string[]) => lines.join('\n');

const DEFAULT_VERIFICATION_TEMPLATE: EmailTemplate = {
  body: templateBody([
    '<p>Hello,</p>',
    '<p>Thank you for joining us at {APP_NAME}.</p>',
    '<p>Click on the button below to verify your email address.</p>',
    '<p>',
    '  <a class="btn" href="{ACTION_URL}" target="_blank" rel="noopener">Verify</a>',
    '</p>',
    '<p>',
    '  Thanks,<br/>',
    '  {APP_NAME} team',
    '</p>',
  ]),
  subject: 'Verify your {APP_NAME} email',
  actionUrl: '{APP_URL}/_/#/auth/confirm-verification/{TOKEN}',
  hidden: false,
};

const DEFAULT_RESET_PASSWORD_TEMPLATE: EmailTemplate = {
  body: templateBody([
    '<p>Hello,</p>',
    '<p>Click on the button below to reset your password.</p>',
    '<p>',
    '  <a class="btn" href="{ACTION_URL}" target="_blank" rel="noopener">Reset password</a>',
    '</p>',
    "<p><i>If you didn't ask to reset your password, you can ignore this email.</i></p>",
    '<p>',
    '  Thanks,<br/>',
    '  {APP_NAME} team',
    '</p>',
  ]),
  subject: 'Reset your {APP_NAME} password',
  actionUrl: '{APP_URL}/_/#/auth/confirm-password-reset/{TOKEN}',
  hidden: false,
};

const DEFAULT_CONFIRM_EMAIL_CHANGE_TEMPLATE: EmailTemplate = {
  body: templateBody([
    '<p>Hello,</p>',
    '<p>Click on the button below to confirm your new email address.</p>',
    '<p>',
    '  <a class="btn" href="{ACTION_URL}" target="_blank" rel="noopener">Confirm new email</a>',
    '</p>',
    "<p><i>If you didn't ask to change your email address, you can ignore this email.</i></p>",
    '<p>',
    '  Thanks,<br/>',
    '  {APP_NAME} team',
    '</p>',
  ]),
  subject: 'Confirm your {APP_NAME} new email address',
  actionUrl: '{APP_URL}/_/#/auth/confirm-email-change/{TOKEN}',
  hidden: false,
};

const TOKEN_DURATIONS: Record<TokenKind, number> = {
  adminAuthToken: 1209600, // 14 days
  adminPasswordResetToken: 1800,
  adminFileToken: 120,
  recordAuthToken: 1209600,
  recordPasswordResetToken: 1800,
  recordEmailChangeToken: 1800,
  recordVerificationToken: 604800, // 7 days
  recordFileToken: 120,
};

const emptyS3 = (): S3Settings => ({
  enabled: false,
  bucket: '',
  region: '',
  endpoint: '',
  accessKey: '',
  secret: '',
  forcePathStyle: false,
});

/**
 * Fresh defaults; every token kind gets a new random 50-character secret. PocketBase 0.22's struct
 * below gives the values of its own keys (its wire defaults); every other key a settings schema
 * declares with a `default` (schemas/settings, placed by the screens' `bind`) and every provider
 * file's block are added from the files, so a new setting is stored without a server edit.
 */
export function defaultSettings(root?: string): Settings {
  const head = {
    meta: {
      appName: 'Acme',
      appUrl: 'http://localhost:8090',
      hideControls: false,
      senderName: 'Support',
      senderAddress: 'support@example.com',
      verificationTemplate: { ...DEFAULT_VERIFICATION_TEMPLATE },
      resetPasswordTemplate: { ...DEFAULT_RESET_PASSWORD_TEMPLATE },
      confirmEmailChangeTemplate: { ...DEFAULT_CONFIRM_EMAIL_CHANGE_TEMPLATE },
    },
    logs: { maxDays: 5, minLevel: 0, logIp: true },
    smtp: {
      enabled: false,
      host: 'smtp.example.com',
      port: 587,
      username: '',
      password: '',
      authMethod: '',
      tls: false,
      localName: '',
    },
    s3: emptyS3(),
    backups: { cron: '', cronMaxKeep: 3, s3: emptyS3() },
  };
  const tokens = Object.fromEntries(
    TOKEN_KINDS.map((k) => [k, { secret: randomString(50), duration: TOKEN_DURATIONS[k] }]),
  ) as Record<TokenKind, TokenConfig>;
  const emailAuth: EmailAuthSettings = { enabled: false, exceptDomains: null, onlyDomains: null, minPasswordLength: 0 };
  // one block per provider file, its defaults from the file (0.22's block shape under them)
  const providers = Object.fromEntries(loadProviders(root).map((p) => [p.key, providerDefaults(p)]));
  return addMissing({ ...head, ...tokens, emailAuth, ...providers }, settingsSchemaDefaults(root)) as Settings;
}

/** `base` with the keys only `extra` has added (recursively into objects both have). */
function addMissing(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (!(key in out)) out[key] = structuredClone(value);
    else if (isPlainObject(out[key]) && isPlainObject(value)) out[key] = addMissing(out[key], value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Merging (stored rows and PATCH bodies) with type checks driven by the defaults' shape

/** Every secret path, as in 0.22's RedactClone. */
export const SECRET_PATHS: ReadonlyArray<readonly string[]> = [
  ['smtp', 'password'],
  ['s3', 'secret'],
  ['backups', 's3', 'secret'],
  ...TOKEN_KINDS.map((k) => [k, 'secret'] as const),
  ...loadProviders().map((p) => [p.key, 'clientSecret'] as const),
];
const SECRET_KEYS = new Set(SECRET_PATHS.map((p) => p.join('.')));

/** Fields whose default is null but which take a value of another type. */
const NULLABLE: Record<string, (v: unknown) => boolean> = {
  pkce: (v) => typeof v === 'boolean',
  exceptDomains: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  onlyDomains: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
};

export type NestedErrors = { [key: string]: NestedErrors | { code: string; message: string } };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const typeError = (expected: string) => ({ code: 'validation_invalid_type', message: `Must be ${expected}.` });

/**
 * Overlays `input` on `base` following base's shape: unknown keys are dropped, null leaves a
 * non-nullable value unchanged (Go's json.Unmarshal), and a value of the wrong type is reported
 * in `errors` (or silently skipped when `errors` is omitted, as for stored rows).
 */
function overlay(
  base: Record<string, unknown>,
  input: Record<string, unknown>,
  path: string[],
  errors: NestedErrors | undefined,
  skipMasked: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, current] of Object.entries(base)) {
    out[key] = current;
    if (!(key in input)) continue;
    const value = input[key];
    const fieldPath = [...path, key];
    const report = (expected: string) => {
      if (errors) errors[key] = typeError(expected);
    };
    if (isPlainObject(current)) {
      if (value === null) continue;
      if (!isPlainObject(value)) {
        report('an object');
        continue;
      }
      const nested: NestedErrors = {};
      out[key] = overlay(current, value, fieldPath, errors ? nested : undefined, skipMasked);
      if (errors && Object.keys(nested).length) errors[key] = nested;
      continue;
    }
    if (skipMasked && value === SECRET_MASK && SECRET_KEYS.has(fieldPath.join('.'))) continue;
    if (Object.hasOwn(NULLABLE, key) && (current === null || NULLABLE[key](current))) {
      if (value === null || NULLABLE[key](value)) out[key] = Array.isArray(value) ? [...value] : value;
      else report(key === 'pkce' ? 'a boolean or null' : 'a list of strings or null');
      continue;
    }
    if (value === null) continue;
    if (typeof current === 'string') {
      if (typeof value === 'string') out[key] = value;
      else report('a string');
    } else if (typeof current === 'number') {
      if (typeof value === 'number' && Number.isSafeInteger(value)) out[key] = value;
      else report('an integer');
    } else if (typeof current === 'boolean') {
      if (typeof value === 'boolean') out[key] = value;
      else report('a boolean');
    }
  }
  return out;
}

/** A stored settings row read over the defaults (wrong types fall back to the default). */
export function mergeStored(defaults: Settings, stored: unknown): Settings {
  if (!isPlainObject(stored)) return defaults;
  return overlay(defaults as unknown as Record<string, unknown>, stored, [], undefined, false) as unknown as Settings;
}

export class SettingsPatchError extends Error {
  constructor(readonly errors: NestedErrors) {
    super('Invalid settings patch.');
  }
}

/**
 * Merges a PATCH body into the current settings. Masked secrets ("******") are ignored so a
 * client that echoes a redacted read back never overwrites a secret. Throws SettingsPatchError
 * with nested field errors when a value has the wrong type.
 */
export function mergePatch(current: Settings, patch: unknown): Settings {
  if (!isPlainObject(patch)) throw new SettingsPatchError({});
  const errors: NestedErrors = {};
  const merged = overlay(current as unknown as Record<string, unknown>, patch, [], errors, true);
  if (Object.keys(errors).length) throw new SettingsPatchError(errors);
  return merged as unknown as Settings;
}

/** A deep copy with every set secret replaced by "******" (empty ones stay ""). */
export function redact(settings: Settings): Settings {
  const copy = structuredClone(settings) as unknown as Record<string, Record<string, unknown>>;
  for (const path of SECRET_PATHS) {
    let node: Record<string, unknown> | undefined = copy;
    for (const key of path.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
    const last = path[path.length - 1];
    if (node && typeof node[last] === 'string') node[last] = node[last] === '' ? '' : SECRET_MASK;
  }
  return copy as unknown as Settings;
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
  if (!isPlainObject(stored)) {
    // PocketBase can encrypt this row (PB_ENCRYPTION); we cannot read that, and must not clobber it.
    console.warn('[settings] the stored settings are not plain JSON (encrypted?); using defaults in memory.');
    return defaults;
  }
  const merged = mergeStored(defaults, stored);
  // A row without some token secret would get a new random one on every start (and so sign
  // tokens nobody can verify after a restart): write the generated ones back once.
  const missingSecret = TOKEN_KINDS.some((k) => {
    const cfg = stored[k];
    return !isPlainObject(cfg) || typeof cfg.secret !== 'string' || cfg.secret === '';
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
