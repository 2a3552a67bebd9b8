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
import { t } from '../../../ui/i18n';
import { tRich } from '../../../ui/rich-text';

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
  hooks: Array<{ name: string; tags: string[]; file: string; fired: boolean; mainThread?: boolean }>;
  routes: Array<{ method: string; path: string; middlewares: string[]; file: string }>;
  routerUse: Array<{ middlewares: string[]; file: string }>;
  crons: Array<{ job: string; expr: string; file: string; nextRun: string | null; lastRun: CronRun | null }>;
  errors: HookError[];
}

// names of files on disk, no words
const JS_FILES = '*.pb.js';
const TS_FILES = '*.pb.ts';

/** A titled table; `empty` fills its one row when there is nothing to list. */
function Section({ slug, title, columns, count, empty, children }: { slug: string; title: string; columns: string[]; count: number; empty: string; children: ReactNode }) {
  const id = `hooks-${slug}`;
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
          <summary>{t('hooks.stack')}</summary>
          <pre>{error.stack}</pre>
        </details>
      )}
    </>
  );
}

function Intro({ data }: { data: HooksAnswer }) {
  if (data.dir === null) return <p className="hooks-intro">{t('hooks.off')}</p>;
  return (
    <p className="hooks-intro">
      {data.running && data.loadedAt
        ? tRich('hooks.introLoaded', { dir: <code>{data.dir}</code>, date: <FormattedDate value={data.loadedAt} withZone /> }, { pool: data.pool })
        : tRich('hooks.intro', { dir: <code>{data.dir}</code> }, { pool: data.pool })}{' '}
      {t(data.watch ? 'hooks.watch' : 'hooks.noWatch')}
    </p>
  );
}

function Details({ data }: { data: HooksAnswer }) {
  return (
    <>
      <Section slug="files" title={t('hooks.files')} columns={[t('hooks.file'), t('hooks.hooks'), t('hooks.routes'), t('hooks.crons')]} count={data.files.length} empty={t('hooks.noFiles')}>
        {data.files.map((f) => (
          <tr key={f.file}>
            <td className="hooks-mono">{f.file}</td>
            <td>{f.hooks}</td>
            <td>{f.routes}</td>
            <td>{f.crons}</td>
          </tr>
        ))}
      </Section>

      <Section slug="hooks" title={t('hooks.hooks')} columns={[t('hooks.hook'), t('hooks.tags'), t('hooks.file'), t('hooks.status')]} count={data.hooks.length} empty={t('hooks.noHooks')}>
        {data.hooks.map((h, i) => (
          <tr key={i}>
            <td className="hooks-mono">{h.name}</td>
            <td>{h.tags.length ? h.tags.map((tag) => <span className="badge badge-plain hooks-tag" key={tag}>{tag}</span>) : <span className="txt-hint">{t('hooks.anyTag')}</span>}</td>
            <td className="hooks-mono txt-hint">{h.file}</td>
            <td>
              {h.fired ? <span className="badge hooks-fired">{t('hooks.runs')}</span> : <span className="badge hooks-not-fired">{t('hooks.notFired')}</span>}
              {h.mainThread && (
                <span className="badge badge-plain hooks-main-thread" title={t('hooks.mainThreadHint')}>
                  {t('hooks.mainThread')}
                </span>
              )}
            </td>
          </tr>
        ))}
      </Section>

      <Section slug="routes" title={t('hooks.routes')} columns={[t('hooks.method'), t('hooks.path'), t('hooks.middlewares'), t('hooks.file')]} count={data.routes.length + data.routerUse.length} empty={t('hooks.noRoutes')}>
        {data.routerUse.map((u, i) => (
          <tr key={`use-${i}`}>
            <td className="txt-hint">{t('hooks.allMethods')}</td>
            <td className="txt-hint">{t('hooks.everyRoute')}</td>
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
            <td className="hooks-mono">{r.middlewares.length ? r.middlewares.join(', ') : <span className="txt-hint">{t('hooks.noMiddlewares')}</span>}</td>
            <td className="hooks-mono txt-hint">{r.file}</td>
          </tr>
        ))}
      </Section>

      <Section slug="cron-jobs" title={t('hooks.crons')} columns={[t('hooks.job'), t('hooks.schedule'), t('hooks.nextRun'), t('hooks.lastRun'), t('hooks.file')]} count={data.crons.length} empty={t('hooks.noCrons')}>
        {data.crons.map((c) => (
          <tr key={c.job}>
            <td className="hooks-mono">{c.job}</td>
            <td className="hooks-mono">{c.expr}</td>
            <td>{c.nextRun ? <FormattedDate value={c.nextRun} withZone /> : <span className="txt-hint">—</span>}</td>
            <td>
              {c.lastRun ? (
                <>
                  <FormattedDate value={c.lastRun.at} withZone /> <span className={`badge ${c.lastRun.ok ? 'hooks-ok' : 'hooks-failed'}`}>{t(c.lastRun.ok ? 'hooks.ok' : 'hooks.failed')}</span>{' '}
                  <span className="txt-hint">{t('hooks.ms', { ms: c.lastRun.ms })}</span>
                  {c.lastRun.error && <div className="hooks-error-message">{c.lastRun.error}</div>}
                </>
              ) : (
                <span className="txt-hint">{t('hooks.notRun')}</span>
              )}
            </td>
            <td className="hooks-mono txt-hint">{c.file}</td>
          </tr>
        ))}
      </Section>

      <Section slug="recent-errors" title={t('hooks.errors')} columns={[t('hooks.when'), t('hooks.where'), t('hooks.error')]} count={data.errors.length} empty={t('hooks.noErrors')}>
        {data.errors.map((e, i) => (
          <tr key={i} className="hooks-error-row">
            <td className="hooks-when">
              <FormattedDate value={e.at} withZone />
            </td>
            <td className="hooks-where">
              <div>
                {t(`hooks.kind.${e.kind}`)} <span className="hooks-mono">{e.source}</span>
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
  usePageTitle(t('page.settingsHooks'));
  const { state, load } = useOutpostInfo<HooksAnswer>('/api/outpost/hooks', 'settings_hooks');

  return (
    <SettingsLayout>
      <header className="page-header">
        <Breadcrumbs items={[t('nav.settings'), t('page.settingsHooks')]} />
        <RefreshButton loading={state.kind === 'loading'} onClick={() => void load()} />
      </header>

      <div className="page-content hooks-page" aria-busy={state.kind === 'loading' || undefined}>
        {state.kind === 'unavailable' && <p className="txt-hint">{t('hooks.unavailable')}</p>}
        {state.kind === 'loading' && <p className="hooks-intro loading-text">{t('hooks.loading')}</p>}
        {state.kind === 'ready' && (
          <>
            <Intro data={state.data} />
            {state.data.loadError && (
              <div className="alert alert-danger hooks-load-error" role="alert">
                <strong>{tRich(state.data.running ? 'hooks.loadFailedRunning' : 'hooks.loadFailedNone', { date: <FormattedDate value={state.data.loadError.at} withZone /> })}</strong>
                <ErrorDetails error={state.data.loadError} />
              </div>
            )}
            {state.data.running ? (
              <Details data={state.data} />
            ) : (
              state.data.dir !== null &&
              !state.data.loadError && (
                <p className="txt-hint">
                  {tRich('hooks.noneLoaded', { js: <code>{JS_FILES}</code>, ts: <code>{TS_FILES}</code> })}
                </p>
              )
            )}
          </>
        )}
      </div>
    </SettingsLayout>
  );
}
