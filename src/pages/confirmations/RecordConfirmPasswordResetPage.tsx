// /users|auth/confirm-password-reset/{token}: a record user sets a new password.
import { useState } from 'react';
import { pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PasswordField, PublicCard, tokenCollectionId, useConfirmSubmit } from './shared';
import { t } from '../../ui/i18n';

export default function RecordConfirmPasswordResetPage({ token }: { token: string }) {
  const title = t('page.recordConfirmPasswordReset');
  usePageTitle(title);
  const collectionId = tokenCollectionId(token);
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const { submitting, done, submit } = useConfirmSubmit(() => pb.collection(collectionId).confirmPasswordReset(token, password, passwordConfirm));

  if (!collectionId) {
    return (
      <PublicCard title={title}>
        <Alert type="danger">{t('confirmations.resetInvalid')}</Alert>
      </PublicCard>
    );
  }

  if (done) {
    return (
      <PublicCard title={title}>
        <Alert type="success">{t('confirmations.passwordChanged')}</Alert>
      </PublicCard>
    );
  }

  return (
    <PublicCard title={title}>
      <form className="stack" onSubmit={submit} noValidate>
        <p className="txt-hint">{t('confirmations.resetText')}</p>
        <PasswordField name="password" label={t('confirmations.newPassword')} value={password} onChange={setPassword} autoFocus />
        <PasswordField name="passwordConfirm" label={t('confirmations.newPasswordConfirm')} value={passwordConfirm} onChange={setPasswordConfirm} />
        <button type="submit" className={`btn btn-primary btn-block${submitting ? ' btn-loading' : ''}`} disabled={submitting}>
          {t('confirmations.setNewPassword')}
        </button>
      </form>
    </PublicCard>
  );
}
