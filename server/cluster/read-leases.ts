// A cluster's shared slots for costly reads (the read pool's CostlyLeases), held by the
// coordinator. A member that gets no answer in time reads without one: the admission of its
// own pool still applies.
import type { CostlyLeases } from '../db/database';
import type { ClusterChannel } from './channel';

export function costlyReadLeases(cluster: ClusterChannel): CostlyLeases {
  return {
    async admit(key, share, ttlMs) {
      let lease: unknown;
      try {
        lease = await cluster.ask('read.admit', { key, share, ttlMs }, ttlMs);
      } catch {
        return () => undefined;
      }
      if (lease === null) return () => undefined;
      return () => void cluster.ask('read.release', { lease }, ttlMs).catch(() => undefined);
    },
  };
}
