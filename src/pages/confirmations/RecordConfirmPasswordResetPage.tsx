// /users|auth/confirm-password-reset/{token}: a record user sets a new password.
import { useState, type FormEvent } from 'react';
import { pb, handleError } from '../../api/client';
import { usePageTitle } from '../../app/page-title';
import { clearFieldErrors } from '../../state/field-errors';
import { Alert, PasswordField, PublicCard, tokenCollectionId } from './shared';

export default function RecordConfirmPasswordResetPage({ token }: { token: string }) {
  usePageTitle('Reset password');
  const collectionId = tokenCollectionId(token);
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    clearFieldErrors();
    try {
      await pb.collection(collectionId).confirmPasswordReset(token, password, passwordConfirm);
      setDone(true);
    } catch (err) {
      handleError(err);
    } finally {
      setSubmitting(false);
    }
  };

  if (!collectionId) {
    return (
      <PublicCard title="Reset password">
        <Alert type="danger">Invalid or expired password reset link.</Alert>
      </PublicCard>
    );
  }

  if (done) {
    return (
      <PublicCard title="Reset password">
        <Alert type="success">Successfully changed the user password. You can now sign in with your new password.</Alert>
      </PublicCard>
    );
  }

  return (
    <PublicCard title="Reset password">
      <form className="stack" onSubmit={submit} noValidate>
        <p className="txt-hint">Type a new password for your account.</p>
        <PasswordField name="password" label="New password" value={password} onChange={setPassword} autoFocus />
        <PasswordField name="passwordConfirm" label="New password confirm" value={passwordConfirm} onChange={setPasswordConfirm} />
        <button type="submit" className={`btn btn-primary btn-block${submitting ? ' btn-loading' : ''}`} disabled={submitting}>
          Set new password
        </button>
      </form>
    </PublicCard>
  );
}
