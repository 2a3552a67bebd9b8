// The restore dialog's word on migrations: the pb_migrations files that will run after the restore
// (0.22 applies every file the backup's data.db has not recorded, at the restart), or that none
// will. Checking never blocks the restore: a failure is one quiet line; against PocketBase
// (no such route) nothing is shown.
import type { PendingState } from './pending-migrations';

export function PendingMigrationsNote({ state }: { state: PendingState }) {
  if (state.kind === 'unavailable') return null;
  if (state.kind === 'loading') {
    return (
      <p className="backup-restore-migrations backup-restore-migrations--loading txt-hint" role="status" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <span>Checking which migration files will run after the restore…</span>
      </p>
    );
  }
  if (state.kind === 'error') {
    return (
      <p className="backup-restore-migrations txt-hint" role="status">
        Could not check which migration files will run after the restore: {state.message}
      </p>
    );
  }
  if (state.files.length === 0) {
    return (
      <p className="backup-restore-migrations txt-hint" role="status">
        No migration files will run after the restore.
      </p>
    );
  }
  return (
    <div className="backup-restore-migrations" role="status">
      <p>After the restore, these migration files will run:</p>
      <ul className="backup-restore-migrations-list" aria-label="Migration files that will run">
        {state.files.map((file) => (
          <li key={file} className="txt-mono">
            {file}
          </li>
        ))}
      </ul>
      <p className="txt-hint">
        They are in <code>pb_migrations</code> but not recorded in this backup (for example collections changed since it was made).
      </p>
    </div>
  );
}
