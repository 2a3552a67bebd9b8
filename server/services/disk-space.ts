// A full disk, noticed where a write fails for space (an upload, a thumb, data.db, logs.db):
// logged once when it starts rather than once per failed request, shown by /api/health until a
// write succeeds again.
import type { AppContext } from '../context';

const OUT_OF_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Whether `err` is a write that failed because the disk (or the quota) is full. */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && OUT_OF_SPACE_CODES.has(code);
}

const fullSince = new WeakMap<AppContext, { since: Date; where: string }>();

/** Records a write that failed for space (logged the first time only). */
export function noteOutOfSpace(ctx: AppContext, where: string, err: unknown): void {
  if (fullSince.has(ctx)) return;
  fullSince.set(ctx, { since: new Date(), where });
  console.error(`[disk] not enough disk space (${where}): ${err instanceof Error ? err.message : String(err)}; writes fail until space is freed`);
}

/** A write succeeded: the disk has room again (logged once). */
export function noteWriteSucceeded(ctx: AppContext): void {
  if (!fullSince.delete(ctx)) return;
  console.log('[disk] writes succeed again');
}

/** Since when writes have been failing for space, or null. */
export function outOfSpaceSince(ctx: AppContext): Date | null {
  return fullSince.get(ctx)?.since ?? null;
}
