// /users|auth/confirm-email-change/{token}: the user confirms the new email with their password.
import { useState, type FormEvent } from 'react';
import { pb, handleError } from '../../api/client';
import { usePageTitle } from '../../app/page-title';
import { clearFieldErrors } from '../../state/field-errors';
import { Alert, PasswordField, PublicCard, tokenCollectionId } from './shared';
import { getTokenPayload } from 'pocketbase';

export default function RecordConfirmEmailChangePage({ token }: { token: string }) {
  usePageTitle('Confirm email change');
  const collectionId = tokenCollectionId(token);
  const newEmail = String((getTokenPayload(token) as { newEmail?: unknown }).newEmail ?? '');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    clearFieldErrors();
    try {
      await pb.collection(collectionId).confirmEmailChange(token, password);
      setDone(true);
    } catch (err) {
      handleError(err);
    } finally {
      setSubmitting(false);
    }
  };

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
