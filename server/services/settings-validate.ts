// The checks 0.22's Settings.Validate makes, as nested field errors ({meta: {appName: {...}}}).
// The dashboard's JSON Schemas say more; these are the ones the server must never skip.
import { isIP } from 'node:net';
import { email, fieldFailure, length, max, min, oneOf, required, validateFields, type Rule } from '../http/field-rules';
import { OAUTH2_PROVIDER_KEYS, TOKEN_KINDS, type NestedErrors, type S3Settings, type Settings } from './settings';

const when = (condition: boolean, rule: Rule): Rule => (condition ? rule : () => null);

const skipEmpty = (check: (v: string) => boolean, code: string, message: string): Rule => (value) =>
  typeof value !== 'string' || value === '' || check(value) ? null : fieldFailure(code, message);

const HOSTNAME = /^[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?)*\.?$/;

export const url = skipEmpty(
  (v) => {
    try {
      const parsed = new URL(v.includes('://') ? v : `http://${v}`);
      return parsed.hostname !== '' && !/\s/.test(v);
    } catch {
      return false;
    }
  },
  'validation_is_url',
  'Must be a valid URL.',
);

export const host = skipEmpty(
  (v) => isIP(v) !== 0 || (v.length <= 253 && HOSTNAME.test(v)),
  'validation_is_host',
  'Must be a valid IP address or DNS name.',
);

const contains = (param: string): Rule =>
  skipEmpty((v) => v.includes(param), 'validation_missing_required_param', `Missing required parameter "${param}".`);

const CRON_MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
const CRON_FIELD = /^(\*|\d+(-\d+)?)(\/\d+)?(,(\*|\d+(-\d+)?)(\/\d+)?)*$/;
const cron = skipEmpty(
  (v) => CRON_MACROS.includes(v.trim()) || (v.trim().split(/\s+/).length === 5 && v.trim().split(/\s+/).every((f) => CRON_FIELD.test(f))),
  'validation_invalid_cron',
  'Invalid cron expression.',
);

function section(out: NestedErrors, key: string, errors: NestedErrors): void {
  if (Object.keys(errors).length) out[key] = errors;
}

function s3Errors(s3: S3Settings): NestedErrors {
  const on = s3.enabled;
  return validateFields(s3 as unknown as Record<string, unknown>, {
    endpoint: [url, when(on, required)],
    bucket: [when(on, required)],
    region: [when(on, required)],
    accessKey: [when(on, required)],
    secret: [when(on, required)],
  });
}

/** Nested field errors for settings that 0.22 would refuse to save (empty object when valid). */
export function validateSettings(s: Settings): NestedErrors {
  const out: NestedErrors = {};

  const meta = validateFields(s.meta as unknown as Record<string, unknown>, {
    appName: [required, length(1, 255)],
    appUrl: [required, url],
    senderName: [required, length(1, 255)],
    senderAddress: [email, required],
  });
  for (const key of ['verificationTemplate', 'resetPasswordTemplate', 'confirmEmailChangeTemplate'] as const) {
    section(
      meta,
      key,
      validateFields(s.meta[key] as unknown as Record<string, unknown>, {
        subject: [required],
        body: [required, contains('{ACTION_URL}')],
        actionUrl: [required, contains('{TOKEN}')],
      }),
    );
  }
  section(out, 'meta', meta);
  section(out, 'logs', validateFields(s.logs as unknown as Record<string, unknown>, { maxDays: [min(0)] }));

  for (const kind of TOKEN_KINDS) {
    section(
      out,
      kind,
      validateFields(s[kind] as unknown as Record<string, unknown>, {
        secret: [required, length(30, 300)],
        duration: [required, min(5), max(63072000)],
      }),
    );
  }

  const smtpOn = s.smtp.enabled;
  section(
    out,
    'smtp',
    validateFields(s.smtp as unknown as Record<string, unknown>, {
      host: [when(smtpOn, required), host],
      port: [when(smtpOn, required), min(0)],
      authMethod: [oneOf(['LOGIN', 'PLAIN'])],
      localName: [host],
    }),
  );
  section(out, 's3', s3Errors(s.s3));

  const backups = validateFields(s.backups as unknown as Record<string, unknown>, {
    cron: [cron],
    cronMaxKeep: [when(s.backups.cron !== '', required), min(1)],
  });
  section(backups, 's3', s3Errors(s.backups.s3));
  section(out, 'backups', backups);

  for (const key of OAUTH2_PROVIDER_KEYS) {
    const p = s[key];
    section(
      out,
      key,
      validateFields(p as unknown as Record<string, unknown>, {
        clientId: [when(p.enabled, required)],
        clientSecret: [when(p.enabled, required)],
        authUrl: [url],
        tokenUrl: [url],
        userApiUrl: [url],
      }),
    );
  }
  return sortKeys(out);
}

/** Go encodes error maps with sorted keys. */
function sortKeys(errors: NestedErrors): NestedErrors {
  const out: NestedErrors = {};
  for (const key of Object.keys(errors).sort()) {
    const v = errors[key];
    out[key] = 'code' in v && typeof v.code === 'string' ? v : sortKeys(v as NestedErrors);
  }
  return out;
}
