/**
 * New/edit admin panel. The form, its conditions
 * (password when creating or when "Change password" is on) and its rules come from
 * schemas/admins/admin-editor.*; titles, labels and messages from screens/admin-editor.json.
 */
import { useEffect, useState } from 'react';
import { handleError, pb, type AdminModel } from '../../api/client';
import { confirm } from '../../shell/confirm';
import { MoreMenu } from '../../shell/MoreMenu';
import { OverlayPanel } from '../../ui/OverlayPanel';
import { addSuccessToast } from '../../shell/toasts';
import { SchemaForm, getForm, getScreen, screenAction } from '../../engine';
import { updateCurrentAdmin } from '../../state/auth';
import { clearFieldErrors } from '../../engine/field-errors';
import { useSnapshot } from 'valtio';
import { useAccess } from '../../state/permissions';
import { rolesState } from '../../state/roles';
import './admin-editor.css';

export type AdminEditorPanelProps = {
  admin: AdminModel | null;
  open: boolean;
  onClose(): void;
  onSaved(admin: AdminModel): void;
  onDeleted(id: string): void;
  /** After a role was given (full admins only). */
  onRoleChanged?(): void;
};

type AdminForm = {
  id?: string;
  email?: string;
  avatar?: number;
  changePassword?: boolean;
  password?: string;
  passwordConfirm?: string;
};

const FORM_ID = 'admin-editor-form';

const initialData = (admin: AdminModel | null): AdminForm =>
  admin ? { id: admin.id, email: admin.email, avatar: admin.avatar ?? 0, changePassword: false } : { avatar: 0 };

/** The request body: the password only when creating or changing it (the form keeps typed values). */
function payload(d: AdminForm, isNew: boolean) {
  const body: Record<string, unknown> = { email: d.email, avatar: d.avatar ?? 0 };
  if (isNew || d.changePassword) Object.assign(body, { password: d.password, passwordConfirm: d.passwordConfirm });
  return body;
}

export default function AdminEditorPanel({ admin, open, onClose, onSaved, onDeleted, onRoleChanged }: AdminEditorPanelProps) {
  // read on each render: the words follow the language
  const screen = getScreen('admin-editor');
  const form = getForm(screen.sections[0].schema);
  const roleSection = screen.sections[1];
  const roleForm = getForm(roleSection.schema);
  const saveAction = screenAction(screen, 'save');
  const deleteAction = screenAction(screen, 'delete');
  const closeAction = screenAction(screen, 'close');
  const isNew = !admin;
  const access = useAccess();
  const roles = useSnapshot(rolesState);
  const heldRole = admin ? (roles.holders[admin.id] ?? '') : '';
  const [role, setRole] = useState<{ role?: string }>({ role: heldRole });
  useEffect(() => setRole({ role: heldRole }), [heldRole, open]);
  const roleDirty = (role.role ?? '') !== heldRole;
  const [data, setData] = useState<AdminForm>(() => initialData(admin));
  const [pristine, setPristine] = useState<AdminForm>(() => initialData(admin));
  const [formKey, setFormKey] = useState(0);
  const [busy, setBusy] = useState(false);

  // Each opening starts from the admin as loaded, with no stale server errors.
  useEffect(() => {
    if (!open) return;
    const start = initialData(admin);
    setData(start);
    setPristine(start);
    setFormKey((k) => k + 1);
    clearFieldErrors();
  }, [open, admin]);

  const dirty = JSON.stringify(payload(data, isNew)) !== JSON.stringify(payload(pristine, isNew)) || !!data.changePassword || roleDirty;
  // Save is enabled for a new admin with an email, or for a password change or changed email/avatar.
  const canSave = !busy && (isNew ? !!data.email : dirty);

  const save = async (d: AdminForm) => {
    if (!canSave) return;
    setBusy(true);
    clearFieldErrors();
    try {
      const adminChanged = isNew || JSON.stringify(payload(d, false)) !== JSON.stringify(payload(pristine, false)) || !!d.changePassword;
      const saved = isNew
        ? await pb.admins.create<AdminModel>(payload(d, true))
        : adminChanged
          ? await pb.admins.update<AdminModel>(admin.id, payload(d, false))
          : admin;
      if (access.full && (role.role ?? '') !== heldRole) {
        await pb.send(`/api/outpost/admin-roles/${saved.id}`, { method: 'PUT', body: { role: role.role ?? '' } });
        onRoleChanged?.();
      }
      addSuccessToast((isNew ? saveAction.successNew : saveAction.success) ?? '');
      // After saving the current admin, the stored model is refreshed.
      if (pb.authStore.model?.id === saved.id) updateCurrentAdmin(saved);
      onSaved(saved);
      onClose();
    } catch (err) {
      handleError(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = () => {
    if (!admin) return;
    confirm(deleteAction.confirm ?? '', async () => {
      try {
        await pb.admins.delete(admin.id);
        addSuccessToast(deleteAction.success ?? '');
        onDeleted(admin.id);
        onClose();
      } catch (err) {
        handleError(err);
      }
    });
  };

  const beforeHide = () =>
    busy
      ? false
      : !dirty || new Promise<boolean>((resolve) => confirm(closeAction.confirm ?? '', () => resolve(true), () => resolve(false)));

  const requestClose = async () => {
    if (await beforeHide()) onClose();
  };

  const header = (
    <div className="admin-editor-header">
      <h2 className="overlay-panel-title">{isNew ? screen.titleNew : screen.title}</h2>
      {!isNew && (
        <MoreMenu className="admin-editor-menu" dropdownClassName="admin-editor-dropdown">
          {(close) => (
            <button type="button" role="menuitem" className="dropdown-item txt-danger" onClick={() => (close(), remove())}>
              {deleteAction.label}
            </button>
          )}
        </MoreMenu>
      )}
    </div>
  );

  const footer = (
    <>
      <button type="button" className="btn btn-transparent" onClick={requestClose} disabled={busy}>
        {closeAction.label}
      </button>
      <button type="submit" form={FORM_ID} className={`btn btn-primary${busy ? ' btn-loading' : ''}`} disabled={!canSave}>
        <span>{isNew ? saveAction.labelNew : saveAction.label}</span>
      </button>
    </>
  );

  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      beforeHide={beforeHide}
      header={header}
      ariaLabel={isNew ? screen.titleNew : screen.title}
      footer={footer}
      size="sm"
      className="admin-editor-panel"
    >
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
      {access.full && (
        <div className="admin-editor-role">
          <h3 className="section-title">{roleSection.title}</h3>
          <SchemaForm id="admin-role-form" schema={roleForm.schema} uiSchema={roleForm.uiSchema} formData={role} onChange={setRole} onSubmit={() => void save(data)} disabled={busy} />
        </div>
      )}
    </OverlayPanel>
  );
}
