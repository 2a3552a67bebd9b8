// The application settings document as server code reads it. Its keys and defaults come from the
// settings schemas (./settings-defaults.ts), not from these types; they add no key. Stored by
// ./settings-store.ts.
import { loadProviders, type AuthProviderConfig } from './providers';

export type { AuthProviderConfig };

export interface EmailTemplate {
  body: string;
  subject: string;
  actionUrl: string;
  hidden: boolean;
}
interface MetaSettings {
  appName: string;
  appUrl: string;
  hideControls: boolean;
  senderName: string;
  senderAddress: string;
  verificationTemplate: EmailTemplate;
  resetPasswordTemplate: EmailTemplate;
  confirmEmailChangeTemplate: EmailTemplate;
}
interface LogsSettings {
  maxDays: number;
  minLevel: number;
  logIp: boolean;
}
interface SmtpSettings {
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
interface BackupsSettings {
  cron: string;
  cronMaxKeep: number;
  s3: S3Settings;
}
interface TokenConfig {
  secret: string;
  duration: number;
}
/** PocketBase 0.23's trusted proxy: which request headers carry the client's address (../http/client-address.ts). */
export interface TrustedProxySettings {
  headers: string[];
  useLeftmostIP: boolean;
}
/** Deprecated in 0.22 but still part of the stored JSON. */
interface EmailAuthSettings {
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
type TokenKind = (typeof TOKEN_KINDS)[number];

export type Settings = {
  meta: MetaSettings;
  logs: LogsSettings;
  smtp: SmtpSettings;
  s3: S3Settings;
  backups: BackupsSettings;
  emailAuth: EmailAuthSettings;
  trustedProxy: TrustedProxySettings;
  /** Outpost's audit trail (schemas/settings/audit.schema.json): entries are kept maxDays days, 0 = off. */
  audit: { maxDays: number };
} & Record<TokenKind, TokenConfig> & {
  /** One block per OAuth2 provider file (`<name>Auth`, see ./providers.ts); read them with providerConfig. */
  readonly [providerKey: string]: unknown;
};

/** The settings block of a provider key ("googleAuth"), or undefined when no provider file has it. */
export function providerConfig(settings: Settings, key: string): AuthProviderConfig | undefined {
  return loadProviders().some((p) => p.key === key) ? (settings[key] as AuthProviderConfig) : undefined;
}
