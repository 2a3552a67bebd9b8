/** The first-admin form: create the admin, sign in, reload clean. */
import { useState } from 'react';
import { handleError, pb } from '../../api/client';
import { signInAdmin } from '../../api/admin-session';
import { SchemaForm } from '../../engine';
import { clearFieldErrors } from '../../engine/field-errors';
import { AuthCard } from './AuthCard';
import { screenForm } from './screen-form';

type Installer = { email?: string; password?: string; passwordConfirm?: string };

const FORM_ID = 'installer-form';

export default function InstallerPage() {
  const { screen, schema, uiSchema, submit } = screenForm('installer');
  const [data, setData] = useState<Installer>({});
  const [busy, setBusy] = useState(false);

  const create = async (d: Installer) => {
    if (busy) return;
    setBusy(true);
    clearFieldErrors();
    try {
      await pb.admins.create({ email: d.email, password: d.password, passwordConfirm: d.passwordConfirm });
      await signInAdmin(pb, d.email ?? '', d.password ?? '');
      // Reload without the installer flag so the app starts signed in.
      window.history.replaceState(null, '', `${window.location.pathname}#/collections`);
      window.location.reload();
    } catch (err) {
      handleError(err);
      setBusy(false);
    }
  };

  return (
    <AuthCard title={screen.title}>
      <SchemaForm id={FORM_ID} schema={schema} uiSchema={uiSchema} formData={data} onChange={setData} onSubmit={create} disabled={busy} />
      <button type="submit" form={FORM_ID} className={`btn btn-primary auth-submit${busy ? ' btn-loading' : ''}`} disabled={busy}>
        <span>{submit.label}</span>
      </button>
    </AuthCard>
  );
}
