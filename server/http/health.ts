// GET /api/health as 0.22 answers it: {message, code, data: {canBackup}}; HEAD gets no body. While
// writes fail for lack of disk space, data also says `diskFull: true` (and since when). An admin
// also gets 0.23's `realIP` (the client's address as resolved) and `possibleProxyHeader` (a
// forwarding header the request carries), from which Settings › Application hints at an untrusted proxy,
// and in a cluster `member` (which member answered, whether it leads, how many there are).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { isBackupActive } from '../services/backups/state';
import { outOfSpaceSince } from '../services/disk-space';
import { clientAddress, possibleProxyHeader } from './client-address';

function diskState(ctx: AppContext): { diskFull?: true; diskFullSince?: string } {
  const since = outOfSpaceSince(ctx);
  return since ? { diskFull: true, diskFullSince: since.toISOString() } : {};
}

function memberOf(ctx: AppContext): { member?: { id: string; pid: number; leader: boolean; members: number; transport: string } } {
  const c = ctx.options.cluster;
  return c ? { member: { id: c.memberId, pid: process.pid, leader: c.isLeader(), members: c.members(), transport: c.transport } } : {};
}

export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/health', async (req) => ({
    message: 'API is healthy.',
    code: 200,
    data: {
      canBackup: !isBackupActive(ctx),
      ...diskState(ctx),
      ...(req.auth?.kind === 'admin' ? { realIP: clientAddress(ctx, req), possibleProxyHeader: possibleProxyHeader(ctx, req), ...memberOf(ctx) } : {}),
    },
  }));
}
