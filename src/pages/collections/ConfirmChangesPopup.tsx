// The confirm-changes dialog before saving: collection rename, field renames,
// multiple→single conversions (only the last item kept), removed fields (data permanently
// deleted), and the warning that rules, filters and view queries must be updated manually.
import { OverlayPanel } from '../../ui/OverlayPanel';
import type { PendingChanges } from '../../lib/collections/diff';
import { t } from '../../ui/i18n';
import { tRich } from '../../ui/rich-text';

type Props = {
  changes: PendingChanges | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

export function ConfirmChangesPopup({ changes, busy, onCancel, onConfirm }: Props) {
  return (
    <OverlayPanel
      open={!!changes}
      size="popup"
      className="confirm-changes"
      header={t('collections.confirmChanges')}
      escClose={!busy}
      overlayClose={!busy}
      onRequestClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-transparent" autoFocus onClick={onCancel} disabled={busy}>
            {t('collections.cancel')}
          </button>
          <button type="button" className={`btn btn-primary${busy ? ' btn-loading' : ''}`} onClick={onConfirm} disabled={busy}>
            <span>{t('collections.confirm')}</span>
          </button>
        </>
      }
    >
      {changes && (
        <div className="confirm-changes-body">
          <div className="alert alert-warning">
            {t('collections.changesWarning')}
          </div>
          <ul className="changes-list">
            {changes.collectionRename && (
              <li>
                {tRich('collections.renamedCollection', { from: <strong className="txt-strike">{changes.collectionRename.from}</strong>, to: <strong>{changes.collectionRename.to}</strong> })}
              </li>
            )}
            {changes.fieldRenames.map((r) => (
              <li key={'r' + r.from}>
                {tRich('collections.renamedField', { from: <strong className="txt-strike">{r.from}</strong>, to: <strong>{r.to}</strong> })}
              </li>
            ))}
            {changes.toSingle.map((name) => (
              <li key={'s' + name} className="txt-danger">
                {tRich('collections.toSingle', { name: <strong>{name}</strong> })}
              </li>
            ))}
            {changes.removed.map((name) => (
              <li key={'d' + name} className="txt-danger">
                {tRich('collections.removedField', { name: <strong>{name}</strong> })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </OverlayPanel>
  );
}
