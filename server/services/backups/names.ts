// Backup keys and names. A key is one plain file name inside the backups folder (or bucket
// prefix); anything that could address another place (separators, '..', control characters) is
// not a key, so '../' in a URL can never reach outside the backups storage.
import { isSafeSegment } from '../storage';

/** Names an admin may give a new backup (0.22's forms.BackupCreate). */
export const BACKUP_NAME_PATTERN = /^[a-z0-9_-]+\.zip$/;
export const BACKUP_NAME_MAX_LENGTH = 100;

/** The prefix of automatic backups; cronMaxKeep only ever deletes keys starting with it. */
export const AUTO_BACKUP_PREFIX = '@auto_pb_backup_';
export const MANUAL_BACKUP_PREFIX = 'pb_backup_';

/** A key that names one file of the backups storage (uploads and 0.22's '@auto_' keys included). */
export function isBackupKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= 255 && isSafeSegment(key) && !key.startsWith('.') && !/[\\/]/.test(key);
}

/** `{prefix}{yyyyMMddHHmmss}.zip` in UTC, e.g. pb_backup_20261123141516.zip. */
export function generateBackupName(prefix: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${prefix}${stamp}.zip`;
}
