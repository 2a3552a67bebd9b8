// /users|auth/confirm-verification/{token}: calls the API once and says the result.
import { useEffect, useState } from 'react';
import { pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PublicCard, tokenCollectionId } from './shared';
import { t } from '../../ui/i18n';

type Status = 'loading' | 'success' | 'error';

export default function RecordConfirmVerificationPage({ token }: { token: string }) {
  const title = t('page.recordConfirmVerification');
  usePageTitle(title);
  const collectionId = tokenCollectionId(token);
  const [status, setStatus] = useState<Status>(collectionId ? 'loading' : 'error');

  useEffect(() => {
    if (!collectionId) return;
    let cancelled = false;
    pb.collection(collectionId)
      .confirmVerification(token, { requestKey: null })
      .then(() => !cancelled && setStatus('success'))
      .catch((err) => {
        if (!cancelled && !err?.isAbort) setStatus('error');
      });
    return () => {
      cancelled = true;
    };
  }, [collectionId, token]);

  return (
    <PublicCard title={title}>
      {status === 'loading' && <p className="txt-hint loading-text">{t('confirmations.verifying')}</p>}
      {status === 'success' && <Alert type="success">{t('confirmations.verified')}</Alert>}
      {status === 'error' && <Alert type="danger">{t('confirmations.verifyInvalid')}</Alert>}
    </PublicCard>
  );
}
