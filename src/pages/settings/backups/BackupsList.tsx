// The backups list: zip icon, key, size in brackets, a quiet 'N migrations pending' badge when
// restoring it would run migration files (Outpost only; counts come after the list), Download /
// Restore / Delete; skeleton rows while loading, 'No backups yet.' when empty. A row's buttons are
// disabled while its download or delete runs.
import { IconDownload } from '../../../ui/icons';
import { formatSize, type BackupItem } from './backups-api';
import { IconRestore, IconTrash, IconZip } from './icons';
import { pendingLabel } from './pending-migrations';

const SKELETON_ROWS = 3;

export interface BackupsListProps {
  items: BackupItem[];
  loading: boolean;
  /** Keys whose download or delete is under way. */
  busy: ReadonlySet<string>;
  /** Migration files restoring a backup would run, by key (absent: unknown or none). */
  pending: ReadonlyMap<string, number>;
  onDownload(key: string): void;
  onRestore(key: string): void;
  onDelete(key: string): void;
}

export function BackupsList({ items, loading, busy, pending, onDownload, onRestore, onDelete }: BackupsListProps) {
  if (loading) {
    return (
      <ul className="backups-list" aria-busy="true" aria-label="Backups">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <li className="backups-item backups-item--skeleton" key={i}>
            <span className="skeleton-line" />
          </li>
        ))}
      </ul>
    );
  }
  if (items.length === 0) {
    return <p className="backups-empty">No backups yet.</p>;
  }
  return (
    <ul className="backups-list" aria-label="Backups">
      {items.map((b) => {
        const disabled = busy.has(b.key);
        const count = pending.get(b.key) ?? 0;
        return (
          <li className="backups-item" key={b.key} data-key={b.key}>
            <span className="backups-item-icon">
              <IconZip />
            </span>
            <span className="backups-item-name txt-ellipsis" title={b.key}>
              {b.key}
            </span>
            <span className="backups-item-size">({formatSize(b.size)})</span>
            {count > 0 && (
              <span className="badge backups-item-pending" title={`Restoring this backup will run ${count} migration ${count === 1 ? 'file' : 'files'} it has not applied`}>
                {pendingLabel(count)}
              </span>
            )}
            <span className="backups-item-actions">
              <button type="button" className="btn btn-transparent btn-sm" disabled={disabled} aria-label={`Download ${b.key}`} title="Download" onClick={() => onDownload(b.key)}>
                <IconDownload size={16} />
                <span>Download</span>
              </button>
              <button type="button" className="btn btn-transparent btn-sm" disabled={disabled} aria-label={`Restore ${b.key}`} title="Restore" onClick={() => onRestore(b.key)}>
                <IconRestore />
                <span>Restore</span>
              </button>
              <button type="button" className="btn btn-transparent btn-sm txt-danger" disabled={disabled} aria-label={`Delete ${b.key}`} title="Delete" onClick={() => onDelete(b.key)}>
                <IconTrash />
                <span>Delete</span>
              </button>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
