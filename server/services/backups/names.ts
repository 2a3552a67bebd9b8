// Backup keys and names. A key is one plain file name inside the backups folder (or bucket
// prefix); anything that could address another place (separators, '..', control characters) is
// not a key, so '../' in a URL can never reach outside the backups storage.
import { isSafeSegment } from '../storage';

// The names an admin may give a new backup (0.22's forms.BackupCreate) are the rules of
// schemas/backups/create.schema.json, the dashboard's form and the server's check alike.

/** The prefix of automatic backups; cronMaxKeep only ever deletes keys starting with it. */
export const AUTO_BACKUP_PREFIX = '@auto_pb_backup_';
export const MANUAL_BACKUP_PREFIX = 'pb_backup_';

/** How much of the snake-cased app name a generated name keeps (0.22's generateBackupName). */
const APP_NAME_MAX_LENGTH = 50;

/** A key that names one file of the backups storage (uploads and 0.22's '@auto_' keys included). */
export function isBackupKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= 255 && isSafeSegment(key) && !key.startsWith('.') && !/[\\/]/.test(key);
}

/**
 * `{prefix}{snakecase(appName), at most 50 chars}_{yyyyMMddHHmmss}.zip` in UTC, e.g.
 * pb_backup_acme_20261123141516.zip; an app name with no letters or digits leaves the middle
 * empty (pb_backup__20261123141516.zip), as 0.22 does.
 */
export function generateBackupName(prefix: string, appName: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${prefix}${snakecase(appName).slice(0, APP_NAME_MAX_LENGTH)}_${stamp}.zip`;
}

/**
 * 0.22's inflector.Snakecase: split at anything but ASCII letters and digits (Go's `[\W_]+`, whose
 * \W is ASCII-only, so other letters split too), join the words with '_', put '_' before an
 * upper-case letter that follows a non-upper-case one ("myTestDB" → "my_test_db"), lower-case.
 * The result is ASCII, so slicing it by characters is slicing by bytes as Go does.
 */
export function snakecase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const isUpper = (c: string) => c >= 'A' && c <= 'Z';
  return words
    .map((word) => [...word].map((c, i) => (i > 0 && isUpper(c) && !isUpper(word[i - 1]) ? `_${c}` : c)).join(''))
    .join('_')
    .toLowerCase();
}
