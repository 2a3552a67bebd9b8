// 'Restore {name}': the danger warning, the migration files that will run after the restore
// (Outpost only, fetched as the popup opens; never blocks the restore), the exact name typed again
// (schemas/backups/restore.*), 'Restore backup' enabled only when it matches; while the restore
// runs the popup cannot be closed (no overlay click, no Esc). Success reloads the page 2 s later
// (the server restarts meanwhile); failure shows the server's message.
import { useEffect, useState } from 'react';
import { pb } from '../../../api/client';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { addErrorToast } from '../../../shell/toasts';
import { getForm, getScreen, SchemaForm, screenAction } from '../../../engine';
import { errorMessage } from './backups-api';
import { usePendingMigrations } from './pending-migrations';
import { PendingMigrationsNote } from './PendingMigrationsNote';
import { t } from '../../../ui/i18n';
import { tRich } from '../../../ui/rich-text';

const RELOAD_AFTER_RESTORE_MS = 2000;
// names on disk, no words
const DATA_DIR = 'pb_data';
const DATA_FILE = 'data.db';


/** A random suffix so two popups never share field ids (5 characters). */
const formId = () => `backup-restore-${Math.random().toString(36).slice(2, 7)}`;

export function RestoreBackupPopup({ name, onClose }: { name: string | null; onClose: () => void }) {
  // read on each render: the words follow the language
  const screen = getScreen('backup-restore');
  const form = getForm(screen.sections[0].schema);
  const submitAction = screenAction(screen, 'restore');
  const cancelAction = screenAction(screen, 'cancel');
  const [data, setData] = useState<{ name?: string }>({});
  const [busy, setBusy] = useState(false);
  const [id] = useState(formId);
  const open = name !== null;
  const pending = usePendingMigrations(name);

  useEffect(() => {
    if (open) setData({});
  }, [open, name]);

  const matches = open && data.name === name;

  const submit = async () => {
    if (!matches || busy || !name) return;
    setBusy(true);
    try {
      await pb.backups.restore(name, { requestKey: null });
      setTimeout(() => window.location.reload(), RELOAD_AFTER_RESTORE_MS);
    } catch (err) {
      setBusy(false);
      addErrorToast(errorMessage(err));
    }
  };

  const close = () => {
    if (!busy) onClose();
  };

  return (
    <OverlayPanel
      open={open}
      onRequestClose={close}
      beforeHide={() => !busy}
      escClose={!busy}
      overlayClose={!busy}
      showCloseButton={!busy}
      header={t('backups.restoreName', { name: name ?? '' })}
      size="popup"
      className="backup-restore-popup"
      footer={
        <>
          {/* the press keeps the focus in the name field: its blur would show "Cannot be blank." and
              move this button from under the pointer before the click lands */}
          <button type="button" className="btn btn-transparent" disabled={busy} onMouseDown={(e) => e.preventDefault()} onClick={close}>
            <span>{cancelAction.label}</span>
          </button>
          <button type="submit" form={id} className={`btn btn-danger${busy ? ' btn-loading' : ''}`} disabled={!matches || busy}>
            <span>{submitAction.label}</span>
          </button>
        </>
      }
    >
      <div className="alert alert-danger backup-restore-warning" role="alert">
        <p>{t('backups.restoreCaution')}</p>
        <p>{t('backups.restoreExperimental')}</p>
        <p>{tRich('backups.restoreReplaces', { dir: <code>{DATA_DIR}</code> })}</p>
        <p>{t('backups.restoreMeans')}</p>
        <p>{tRich('backups.restoreInvalid', { file: <code>{DATA_FILE}</code> })}</p>
      </div>
      <PendingMigrationsNote state={pending} />
      <p className="backup-restore-prompt">
        {tRich('backups.restorePrompt', { name: <strong className="txt-mono">{name}</strong> })}
      </p>
      <SchemaForm id={id} schema={form.schema} uiSchema={form.uiSchema} formData={data} onChange={setData} onSubmit={() => void submit()} disabled={busy} />
    </OverlayPanel>
  );
}
