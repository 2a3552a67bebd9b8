// Outpost-only, for admins (PocketBase 0.22 has neither route: 404): the pb_migrations files a
// restore would run. 0.22 applies, right after restoring a backup, every file of the folder the
// backup's data.db has not recorded; the dashboard's restore dialog lists them before the admin
// confirms, and the backups list shows how many each backup has.
//
//   GET /api/outpost/backups/{key}/migrations → { key, count, files: ["<file>", …] } (run order)
//   GET /api/outpost/backups/migrations       → { items: [{ key, count }, …] }, count null with a
//                                                message for a backup that cannot tell
//
// A key that is no backup answers 400 'Missing or invalid backup file.' (as restore does); a
// backup whose data.db is missing, not SQLite, too large or without `_migrations` answers 400
// with the reason in the message (0.22's envelope).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { badRequest } from '../core/errors';
import {
  BackupHistoryError,
  BackupHistoryUnavailableError,
  BackupNotFoundError,
  pendingCounts,
  pendingForBackup,
} from '../services/backups/pending-migrations';
import { requireAdmin } from './guards';

type KeyParams = { key?: string };

export function registerBackupMigrations(app: FastifyInstance, ctx: AppContext, dir: string): void {
  app.get('/api/outpost/backups/migrations', async (req) => {
    requireAdmin(req);
    try {
      return { items: await pendingCounts(ctx, dir) };
    } catch (err) {
      throw badRequest(`Failed to retrieve backup items. Raw error: \n${(err as Error).message}`);
    }
  });

  app.get('/api/outpost/backups/:key/migrations', async (req) => {
    requireAdmin(req);
    const key = (req.params as KeyParams).key ?? '';
    try {
      const files = await pendingForBackup(ctx, dir, key);
      return { key, count: files.length, files };
    } catch (err) {
      if (err instanceof BackupNotFoundError) throw badRequest('Missing or invalid backup file.');
      if (err instanceof BackupHistoryError || err instanceof BackupHistoryUnavailableError) throw badRequest(err.message);
      throw badRequest('Failed to read the backup.', {}, (err as Error).message);
    }
  });
}
