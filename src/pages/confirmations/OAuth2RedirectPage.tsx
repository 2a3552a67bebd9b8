// /auth/oauth2-redirect-success and -failure: the page an OAuth2 popup lands on.
import { useEffect } from 'react';
import { usePageTitle } from '../../shell/page-title';
import { Alert, PublicCard } from './shared';

export default function OAuth2RedirectPage({ success }: { success: boolean }) {
  const title = success ? 'OAuth2 auth completed' : 'OAuth2 auth failed';
  usePageTitle(title);

  useEffect(() => {
    if (!success) return;
    // Opened as a popup by the app: try to close it (browsers ignore this for normal tabs).
    const t = setTimeout(() => {
      if (window.opener) window.close();
    }, 500);
    return () => clearTimeout(t);
  }, [success]);

  return (
    <PublicCard title={title}>
      {success ? (
        <Alert type="success">Auth completed. You can go back to the app if this window is not closed automatically.</Alert>
      ) : (
        <Alert type="danger">Auth failed. You can close this window and go back to the app to try again.</Alert>
      )}
    </PublicCard>
  );
}
