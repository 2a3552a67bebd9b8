// One backup or restore at a time per running app (0.22's StoreKeyActiveBackup); /api/health
// reports canBackup false while one runs.
import type { AppContext } from '../../context';

const active = new WeakMap<AppContext, string>();

/** Claims the app for a backup or restore named `key`; false when one is already running. */
export function beginOperation(ctx: AppContext, key: string): boolean {
  if (active.has(ctx)) return false;
  active.set(ctx, key);
  return true;
}

export function endOperation(ctx: AppContext): void {
  active.delete(ctx);
}

/** The key of the running backup or restore, if any. */
export const activeOperation = (ctx: AppContext): string | undefined => active.get(ctx);

/** Whether a backup or restore is running (health's canBackup is its negation). */
export const isBackupActive = (ctx: AppContext): boolean => active.has(ctx);
