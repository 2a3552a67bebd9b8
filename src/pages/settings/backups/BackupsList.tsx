// The backups list: zip icon, key, size in brackets, a quiet 'N migrations pending' badge when
// restoring it would run migration files (Outpost only; counts come after the list), Download /
// Restore / Delete; skeleton rows while loading, 'No backups yet.' when empty. A row's buttons are
// disabled while its download or delete runs.
import { IconDownload } from '../../../ui/icons';
import { formatSize, type BackupItem } from './backups-api';
import { IconRestore, IconTrash, IconZip } from './icons';
import { pendingLabel } from './pending-migrations';
import { t } from '../../../ui/i18n';

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
      <ul className="backups-list" aria-busy="true" aria-label={t('page.settingsBackups')}>
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <li className="backups-item backups-item--skeleton" key={i}>
            <span className="skeleton-line" />
          </li>
        ))}
      </ul>
    );
  }
  if (items.length === 0) {
    return <p className="backups-empty">{t('backups.empty')}</p>;
  }
  return (
    <ul className="backups-list" aria-label={t('page.settingsBackups')}>
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
              <span className="badge backups-item-pending" title={t('backups.pendingTitle', { count })}>
                {pendingLabel(count)}
              </span>
            )}
            <span className="backups-item-actions">
              <button type="button" className="btn btn-transparent btn-sm" disabled={disabled} aria-label={t('backups.downloadName', { name: b.key })} title={t('backups.download')} onClick={() => onDownload(b.key)}>
                <IconDownload size={16} />
                <span>{t('backups.download')}</span>
              </button>
              <button type="button" className="btn btn-transparent btn-sm" disabled={disabled} aria-label={t('backups.restoreName', { name: b.key })} title={t('backups.restore')} onClick={() => onRestore(b.key)}>
                <IconRestore />
                <span>{t('backups.restore')}</span>
              </button>
              <button type="button" className="btn btn-transparent btn-sm txt-danger" disabled={disabled} aria-label={t('backups.deleteName', { name: b.key })} title={t('backups.delete')} onClick={() => onDelete(b.key)}>
                <IconTrash />
                <span>{t('backups.delete')}</span>
              </button>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
