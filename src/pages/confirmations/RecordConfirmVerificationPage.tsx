// /users|auth/confirm-verification/{token}: calls the API once and says the result.
import { useEffect, useState } from 'react';
import { pb } from '../../api/client';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PublicCard, tokenCollectionId } from './shared';

type Status = 'loading' | 'success' | 'error';

export default function RecordConfirmVerificationPage({ token }: { token: string }) {
  usePageTitle('Email verification');
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
    <PublicCard title="Email verification">
      {status === 'loading' && <p className="txt-hint loading-text">Verifying your email address...</p>}
      {status === 'success' && <Alert type="success">Successfully verified email address.</Alert>}
      {status === 'error' && <Alert type="danger">Invalid or expired verification token.</Alert>}
    </PublicCard>
  );
}
