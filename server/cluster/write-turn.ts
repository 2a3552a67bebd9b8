// Record writes take turns across the members of a cluster before they open their transaction:
// the turn is asked of the coordinator asynchronously (one round trip, the event loop free), where
// SQLite's own wait for a taken write lock sleeps inside the synchronous call (1, 2, 5 ms…) and
// holds the whole worker. Without an answer in time a write goes on and SQLite's wait applies.
import type { ClusterChannel } from './channel';
import { costlyReadLeases } from './read-leases';

const WRITE_KEY = '\u0000write';
const TURN_TTL_MS = 10_000;
const none = () => undefined;

/** Resolves once this member may write; call the returned function right after the commit. */
export function writeTurn(cluster: ClusterChannel | undefined): Promise<() => void> {
  if (!cluster || cluster.members() < 2) return Promise.resolve(none);
  return costlyReadLeases(cluster).admit(WRITE_KEY, 1, TURN_TTL_MS);
}
