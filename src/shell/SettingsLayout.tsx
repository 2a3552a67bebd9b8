// Settings screens: the settings sidebar and the content area.
import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { PageSidebar } from './PageSidebar';
import { useRoute } from './navigation';
import { visibleSettingsLinks, type SettingsLink } from './routes';
import { appState } from '../state/app';
import { t } from '../ui/i18n';
import { useAccess } from '../state/permissions';

const GROUPS: Array<{ key: SettingsLink['group']; title: string }> = [
  { key: 'system', title: 'settings.group.system' },
  { key: 'sync', title: 'settings.group.sync' },
  { key: 'auth', title: 'settings.group.auth' },
];

function SettingsSidebar() {
  const { path } = useRoute();
  const { hideControls } = useSnapshot(appState);
  const links = visibleSettingsLinks(hideControls, useAccess());
  return (
    <PageSidebar className="settings-sidebar" label={t('nav.settings')}>
      <nav aria-label={t('nav.settings')}>
        {GROUPS.map((g) => {
          const items = links.filter((l) => l.group === g.key);
          if (items.length === 0) return null;
          return (
            <div className="sidebar-group" key={g.key}>
              <div className="sidebar-title">{t(g.title)}</div>
              {items.map((l) => {
                const active = path === l.path;
                return (
                  <a
                    key={l.path}
                    href={'#' + l.path}
                    className={`sidebar-list-item${active ? ' active' : ''}`}
                    aria-current={active ? 'page' : undefined}
                  >
                    {t(l.label)}
                  </a>
                );
              })}
            </div>
          );
        })}
      </nav>
    </PageSidebar>
  );
}

export function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="page-with-sidebar">
      <SettingsSidebar />
      <main className="page-wrapper">{children}</main>
    </div>
  );
}

export function Breadcrumbs({ items }: { items: readonly string[] }) {
  return (
    <nav className="breadcrumbs" aria-label={t('common.breadcrumb')}>
      {items.map((item, i) => (
        <span key={i} className="breadcrumb-item" aria-current={i === items.length - 1 ? 'page' : undefined}>
          {item}
        </span>
      ))}
    </nav>
  );
}
