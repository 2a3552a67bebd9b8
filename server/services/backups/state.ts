// One backup or restore at a time per running app (0.22's StoreKeyActiveBackup), mirrored into
// /api/health's canBackup.
import type { AppContext } from '../../context';
import { markBackupActive } from '../../http/health';

const active = new WeakMap<AppContext, string>();

/** Claims the app for a backup or restore named `key`; false when one is already running. */
export function beginOperation(ctx: AppContext, key: string): boolean {
  if (active.has(ctx)) return false;
  active.set(ctx, key);
  markBackupActive(ctx, true);
  return true;
}

export function endOperation(ctx: AppContext): void {
  active.delete(ctx);
  markBackupActive(ctx, false);
}

/** The key of the running backup or restore, if any. */
export const activeOperation = (ctx: AppContext): string | undefined => active.get(ctx);
