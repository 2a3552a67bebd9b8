// #/settings/hooks: the server's pb_hooks (read-only), from Outpost's admin-only
// GET /api/outpost/hooks: the loaded files, each registered hook with its tags (and whether Outpost
// fires it yet), the custom routes, the cron jobs with their next run and last result, and the last
// load or run errors. PocketBase 0.22 has no such route (404 'Not Found.'): the page then says the
// information is not available.
import type { ReactNode } from 'react';
import { RefreshButton } from '../../../shell/RefreshButton';
import { usePageTitle } from '../../../shell/page-title';
import { Breadcrumbs, SettingsLayout } from '../../../shell/SettingsLayout';
import { FormattedDate } from '../../../ui/FormattedDate';
import { useOutpostInfo } from '../use-outpost-info';
import './hooks.css';

interface HookError {
  at: string;
  kind: 'load' | 'hook' | 'route' | 'cron';
  source: string;
  place: string;
  message: string;
  stack: string;
}

interface CronRun {
  at: string;
  ok: boolean;
  ms: number;
  error?: string;
}

interface HooksAnswer {
  dir: string | null;
  watch: boolean;
  pool: number;
  running: boolean;
  loadedAt: string | null;
  loadError: HookError | null;
  files: Array<{ file: string; hooks: number; routes: number; crons: number }>;
  hooks: Array<{ name: string; tags: string[]; file: string; fired: boolean }>;
  routes: Array<{ method: string; path: string; middlewares: string[]; file: string }>;
  routerUse: Array<{ middlewares: string[]; file: string }>;
  crons: Array<{ job: string; expr: string; file: string; nextRun: string | null; lastRun: CronRun | null }>;
  errors: HookError[];
}

const KIND_LABEL: Record<HookError['kind'], string> = { load: 'Load', hook: 'Hook', route: 'Route', cron: 'Cron job' };

