// In a cluster, a change is acknowledged only once every member has it: an answer waits for the
// invalidation broadcasts under way (server/cluster/app-sync.ts) before it is sent. Without one
// under way (nearly always) the hook costs one size check.
import type { FastifyInstance } from 'fastify';
import type { ClusterChannel } from '../cluster/channel';
import { pendingAcks } from '../cluster/app-sync';

export function registerClusterAcks(app: FastifyInstance, channel: ClusterChannel): void {
  const pending = pendingAcks(channel);
  app.addHook('onSend', (_req, _reply, payload, done) => {
    if (pending.size === 0) return done(null, payload);
    void Promise.allSettled([...pending]).then(() => done(null, payload));
  });
}
