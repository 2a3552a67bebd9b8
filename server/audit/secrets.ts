// What the trail never stores in clear. The settings' secrets are what their schema files mark
// (drawn with a secret widget: SMTP and S3 passwords, token secrets, OAuth2 client secrets; see
// server/services/settings-index.ts); the columns below are declared by no schema file (they are
// 0.22's system columns of `_admins` and of every auth collection), so they are listed here, once.
import { SECRET_MASK, isSecretPath } from '../services/settings-redact';

/** Secret columns of `_admins` and of auth records, and the passwords a request may carry. */
const SECRET_COLUMNS = new Set(['passwordHash', 'tokenKey', 'password', 'passwordConfirm', 'oldPassword']);

export const isSecretColumn = (name: string): boolean => SECRET_COLUMNS.has(name);

/** Whether a settings dot path holds a secret. */
export const isSecretSetting = (path: readonly string[]): boolean => isSecretPath(path);

/** A changed secret shows that it changed, never what it was or became ('' stays '': unset). */
export const maskSecret = (value: unknown): unknown => (value === '' || value === null || value === undefined ? value : SECRET_MASK);