/** A titled table; `empty` fills its one row when there is nothing to list. */
function Section({ title, columns, count, empty, children }: { title: string; columns: string[]; count: number; empty: string; children: ReactNode }) {
  const id = `hooks-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="hooks-section" aria-labelledby={id}>
      <h2 className="hooks-section-title" id={id}>
        {title} <span className="hooks-count">{count}</span>
      </h2>
      <div className="table-wrapper">
        <table className="table hooks-table" aria-labelledby={id}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {children}
            {count === 0 && (
              <tr>
                <td colSpan={columns.length} className="txt-hint">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ErrorDetails({ error }: { error: HookError }) {
  const more = error.stack && error.stack !== error.message;
  return (
    <>
      <div className="hooks-error-message">{error.message}</div>
      {more && (
        <details className="hooks-stack">
          <summary>Stack trace</summary>
          <pre>{error.stack}</pre>
        </details>
      )}
    </>
  );
}

function Intro({ data }: { data: HooksAnswer }) {
  if (data.dir === null) return <p className="hooks-intro">JS hooks are off: this server was started without a hooks folder.</p>;
  return (
    <p className="hooks-intro">
      JS hooks from <code>{data.dir}</code>
      {data.running && data.loadedAt ? (
        <>
          , loaded <FormattedDate value={data.loadedAt} withZone />
        </>
      ) : null}
      . Up to {data.pool} executors run them.{' '}
      {data.watch ? 'A change to the files reloads them.' : 'A change to the files takes effect at the next start.'}
    </p>
  );
}

function Details({ data }: { data: HooksAnswer }) {
  return (
    <>
      <Section title="Files" columns={['File', 'Hooks', 'Routes', 'Cron jobs']} count={data.files.length} empty="No hook files.">
        {data.files.map((f) => (
          <tr key={f.file}>
            <td className="hooks-mono">{f.file}</td>
            <td>{f.hooks}</td>
            <td>{f.routes}</td>
            <td>{f.crons}</td>
          </tr>
        ))}
      </Section>

      <Section title="Hooks" columns={['Hook', 'Tags', 'File', 'Status']} count={data.hooks.length} empty="No hooks registered.">
        {data.hooks.map((h, i) => (
          <tr key={i}>
            <td className="hooks-mono">{h.name}</td>
            <td>{h.tags.length ? h.tags.map((t) => <span className="badge badge-plain hooks-tag" key={t}>{t}</span>) : <span className="txt-hint">any</span>}</td>
            <td className="hooks-mono txt-hint">{h.file}</td>
            <td>{h.fired ? <span className="badge hooks-fired">Runs</span> : <span className="badge hooks-not-fired">Not fired by Outpost yet</span>}</td>
          </tr>
        ))}
      </Section>

      <Section title="Routes" columns={['Method', 'Path', 'Middlewares', 'File']} count={data.routes.length + data.routerUse.length} empty="No routes added.">
        {data.routerUse.map((u, i) => (
          <tr key={`use-${i}`}>
            <td className="txt-hint">All</td>
            <td className="txt-hint">every route (routerUse)</td>
            <td className="hooks-mono">{u.middlewares.join(', ')}</td>
            <td className="hooks-mono txt-hint">{u.file}</td>
          </tr>
        ))}
        {data.routes.map((r, i) => (
          <tr key={i}>
            <td>
              <span className="badge badge-plain hooks-method">{r.method}</span>
            </td>
            <td className="hooks-mono">{r.path}</td>
            <td className="hooks-mono">{r.middlewares.length ? r.middlewares.join(', ') : <span className="txt-hint">none</span>}</td>
            <td className="hooks-mono txt-hint">{r.file}</td>
          </tr>
        ))}
      </Section>

      <Section title="Cron jobs" columns={['Job', 'Schedule (UTC)', 'Next run', 'Last run', 'File']} count={data.crons.length} empty="No cron jobs.">
        {data.crons.map((c) => (
          <tr key={c.job}>
            <td className="hooks-mono">{c.job}</td>
            <td className="hooks-mono">{c.expr}</td>
            <td>{c.nextRun ? <FormattedDate value={c.nextRun} withZone /> : <span className="txt-hint">—</span>}</td>
            <td>
              {c.lastRun ? (
                <>
                  <FormattedDate value={c.lastRun.at} withZone /> <span className={`badge ${c.lastRun.ok ? 'hooks-ok' : 'hooks-failed'}`}>{c.lastRun.ok ? 'OK' : 'Failed'}</span>{' '}
                  <span className="txt-hint">{c.lastRun.ms} ms</span>
                  {c.lastRun.error && <div className="hooks-error-message">{c.lastRun.error}</div>}
                </>
              ) : (
                <span className="txt-hint">Not run yet</span>
              )}
            </td>
            <td className="hooks-mono txt-hint">{c.file}</td>
          </tr>
        ))}
      </Section>

      <Section title="Recent errors" columns={['When', 'Where', 'Error']} count={data.errors.length} empty="No errors since the hooks were loaded.">
        {data.errors.map((e, i) => (
          <tr key={i} className="hooks-error-row">
            <td className="hooks-when">
              <FormattedDate value={e.at} withZone />
            </td>
            <td className="hooks-where">
              <div>
                {KIND_LABEL[e.kind]} <span className="hooks-mono">{e.source}</span>
              </div>
              {e.place && <div className="hooks-mono hooks-place txt-hint">{e.place}</div>}
            </td>
            <td>
              <ErrorDetails error={e} />
            </td>
          </tr>
        ))}
      </Section>
    </>
  );
}

export default function HooksPage() {
  usePageTitle('Hooks');
  const { state, load } = useOutpostInfo<HooksAnswer>('/api/outpost/hooks', 'settings_hooks');

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={['Settings', 'Hooks']} />
        <RefreshButton loading={state.kind === 'loading'} onClick={() => void load()} />
      </header>

      <div className="page-content hooks-page" aria-busy={state.kind === 'loading' || undefined}>
        {state.kind === 'unavailable' && <p className="txt-hint">Hooks information is not available on this server (it is an Outpost feature).</p>}
        {state.kind === 'loading' && <p className="hooks-intro loading-text">Loading the hooks…</p>}
        {state.kind === 'ready' && (
          <>
            <Intro data={state.data} />
            {state.data.loadError && (
              <div className="alert alert-danger hooks-load-error" role="alert">
                <strong>
                  The hook files did not load (<FormattedDate value={state.data.loadError.at} withZone />); {state.data.running ? 'the hooks loaded before keep running.' : 'no hooks run.'}
                </strong>
                <ErrorDetails error={state.data.loadError} />
              </div>
            )}
            {state.data.running ? (
              <Details data={state.data} />
            ) : (
              state.data.dir !== null &&
              !state.data.loadError && (
                <p className="txt-hint">
                  No hooks are loaded: the folder has no <code>*.pb.js</code> or <code>*.pb.ts</code> file.
                </p>
              )
            )}
          </>
        )}
      </div>
    </SettingsLayout>
  );
}
