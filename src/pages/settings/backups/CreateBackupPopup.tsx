// 'Initialize new backup': an optional name (schemas/backups/create.*); the
// popup closes 1.5 s after submit even while the backup still runs, and then says it may take a
// while (4.5 s toast). Texts come from screens/backup-create.json.
import { useEffect, useRef, useState } from 'react';
import { handleError, pb } from '../../../api/client';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import { addErrorToast, addInfoToast, addSuccessToast } from '../../../shell/toasts';
import { getForm, getScreen, SchemaForm, screenAction } from '../../../engine';
import { clearFieldErrors } from '../../../engine/field-errors';
import { t } from '../../../ui/i18n';

const CLOSE_AFTER_SUBMIT_MS = 1500;
const STILL_RUNNING_TOAST_MS = 4500;
const FORM_ID = 'backup-create-form';


export function CreateBackupPopup({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  // read on each render: the words follow the language
  const screen = getScreen('backup-create');
  const form = getForm(screen.sections[0].schema);
  const submitAction = screenAction(screen, 'create');
  const cancelAction = screenAction(screen, 'cancel');
  const [data, setData] = useState<{ name?: string }>({});
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const running = useRef(false);

  useEffect(() => {
    if (open) {
      setData({});
      clearFieldErrors();
    }
  }, [open]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = async (d: { name?: string }) => {
    if (busy) return;
    setBusy(true);
    running.current = true;
    clearFieldErrors();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (running.current) addInfoToast(t('backups.stillRunning'), STILL_RUNNING_TOAST_MS);
      onClose();
    }, CLOSE_AFTER_SUBMIT_MS);
    try {
      await pb.backups.create(d.name ?? '', { requestKey: null });
      running.current = false;
      clearTimeout(timer.current);
      addSuccessToast(submitAction.success ?? '');
      onClose();
      onCreated();
    } catch (err) {
      running.current = false;
      clearTimeout(timer.current);
      const message = (err as { response?: { message?: string } })?.response?.message ?? '';
      if (message.startsWith('Try again later')) addErrorToast(t('backups.alreadyStarted'));
      else handleError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      header={screen.title}
      size="popup"
      className="backup-create-popup"
      footer={
        <>
          <button type="button" className="btn btn-transparent" onClick={onClose}>
            <span>{cancelAction.label}</span>
          </button>
          <button type="submit" form={FORM_ID} className={`btn btn-primary${busy ? ' btn-loading' : ''}`} disabled={busy}>
            <span>{submitAction.label}</span>
          </button>
        </>
      }
    >
      <p className="txt-muted backup-popup-note">{t('backups.s3Note')}</p>
      <SchemaForm id={FORM_ID} schema={form.schema} uiSchema={form.uiSchema} formData={data} onChange={setData} onSubmit={(d) => void submit(d)} disabled={busy} />
    </OverlayPanel>
  );
}
