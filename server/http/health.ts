// GET /api/health as 0.22 answers it: {message, code, data: {canBackup}}; HEAD gets no body.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

const activeBackups = new WeakSet<AppContext>();

/** Backups call this around a backup or restore, so health reports canBackup false meanwhile. */
export function markBackupActive(ctx: AppContext, active: boolean): void {
  if (active) activeBackups.add(ctx);
  else activeBackups.delete(ctx);
}

export const isBackupActive = (ctx: AppContext): boolean => activeBackups.has(ctx);

export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/health', async () => ({
    message: 'API is healthy.',
    code: 200,
    data: { canBackup: !isBackupActive(ctx) },
  }));
}
