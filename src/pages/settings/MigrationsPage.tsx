// #/settings/migrations: the JS migrations of the server's pb_migrations folder, applied and
// pending (read-only), from Outpost's admin-only GET /api/outpost/migrations. PocketBase 0.22 has
// no such route (404 'Not Found.'): the page then says the list is not available.
import { RefreshButton } from '../../shell/RefreshButton';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../../shell/SettingsLayout';
import { DateZoneLabel, FormattedDate } from '../../ui/FormattedDate';
import { useOutpostInfo } from './use-outpost-info';
import './migrations.css';
import { t } from '../../ui/i18n';
import { tRich } from '../../ui/rich-text';

// a command, no word
const MIGRATE_COMMAND = 'outpost migrate up';

interface MigrationEntry {
  file: string;
  applied: string | null;
  missing: boolean;
}

interface MigrationsAnswer {
  dir: string;
  automigrate: boolean;
  items: MigrationEntry[];
}

function Status({ entry }: { entry: MigrationEntry }) {
  if (entry.applied === null) return <span className="badge migrations-pending">{t('migrations.pending')}</span>;
  return (
    <>
      <span className="badge migrations-applied">{t('migrations.applied')}</span>
      {entry.missing && <span className="badge migrations-missing">{t('migrations.fileMissing')}</span>}
    </>
  );
}

export default function MigrationsPage() {
  usePageTitle(t('page.settingsMigrations'));
  const { state, load } = useOutpostInfo<MigrationsAnswer>('/api/outpost/migrations', 'settings_migrations');

  const items = state.kind === 'ready' ? state.data.items : [];
  const pending = items.filter((i) => i.applied === null).length;

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsMigrations')]} />
        <RefreshButton loading={state.kind === 'loading'} onClick={() => void load()} />
      </header>

      <div className="page-content">
        {state.kind === 'unavailable' && <p className="txt-hint">{t('migrations.unavailable')}</p>}
        {state.kind !== 'unavailable' && (
          <>
            <p className="migrations-intro">
              {state.kind === 'ready' ? (
                tRich(state.data.automigrate ? 'migrations.introOn' : 'migrations.introOff', {
                  dir: <code>{state.data.dir}</code>,
                  command: <code>{MIGRATE_COMMAND}</code>,
                  state: <strong>{t(state.data.automigrate ? 'migrations.on' : 'migrations.off')}</strong>,
                })
              ) : (
                t('migrations.loading')
              )}
            </p>
            <div className="table-wrapper">
              <table className="table migrations-table" aria-label={t('page.settingsMigrations')} aria-busy={state.kind === 'loading' || undefined}>
                <thead>
                  <tr>
                    <th scope="col">{t('migrations.file')}</th>
                    <th scope="col">{t('migrations.status')}</th>
                    <th scope="col">
                      {t('migrations.applied')} <DateZoneLabel />
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((entry) => (
                    <tr key={entry.file} data-status={entry.applied === null ? 'pending' : 'applied'}>
                      <td className="migrations-file">{entry.file}</td>
                      <td>
                        <Status entry={entry} />
                      </td>
                      <td className="txt-hint">{entry.applied ? <FormattedDate value={entry.applied} /> : '—'}</td>
                    </tr>
                  ))}
                  {state.kind === 'ready' && items.length === 0 && (
                    <tr>
                      <td colSpan={3} className="txt-hint">
                        {t('migrations.none')}
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            {state.kind === 'ready' && (
              <p className="txt-hint migrations-summary">
                {t('migrations.summary', { applied: items.length - pending, pending })}
              </p>
            )}
          </>
        )}
      </div>
    </SettingsLayout>
  );
}
