// The confirm-changes dialog before saving: collection rename, field renames,
// multiple→single conversions (only the last item kept), removed fields (data permanently
// deleted), and the warning that rules, filters and view queries must be updated manually.
import { OverlayPanel } from '../../ui/OverlayPanel';
import type { PendingChanges } from '../../lib/collections/diff';

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
      header="Confirm collection changes"
      escClose={!busy}
      overlayClose={!busy}
      onRequestClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-transparent" autoFocus onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={`btn btn-primary${busy ? ' btn-loading' : ''}`} onClick={onConfirm} disabled={busy}>
            <span>Confirm</span>
          </button>
        </>
      }
    >
      {changes && (
        <div className="confirm-changes-body">
          <div className="alert alert-warning">
            If any of the collection changes is part of another collection rule, filter or view query, you&apos;ll have to update it
            manually!
          </div>
          <ul className="changes-list">
            {changes.collectionRename && (
              <li>
                Renamed collection <strong className="txt-strike">{changes.collectionRename.from}</strong> →{' '}
                <strong>{changes.collectionRename.to}</strong>
              </li>
            )}
            {changes.fieldRenames.map((r) => (
              <li key={'r' + r.from}>
                Renamed field <strong className="txt-strike">{r.from}</strong> → <strong>{r.to}</strong>
              </li>
            ))}
            {changes.toSingle.map((name) => (
              <li key={'s' + name} className="txt-danger">
                Multiple to single value conversion of field <strong>{name}</strong> (only the last item of existing values will be kept)
              </li>
            ))}
            {changes.removed.map((name) => (
              <li key={'d' + name} className="txt-danger">
                Removed field <strong>{name}</strong> (its data will be permanently deleted)
              </li>
            ))}
          </ul>
        </div>
      )}
    </OverlayPanel>
  );
}
