// A clean stand-in for screens that come in later issues: the right title, the app shell and
// (for /settings/*) the settings sidebar.
import { usePageTitle } from './page-title';
import { Breadcrumbs, SettingsLayout } from './SettingsLayout';
import { PageSidebar } from './PageSidebar';

function ComingSoon({ title }: { title: string }) {
  return (
    <div className="empty-state placeholder-card">
      <h2 className="empty-state-title">{title}</h2>
      <p className="txt-hint">This screen is coming soon.</p>
    </div>
  );
}

export function SettingsPlaceholderPage({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={['Settings', title]} />
      </header>
      <div className="page-content">
        <ComingSoon title={title} />
      </div>
    </SettingsLayout>
  );
}

export function CollectionsPlaceholderPage() {
  usePageTitle('Collections');
  return (
    <div className="page-with-sidebar">
      <PageSidebar className="collections-sidebar" label="Collections">
        <div className="sidebar-title">Collections</div>
        <p className="txt-hint sidebar-note">The collections list is coming soon.</p>
      </PageSidebar>
      <main className="page-wrapper">
        <header className="page-header">
          <Breadcrumbs items={['Collections']} />
        </header>
        <div className="page-content">
          <ComingSoon title="Collections" />
        </div>
      </main>
    </div>
  );
}

export function LogsPlaceholderPage() {
  usePageTitle('Logs');
  return (
    <main className="page-wrapper">
      <header className="page-header">
        <Breadcrumbs items={['Logs']} />
      </header>
      <div className="page-content">
        <ComingSoon title="Logs" />
      </div>
    </main>
  );
}
