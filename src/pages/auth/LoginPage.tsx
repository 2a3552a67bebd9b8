/** Admin sign in: email (sent as `identity`) and password, prefilled from demoEmail/demoPassword. */
import { useState } from 'react';
import { ClientResponseError } from 'pocketbase';
import { handleError, pb } from '../../api/client';
import { signInAdmin } from '../../api/admin-session';
import { navigate, useRoute } from '../../shell/navigation';
import { SchemaForm } from '../../engine';
import { clearFieldErrors } from '../../engine/field-errors';
import { AuthCard } from './AuthCard';
import { queryParam, screenForm } from './screen-form';
import { t } from '../../ui/i18n';

type Login = { identity?: string; password?: string };

const FORM_ID = 'login-form';

export default function LoginPage() {
  const { screen, schema, uiSchema, submit } = screenForm('login');
  const { query } = useRoute();
  const [data, setData] = useState<Login>(() => ({ identity: queryParam(query, 'demoEmail'), password: queryParam(query, 'demoPassword') }));
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const login = async (d: Login) => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    clearFieldErrors();
    try {
      await signInAdmin(pb, d.identity ?? '', d.password ?? '');
      navigate('/');
    } catch (err) {
      // Wrong credentials read as the spec's message; anything else (network, rate limit) goes to the generic handler.
      if (err instanceof ClientResponseError && err.status === 400) setFailed(true);
      else handleError(err);
      setBusy(false);
    }
  };

  return (
    <AuthCard title={screen.title}>
      <SchemaForm
        id={FORM_ID}
        schema={schema}
        uiSchema={uiSchema}
        formData={data}
        onChange={(d) => {
          setData(d);
          setFailed(false);
        }}
        onSubmit={login}
        disabled={busy}
      />
      <div className="auth-row">
        <a className="auth-link" href="#/request-password-reset">
          {t('auth.forgotten')}
        </a>
      </div>
      {failed && (
        <div className="alert alert-danger" role="alert">
          {submit.error}
        </div>
      )}
      <button type="submit" form={FORM_ID} className={`btn btn-primary auth-submit${busy ? ' btn-loading' : ''}`} disabled={busy}>
        <span>{submit.label}</span>
      </button>
    </AuthCard>
  );
}
