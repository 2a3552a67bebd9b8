// #/logs: the page header (settings button opening the Logs settings popup, refresh). The logs
// list, chart and detail panel come with the logs issue.
import { useState } from 'react';
import { IconSettings } from '../../app/icons';
import { RefreshButton } from '../../app/RefreshButton';
import { usePageTitle } from '../../app/page-title';
import { Breadcrumbs } from '../../app/SettingsLayout';
import { ScreenView } from '../../engine/ScreenView';

export default function LogsPage() {
  usePageTitle('Logs');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [refreshes, setRefreshes] = useState(0);
  return (
    <main className="page-wrapper">
      <header className="page-header">
        <Breadcrumbs items={['Logs']} />
        <button
          type="button"
          className="btn btn-transparent btn-circle btn-sm"
          aria-label="Logs settings"
          title="Logs settings"
          onClick={() => setSettingsOpen(true)}
        >
          <IconSettings size={16} />
        </button>
        <RefreshButton onClick={() => setRefreshes((n) => n + 1)} />
      </header>
      <div className="page-content">
        <div className="empty-state placeholder-card" key={refreshes}>
          <h2 className="empty-state-title">Logs</h2>
          <p className="txt-hint">The logs list is coming soon.</p>
        </div>
      </div>
      <ScreenView name="logs-settings" open={settingsOpen} onClose={() => setSettingsOpen(false)} onDone={() => setSettingsOpen(false)} />
    </main>
  );
}
