// A screen of an area the signed-in admin's role does not grant is not drawn: every request it
// makes would be refused, and an empty form says nothing. The explanation stands in its place
// (src/shell/NoAccess.tsx). Screens needing an area wait for the admin's role to be read (one
// request per session); screens open to every admin draw at once.
import { useEffect, type ReactNode } from 'react';
import { mayOpen, type RouteDef } from '../shell/routes';
import { NoAccess } from '../shell/NoAccess';
import { useAuth } from '../state/auth';
import { loadAccess, useKnownAccess } from '../state/permissions';
import { t } from '../ui/i18n';

export function RouteGate({ route, children }: { route: RouteDef | null; children: ReactNode }) {
  const { admin } = useAuth();
  const access = useKnownAccess(admin?.id);
  const gated = !!route?.area && !!admin;
  useEffect(() => {
    if (gated && !access) void loadAccess();
  }, [gated, access]);
  if (!gated || !route?.area) return children;
  if (!access) return <div className="page-loader" aria-busy="true" aria-label={t('common.loading')} />;
  if (mayOpen(access, route.area)) return children;
  return (
    <main className="page-wrapper no-access-page">
      <header className="page-header">
        <nav className="breadcrumbs" aria-label={t('common.breadcrumb')}>
          <span className="breadcrumb-item" aria-current="page">
            {t(route.title)}
          </span>
        </nav>
      </header>
      <div className="page-content">
        <NoAccess reason={route.area === 'full' ? { kind: 'full', screen: t(route.title) } : { kind: 'area', area: route.area }} headingLevel={1} />
      </div>
    </main>
  );
}
