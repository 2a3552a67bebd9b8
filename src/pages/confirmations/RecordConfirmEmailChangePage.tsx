// /users|auth/confirm-email-change/{token}: the user confirms the new email with their password.
import { useState } from 'react';
import { pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PasswordField, PublicCard, tokenCollectionId, useConfirmSubmit } from './shared';
import { getTokenPayload } from 'pocketbase';

export default function RecordConfirmEmailChangePage({ token }: { token: string }) {
  usePageTitle('Confirm email change');
  const collectionId = tokenCollectionId(token);
  const newEmail = String((getTokenPayload(token) as { newEmail?: unknown }).newEmail ?? '');
  const [password, setPassword] = useState('');
  const { submitting, done, submit } = useConfirmSubmit(() => pb.collection(collectionId).confirmEmailChange(token, password));

  if (!collectionId) {
    return (
      <PublicCard title="Confirm email change">
        <Alert type="danger">Invalid or expired email change link.</Alert>
      </PublicCard>
    );
  }

  if (done) {
    return (
      <PublicCard title="Confirm email change">
        <Alert type="success">Successfully changed the user email address. You can now sign in with your new email address.</Alert>
      </PublicCard>
    );
  }

  return (
    <PublicCard title="Confirm email change">
      <form className="stack" onSubmit={submit} noValidate>
        <p className="txt-hint">
          Type your password to confirm changing your email address{newEmail ? <> to <strong>{newEmail}</strong></> : null}.
        </p>
        <PasswordField name="password" label="Password" value={password} onChange={setPassword} autoFocus />
        <button type="submit" className={`btn btn-primary btn-block${submitting ? ' btn-loading' : ''}`} disabled={submitting}>
          Confirm new email
        </button>
      </form>
    </PublicCard>
  );
}
