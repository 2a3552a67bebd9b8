/**
 * New/edit role panel (Settings › Admins, full admins only). The form and its rules come from
 * schemas/roles/role.*; titles, labels and messages from screens/role-editor.json. The server
 * validates the same file (POST/PATCH /api/outpost/roles).
 */
import { useEffect, useState } from 'react';
import { handleError, pb } from '../../api/client';
import { confirm } from '../../shell/confirm';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { addSuccessToast } from '../../shell/toasts';
import { SchemaForm, getForm, getScreen, screenAction } from '../../engine';
import { clearFieldErrors } from '../../engine/field-errors';
import type { RoleDoc } from '../../lib/roles';
import type { ListedRole } from '../../state/roles';
import { ensureCollections } from '../../state/collections';
import { t } from '../../ui/i18n';

export type RoleEditorPanelProps = {
  role: ListedRole | null;
  open: boolean;
  onClose(): void;
  onChanged(): void;
};

type RoleForm = Partial<RoleDoc> & { id?: string };

const FORM_ID = 'role-editor-form';
const screen = getScreen('role-editor');
const form = getForm(screen.sections[0].schema);
const saveAction = screenAction(screen, 'save');
const deleteAction = screenAction(screen, 'delete');
const closeAction = screenAction(screen, 'close');

const initialData = (role: ListedRole | null): RoleForm =>
  role ? { id: role.id, name: role.name, collections: role.collections, areas: role.areas } : { name: '', collections: [], areas: {} };

const payload = (d: RoleForm) => ({ name: d.name ?? '', collections: d.collections ?? [], areas: d.areas ?? {} });

export default function RoleEditorPanel({ role, open, onClose, onChanged }: RoleEditorPanelProps) {
  const isNew = !role;
  const [data, setData] = useState<RoleForm>(() => initialData(role));
  const [pristine, setPristine] = useState<RoleForm>(() => initialData(role));
  const [formKey, setFormKey] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    // the collection picker's choices
    void ensureCollections();
    const start = initialData(role);
    setData(start);
    setPristine(start);
    setFormKey((k) => k + 1);
    clearFieldErrors();
  }, [open, role]);

  const dirty = JSON.stringify(payload(data)) !== JSON.stringify(payload(pristine));
  const canSave = !busy && (isNew ? !!data.name : dirty);

  const save = async (d: RoleForm) => {
    if (!canSave) return;
    setBusy(true);
    clearFieldErrors();
    try {
      await pb.send(isNew ? '/api/outpost/roles' : `/api/outpost/roles/${role.id}`, { method: isNew ? 'POST' : 'PATCH', body: payload(d) });
      addSuccessToast((isNew ? saveAction.successNew : saveAction.success) ?? '');
      onChanged();
      onClose();
    } catch (err) {
      handleError(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = () => {
    if (!role) return;
    confirm(deleteAction.confirm ?? '', async () => {
      try {
        await pb.send(`/api/outpost/roles/${role.id}`, { method: 'DELETE' });
        addSuccessToast(deleteAction.success ?? '');
        onChanged();
        onClose();
      } catch (err) {
        handleError(err);
      }
    });
  };

  const beforeHide = () =>
    busy ? false : !dirty || new Promise<boolean>((resolve) => confirm(closeAction.confirm ?? '', () => resolve(true), () => resolve(false)));

  const footer = (
    <>
      {!isNew && (
        <button type="button" className="btn btn-transparent txt-danger" onClick={remove} disabled={busy}>
          {deleteAction.label}
        </button>
      )}
      <div className="flex-fill" />
      <button type="button" className="btn btn-transparent" onClick={async () => (await beforeHide()) && onClose()} disabled={busy}>
        {closeAction.label}
      </button>
      <button type="submit" form={FORM_ID} className={`btn btn-primary${busy ? ' btn-loading' : ''}`} disabled={!canSave}>
        <span>{isNew ? saveAction.labelNew : saveAction.label}</span>
      </button>
    </>
  );

  const title = isNew ? screen.titleNew : screen.title;
  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      beforeHide={beforeHide}
      header={<h2 className="overlay-panel-title">{title}</h2>}
      ariaLabel={title}
      footer={footer}
      size="md"
      className="role-editor-panel"
    >
      <p className="txt-hint role-editor-note">{t('roles.note')}</p>
      <SchemaForm
        key={formKey}
        id={FORM_ID}
        schema={form.schema}
        uiSchema={form.uiSchema}
        formData={data}
        pristine={pristine}
        onChange={setData}
        onSubmit={save}
        disabled={busy}
      />
    </OverlayPanel>
  );
}
