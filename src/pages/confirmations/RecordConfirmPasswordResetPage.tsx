// /users|auth/confirm-password-reset/{token}: a record user sets a new password.
import { useState } from 'react';
import { pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PasswordField, PublicCard, tokenCollectionId, useConfirmSubmit } from './shared';

export default function RecordConfirmPasswordResetPage({ token }: { token: string }) {
  usePageTitle('Reset password');
  const collectionId = tokenCollectionId(token);
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const { submitting, done, submit } = useConfirmSubmit(() => pb.collection(collectionId).confirmPasswordReset(token, password, passwordConfirm));

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
