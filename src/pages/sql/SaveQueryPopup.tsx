// 'Save query': a name for the console's statement (schemas/sql/saved-query.*, words from
// screens/sql-save-query.json), kept in this browser per admin (console-store.ts).
import { useEffect, useState } from 'react';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { addErrorToast, addSuccessToast } from '../../shell/toasts';
import { getForm, getScreen, SchemaForm, screenAction } from '../../engine';
import { clearFieldErrors } from '../../engine/field-errors';
import { t } from '../../ui/i18n';
import { saveQuery } from './console-store';

const FORM_ID = 'sql-save-query-form';

export function SaveQueryPopup({ open, adminId, sql, initialName, onClose, onSaved }: { open: boolean; adminId: string; sql: string; initialName: string; onClose: () => void; onSaved: () => void }) {
  // read on each render: the words follow the language
  const screen = getScreen('sql-save-query');
  const form = getForm(screen.sections[0].schema);
  const saveAction = screenAction(screen, 'save');
  const cancelAction = screenAction(screen, 'cancel');
  const [data, setData] = useState<{ name?: string }>({});

  useEffect(() => {
    if (open) {
      setData(initialName ? { name: initialName } : {});
      clearFieldErrors();
    }
  }, [open, initialName]);

  const submit = (d: { name?: string }) => {
    const name = (d.name ?? '').trim();
    if (!name) return;
    try {
      saveQuery(adminId, name, sql);
    } catch {
      addErrorToast(t('sql.saveFailed'));
      return;
    }
    addSuccessToast(saveAction.success ?? '');
    onSaved();
    onClose();
  };

  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      header={screen.title}
      size="popup"
      className="sql-save-popup"
      footer={
        <>
          <button type="button" className="btn btn-transparent" onClick={onClose}>
            <span>{cancelAction.label}</span>
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary">
            <span>{saveAction.label}</span>
          </button>
        </>
      }
    >
      <SchemaForm id={FORM_ID} schema={form.schema} uiSchema={form.uiSchema} formData={data} onChange={setData} onSubmit={submit} />
    </OverlayPanel>
  );
}
