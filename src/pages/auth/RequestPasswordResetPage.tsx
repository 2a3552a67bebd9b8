/** Asks for an admin recovery link; the answer is the same whether or not the email exists. */
import { useState } from 'react';
import { handleError, pb } from '../../api/client';
import { SchemaForm } from '../../engine';
import { clearFieldErrors } from '../../engine/field-errors';
import { AuthCard } from './AuthCard';
import { screenForm } from './screen-form';
import { t } from '../../ui/i18n';

type Request = { email?: string };

const FORM_ID = 'request-password-reset-form';

export default function RequestPasswordResetPage() {
  const { screen, schema, uiSchema, submit } = screenForm('request-password-reset');
  const [data, setData] = useState<Request>({});
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState('');

  const send = async (d: Request) => {
    if (busy) return;
    setBusy(true);
    clearFieldErrors();
    try {
      await pb.admins.requestPasswordReset(d.email ?? '');
      setSentTo(d.email ?? '');
    } catch (err) {
      handleError(err);
    } finally {
      setBusy(false);
    }
  };

  // "Check {email} for the recovery link." with the address in bold.
  const [before, after] = (submit.success ?? '{email}').split('{email}');
  return (
    <AuthCard
      title={screen.title}
      footer={
        <a className="auth-link" href="#/login">
          ← {t('auth.backToLogin')}
        </a>
      }
    >
      {sentTo ? (
        <div className="alert alert-success" role="status">
          {before}
          <strong>{sentTo}</strong>
          {after}
        </div>
      ) : (
        <>
          <p className="auth-text">{t('auth.requestText')}</p>
          <SchemaForm id={FORM_ID} schema={schema} uiSchema={uiSchema} formData={data} onChange={setData} onSubmit={send} disabled={busy} />
          <button type="submit" form={FORM_ID} className={`btn btn-primary auth-submit${busy ? ' btn-loading' : ''}`} disabled={busy}>
            <span>{submit.label}</span>
          </button>
        </>
      )}
    </AuthCard>
  );
}
