// GET /api/health as 0.22 answers it: {message, code, data: {canBackup}}; HEAD gets no body.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { isBackupActive } from '../services/backups/state';

export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/health', async () => ({
    message: 'API is healthy.',
    code: 200,
    data: { canBackup: !isBackupActive(ctx) },
  }));
}
