// #/settings/migrations: the JS migrations of the server's pb_migrations folder, applied and
// pending (read-only), from Outpost's admin-only GET /api/outpost/migrations. PocketBase 0.22 has
// no such route (404 'Not Found.'): the page then says the list is not available.
import { RefreshButton } from '../../shell/RefreshButton';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../../shell/SettingsLayout';
import { DateZoneLabel, FormattedDate } from '../../ui/FormattedDate';
import { useOutpostInfo } from './use-outpost-info';
import './migrations.css';

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
  if (entry.applied === null) return <span className="badge migrations-pending">Pending</span>;
  return (
    <>
      <span className="badge migrations-applied">Applied</span>
      {entry.missing && <span className="badge migrations-missing">File missing</span>}
    </>
  );
}

export default function MigrationsPage() {
  usePageTitle('Migrations');
  const { state, load } = useOutpostInfo<MigrationsAnswer>('/api/outpost/migrations', 'settings_migrations');

  const items = state.kind === 'ready' ? state.data.items : [];
  const pending = items.filter((i) => i.applied === null).length;

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={['Settings', 'Migrations']} />
        <RefreshButton loading={state.kind === 'loading'} onClick={() => void load()} />
      </header>

      <div className="page-content">
        {state.kind === 'unavailable' && <p className="txt-hint">This server does not list its migrations (the list is an Outpost feature).</p>}
        {state.kind !== 'unavailable' && (
          <>
            <p className="migrations-intro">
              {state.kind === 'ready' ? (
                <>
                  JS migrations in <code>{state.data.dir}</code>, applied at start and by <code>outpost migrate up</code>. Automigrate is{' '}
                  <strong>{state.data.automigrate ? 'on' : 'off'}</strong>: {state.data.automigrate ? 'every collection change made here writes a migration file.' : 'collection changes write no migration file.'}
                </>
              ) : (
                'Loading the migrations…'
              )}
            </p>
            <div className="table-wrapper">
              <table className="table migrations-table" aria-label="Migrations" aria-busy={state.kind === 'loading' || undefined}>
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      Applied <DateZoneLabel />
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
                        No migrations yet.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            {state.kind === 'ready' && (
              <p className="txt-hint migrations-summary">
                {items.length - pending} applied, {pending} pending
              </p>
            )}
          </>
        )}
      </div>
    </SettingsLayout>
  );
}
