// Automatic backups (0.22's initAutobackupHooks): settings.backups.cron, a 5-field expression or
// a macro, in UTC, run by croner; after each run only the newest cronMaxKeep '@auto_pb_backup_'
// backups are kept. The job follows settings changes. A failing run is logged to logs.db and
// never escapes (the server keeps running).
import { Cron } from 'croner';
import type { AppContext } from '../../context';
import { isLeader } from '../../cluster/role';
import { logBackgroundError } from '../request-log';
import type { Settings } from '../settings';
import { createBackup, type DatabaseSnapshot } from './create';
import { openBackupsFs } from './fsys';
import { AUTO_BACKUP_PREFIX, generateBackupName } from './names';
import { beginOperation, endOperation } from './state';

export function startAutoBackups(ctx: AppContext, snapshot: DatabaseSnapshot): void {
  let job: Cron | null = null;
  let current = '';

  const load = (s: Settings) => {
    const pattern = s.backups.cron.trim();
    if (pattern === current) return;
    job?.stop();
    job = null;
    current = pattern;
    if (!pattern) return;
    try {
      // with both a day of month and a day of week set, either matching fires the job (as in
      // 0.22's cron), which is croner's default
      job = new Cron(pattern, { timezone: 'UTC', protect: true, catch: true }, () => {
        // in a cluster every member schedules it and the leader runs it (once)
        if (isLeader()) return runAutoBackup(ctx, snapshot);
      });
    } catch (err) {
      logBackgroundError(ctx, 'Invalid backups cron expression', err, { cron: pattern });
    }
  };

  load(ctx.settings.get());
  const unsubscribe = ctx.settings.subscribe(load);
  ctx.onClose.push(() => {
    unsubscribe();
    job?.stop();
    job = null;
  });
}

/** One scheduled run: a backup named @auto_pb_backup_<app name>_<stamp>.zip, then the cronMaxKeep pruning. */
export async function runAutoBackup(ctx: AppContext, snapshot: DatabaseSnapshot): Promise<void> {
  const name = generateBackupName(AUTO_BACKUP_PREFIX, ctx.settings.get().meta.appName);
  if (!beginOperation(ctx, name)) {
    logBackgroundError(ctx, 'Failed to create the automatic backup', 'another backup or restore is running', { name });
    return;
  }
  try {
    await createBackup(ctx, snapshot, name);
  } catch (err) {
    logBackgroundError(ctx, 'Failed to create the automatic backup', err, { name });
  } finally {
    endOperation(ctx);
  }
  try {
    await pruneAutoBackups(ctx);
  } catch (err) {
    logBackgroundError(ctx, 'Failed to remove old automatic backups', err);
  }
}

async function pruneAutoBackups(ctx: AppContext): Promise<void> {
  const maxKeep = ctx.settings.get().backups.cronMaxKeep;
  if (!(maxKeep > 0)) return;
  const fsys = openBackupsFs(ctx.dataDir, ctx.settings.get().backups.s3);
  try {
    const files = await fsys.list(AUTO_BACKUP_PREFIX);
    if (files.length <= maxKeep) return;
    // newest first (the key's timestamp breaks ties between equal modification times)
    files.sort((a, b) => b.modified.getTime() - a.modified.getTime() || b.key.localeCompare(a.key));
    for (const f of files.slice(maxKeep)) {
      try {
        await fsys.remove(f.key);
      } catch (err) {
        logBackgroundError(ctx, 'Failed to remove an old automatic backup', err, { key: f.key });
      }
    }
  } finally {
    fsys.close();
  }
}
