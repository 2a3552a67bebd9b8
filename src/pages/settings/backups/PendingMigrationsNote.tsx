// The restore dialog's word on migrations: the pb_migrations files that will run after the restore
// (0.22 applies every file the backup's data.db has not recorded, at the restart), or that none
// will. Checking never blocks the restore: a failure is one quiet line; against PocketBase
// (no such route) nothing is shown.
import type { PendingState } from './pending-migrations';
import { t } from '../../../ui/i18n';
import { tRich } from '../../../ui/rich-text';

// a folder's name, no word
const MIGRATIONS_DIR = 'pb_migrations';

export function PendingMigrationsNote({ state }: { state: PendingState }) {
  if (state.kind === 'unavailable') return null;
  if (state.kind === 'loading') {
    return (
      <p className="backup-restore-migrations backup-restore-migrations--loading txt-hint" role="status" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <span>{t('backups.migrationsChecking')}</span>
      </p>
    );
  }
  if (state.kind === 'error') {
    return (
      <p className="backup-restore-migrations txt-hint" role="status">
        {t('backups.migrationsCheckFailed', { message: state.message })}
      </p>
    );
  }
  if (state.files.length === 0) {
    return (
      <p className="backup-restore-migrations txt-hint" role="status">
        {t('backups.migrationsNone')}
      </p>
    );
  }
  return (
    <div className="backup-restore-migrations" role="status">
      <p>{t('backups.migrationsWillRun')}</p>
      <ul className="backup-restore-migrations-list" aria-label={t('backups.migrationsList')}>
        {state.files.map((file) => (
          <li key={file} className="txt-mono">
            {file}
          </li>
        ))}
      </ul>
      <p className="txt-hint">
        {tRich('backups.migrationsWhy', { dir: <code>{MIGRATIONS_DIR}</code> })}
      </p>
    </div>
  );
}
