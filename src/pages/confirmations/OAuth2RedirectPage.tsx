// /auth/oauth2-redirect-success and -failure: the page an OAuth2 popup lands on.
import { useEffect } from 'react';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PublicCard } from './shared';
import { t } from '../../ui/i18n';

export default function OAuth2RedirectPage({ success }: { success: boolean }) {
  const title = t(success ? 'page.oauth2RedirectSuccess' : 'page.oauth2RedirectFailure');
  usePageTitle(title);

  useEffect(() => {
    if (!success) return;
    // Opened as a popup by the app: try to close it (browsers ignore this for normal tabs).
    const timer = setTimeout(() => {
      if (window.opener) window.close();
    }, 500);
    return () => clearTimeout(timer);
  }, [success]);

  return (
    <PublicCard title={title}>
      {success ? (
        <Alert type="success">{t('confirmations.oauth2Completed')}</Alert>
      ) : (
        <Alert type="danger">{t('confirmations.oauth2Failed')}</Alert>
      )}
    </PublicCard>
  );
}
