// Tags every request's reads with its caller for the read pool's admission control
// (server/db/read-admission.ts): the admin or auth record, else the guest's address (./client-address.ts); and
// aborts them when the caller disconnects before its answer (queued reads are dropped, running
// ones stopped). Runs before the handler, after the caller is known (auth) and the body is read.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { CallerGone, runAsReadClient, type ReadClient } from '../db/read-client';
import { clientAddress } from './client-address';

export function registerReadClients(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', (req, reply, done) => {
    const auth = req.auth;
    const client: ReadClient =
      auth.kind === 'admin'
        ? { key: `admin:${String(auth.admin?.id)}`, tier: 'admin' }
        : auth.kind === 'guest'
          ? { key: `ip:${clientAddress(ctx, req)}`, tier: 'guest' }
          : { key: `record:${String(auth.collectionId)}:${String(auth.record?.id)}`, tier: 'user' };
    const gone = new CallerGone();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    client.signal = gone;
    runAsReadClient(client, done);
  });
}
