/** Sets a new admin password with the emailed token (route /confirm-password-reset/{token}). */
import { useMemo, useState } from 'react';
import { handleError, pb } from '../../api/client';
import { navigate } from '../../shell/navigation';
import { addSuccessToast } from '../../shell/toasts';
import { SchemaForm } from '../../engine';
import { clearFieldErrors } from '../../engine/field-errors';
import { AuthCard } from './AuthCard';
import { screenForm } from './screen-form';
import { t } from '../../ui/i18n';

type Reset = { password?: string; passwordConfirm?: string };

const FORM_ID = 'confirm-password-reset-form';

/** The email claim of the reset token, to say whose password this is; '' when unreadable. */
function tokenEmail(token: string): string {
  try {
    const part = token.split('.')[1] ?? '';
    const payload = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof payload?.email === 'string' ? payload.email : '';
  } catch {
    return '';
  }
}

export default function ConfirmPasswordResetPage({ token }: { token: string }) {
  const { screen, schema, uiSchema, submit } = screenForm('confirm-password-reset');
  const [data, setData] = useState<Reset>({});
  const [busy, setBusy] = useState(false);
  const email = useMemo(() => tokenEmail(token), [token]);

  const reset = async (d: Reset) => {
    if (busy) return;
    setBusy(true);
    clearFieldErrors();
    try {
      await pb.admins.confirmPasswordReset(token, d.password ?? '', d.passwordConfirm ?? '');
      addSuccessToast(submit.success ?? '');
      navigate('/login');
    } catch (err) {
      handleError(err);
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={screen.title}
      footer={
        <a className="auth-link" href="#/login">
          ← {t('auth.backToLogin')}
        </a>
      }
    >
      {email && (
        <p className="auth-text">
          {t('auth.forEmail')} <strong>{email}</strong>
        </p>
      )}
      <SchemaForm id={FORM_ID} schema={schema} uiSchema={uiSchema} formData={data} onChange={setData} onSubmit={reset} disabled={busy} />
      <button type="submit" form={FORM_ID} className={`btn btn-primary auth-submit${busy ? ' btn-loading' : ''}`} disabled={busy}>
        <span>{submit.label}</span>
      </button>
    </AuthCard>
  );
}
