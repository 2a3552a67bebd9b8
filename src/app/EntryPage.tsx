// The root route: installer flag -> clear the session and show the first-admin form; a valid
// admin session -> /collections; otherwise log out to /login.
import { lazy, useEffect, useState } from 'react';
import { currentLocation, navigate } from '../shell/navigation';
import { entryDecision } from '../shell/routes';
import { isAdminSignedIn, logout } from '../state/auth';
import { t } from '../ui/i18n';

const InstallerPage = lazy(() => import('../pages/auth/InstallerPage'));

export function EntryPage() {
  const [decision] = useState(() =>
    entryDecision({
      search: window.location.search,
      hashQuery: currentLocation().query,
      isAuthenticated: isAdminSignedIn(),
    }),
  );

  useEffect(() => {
    if (decision.action === 'installer') logout(false);
    else if (decision.action === 'redirect') navigate(decision.to, { replace: true });
    else logout(true);
  }, [decision]);

  if (decision.action === 'installer') return <InstallerPage />;
  return <div className="page-loader" aria-busy="true" aria-label={t('common.loading')} />;
}
