// /users|auth/confirm-email-change/{token}: the user confirms the new email with their password.
import { useState } from 'react';
import { pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PasswordField, PublicCard, tokenCollectionId, useConfirmSubmit } from './shared';
import { getTokenPayload } from 'pocketbase';
import { t } from '../../ui/i18n';
import { tRich } from '../../ui/rich-text';

export default function RecordConfirmEmailChangePage({ token }: { token: string }) {
  const title = t('page.recordConfirmEmailChange');
  usePageTitle(title);
  const collectionId = tokenCollectionId(token);
  const newEmail = String((getTokenPayload(token) as { newEmail?: unknown }).newEmail ?? '');
  const [password, setPassword] = useState('');
  const { submitting, done, submit } = useConfirmSubmit(() => pb.collection(collectionId).confirmEmailChange(token, password));

  if (!collectionId) {
    return (
      <PublicCard title={title}>
        <Alert type="danger">{t('confirmations.emailChangeInvalid')}</Alert>
      </PublicCard>
    );
  }

  if (done) {
    return (
      <PublicCard title={title}>
        <Alert type="success">{t('confirmations.emailChanged')}</Alert>
      </PublicCard>
    );
  }

  return (
    <PublicCard title={title}>
      <form className="stack" onSubmit={submit} noValidate>
        <p className="txt-hint">
          {newEmail ? tRich('confirmations.emailChangeTextTo', { email: <strong>{newEmail}</strong> }) : t('confirmations.emailChangeText')}
        </p>
        <PasswordField name="password" label={t('confirmations.password')} value={password} onChange={setPassword} autoFocus />
        <button type="submit" className={`btn btn-primary btn-block${submitting ? ' btn-loading' : ''}`} disabled={submitting}>
          {t('confirmations.confirmNewEmail')}
        </button>
      </form>
    </PublicCard>
  );
}
