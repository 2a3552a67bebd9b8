// Admission control in front of the read pool: who may start which read when, so that no caller
// can fill the pool and the cheap reads everyone makes never wait behind runaway ones.
// - A read is cheap when the last run of the same statements (its shape: the SQL, not the
//   values) took under CHEAP_MS, and stays cheap only while it runs under that: one that
//   overruns is counted as costly from then on, and so is its shape. A run in a pool child counts
//   its CPU time (waiting for a busy CPU is no cost of the query's), one in the main process its
//   wall time.
// - Costly reads may hold all children but one: that one stays free for cheap reads.
// - A client holds at most its share of costly reads at once (guests 1, signed-in users 2,
//   admins all but the reserved child); the rest of its reads wait while others' go first.
// - Guests get a third of the budget.
// Shapes are remembered in a bounded LRU map (a client inventing SQL shapes cannot grow it).
import type { ReadClient, ReadTier } from './read-client';

export const CHEAP_MS = 50;
const SHAPES_KEPT = 2000;
const SHARE: Record<ReadTier, number> = { guest: 1, user: 2, admin: Number.POSITIVE_INFINITY };

/** How many costly reads a client of `tier` may hold at once. */
export const shareOf = (tier: ReadTier): number => SHARE[tier];

/** The budget of a read: a guest's is a third of the pool's (never under 1 s unless the pool's is). */
export function budgetFor(client: ReadClient | undefined, poolBudgetMs: number): number {
  if (client?.tier !== 'guest') return poolBudgetMs;
  return Math.min(poolBudgetMs, Math.max(1000, Math.round(poolBudgetMs / 3)));
}

/**
 * A shape runs in the main process (no process hop) once its last FAST_RUNS runs took under
 * FAST_MS, but one of them under SLOW_MS, and its values cannot make it slow (mainSafe): what it
 * costs then depends on the data, which grows slowly; a run at SLOW_MS or more, or a second one
 * over FAST_MS among the last runs, sends the shape back to the pool. The one tolerated overrun: on
 * a machine whose cores are shared, a 0.2 ms read now and then measures several ms (preempted, or
 * the process's other threads counted with it), and each such run sent a fast shape through the
 * process hop for its next three runs.
 */
const FAST_MS = 5;
const SLOW_MS = 25;
const FAST_RUNS = 3;

/** Cheap or costly (the last run decides) and fast, per shape. Unknown shapes are costly. */
export class ShapeCosts {
  private readonly runs = new Map<string, number[]>();

  private get(shape: string): number[] | undefined {
    const v = this.runs.get(shape);
    if (v) {
      // refresh its place in the LRU order
      this.runs.delete(shape);
      this.runs.set(shape, v);
    }
    return v;
  }

  isCheap(shape: string): boolean {
    const v = this.get(shape);
    return v !== undefined && v[v.length - 1] < CHEAP_MS;
  }

  isFast(shape: string): boolean {
    const v = this.get(shape);
    return v !== undefined && v.length >= FAST_RUNS && v.every((ms) => ms < SLOW_MS) && v.filter((ms) => ms >= FAST_MS).length <= 1;
  }

  /** A run's duration in ms (Infinity: stopped at its budget). */
  record(shape: string, ms: number): void {
    const v = [...(this.runs.get(shape) ?? []), ms].slice(-FAST_RUNS);
    this.runs.delete(shape);
    this.runs.set(shape, v);
    if (this.runs.size > SHAPES_KEPT) this.runs.delete(this.runs.keys().next().value as string);
  }
}

/**
 * Whether the values of a statement cannot make it slow: LIKE patterns are the values whose
 * content sets the cost (each `%` multiplies the backtracking), so text values may hold two `%` at
 * most (the `~` operator's '%text%') and be of modest length.
 */
export function mainSafe(params: readonly unknown[] | undefined): boolean {
  for (const p of params ?? []) {
    if (typeof p === 'string' && (p.length > 1000 || p.split('%').length > 3)) return false;
    if (typeof p === 'object' && p !== null) return false;
  }
  return true;
}

export interface Admissible {
  client: ReadClient | undefined;
  cheap: boolean;
}

/**
 * Whether `job` may start now, given the reads running (`running`) on a pool of `maxSize`
 * children. Cheap reads always may (they finish in milliseconds); a costly one needs a child
 * left for cheap reads and its client under its share.
 */
export function mayStart(job: Admissible, running: readonly Admissible[], maxSize: number): boolean {
  if (job.cheap) return true;
  const costly = running.filter((r) => !r.cheap);
  if (costly.length >= maxSize - 1) return false;
  if (!job.client) return true;
  const mine = costly.filter((r) => r.client?.key === job.client!.key).length;
  return mine < SHARE[job.client.tier];
}
