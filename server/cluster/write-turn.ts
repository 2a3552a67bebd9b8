// Record writes across the members of a cluster (processes writing one data.db). SQLite's own wait
// for a taken write lock (busy_timeout) sleeps inside the synchronous call and holds the whole
// member; asking a coordinator for a turn costs two hops per write, and the turn passes only when
// the next holder's event loop gets to the answer (measured: --workers 2 made creates 0.7x of one
// process). A write lock is held for a transaction's length (well under a millisecond), so a member
// that finds it taken lets its event loop run and tries again; after TRY_FOR_MS of that it waits
// as SQLite waits.
import type { TryUnitOfWork, UnitOfWork } from '../db/database';
import type { ClusterChannel } from './channel';

const TRY_FOR_MS = 50;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const shortly = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** Runs `fn` in a write transaction; in a cluster, without holding the event loop while another member writes. */
export async function clusterWrite<T>(
  cluster: ClusterChannel | undefined,
  db: { transaction: UnitOfWork; tryTransaction: TryUnitOfWork },
  fn: () => T,
): Promise<T> {
  if (!cluster || cluster.members() < 2) return db.transaction(fn);
  const giveUp = Date.now() + TRY_FOR_MS;
  for (let attempt = 0; Date.now() < giveUp; attempt++) {
    const done = db.tryTransaction(fn);
    if (done) return done.value;
    // the first retries come after the I/O already queued; then a millisecond at a time
    await (attempt < 8 ? nextTurn() : shortly());
  }
  return db.transaction(fn);
}
