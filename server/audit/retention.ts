// The trail's switch and clean-up, run like the request logs' (server/services/request-log.ts):
// entries older than settings.audit.maxDays days go on every settings change, with the first
// entry written after a start, and then every 6 hours; maxDays 0 turns the trail off and clears it.
import type { AppContext } from '../context';
import { formatPbDate } from '../query/macros';

const PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;

export function startAuditTrail(ctx: AppContext): void {
  const trail = ctx.audit;
  const maxDays = () => Math.max(0, Number(ctx.settings.get().audit?.maxDays) || 0);
  trail.enabled = maxDays() > 0;
  const prune = () => {
    try {
      pruneAudit(ctx);
    } catch (err) {
      console.error('[audit] failed to prune the audit trail:', err);
    }
  };
  let first: NodeJS.Timeout | undefined;
  trail.afterWrite = () => {
    trail.afterWrite = undefined;
    // after the write's transaction, not inside it
    first = setTimeout(prune, 0);
    first.unref();
  };
  const unsubscribe = ctx.settings.subscribe(() => {
    trail.enabled = maxDays() > 0;
    prune();
  });
  const interval = setInterval(prune, PRUNE_INTERVAL_MS);
  interval.unref();
  ctx.onClose.push(() => {
    clearInterval(interval);
    clearTimeout(first);
    unsubscribe();
    trail.afterWrite = undefined;
  });
}

/** Deletes entries created maxDays or more ago (all of them with 0). Returns how many. */
function pruneAudit(ctx: AppContext, now = new Date()): number {
  const days = Math.max(0, Number(ctx.settings.get().audit?.maxDays) || 0);
  return ctx.audit.store.prune(days ? formatPbDate(new Date(now.getTime() - days * 86_400_000)) : formatPbDate(new Date(now.getTime() + 1000)));
}
