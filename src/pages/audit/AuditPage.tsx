// #/audit: the audit trail (server/audit/). Filters (who, collection, action, time) live in the
// hash query; the list pages on with "Load more"; a row opens its changed fields; Export JSON/CSV
// download every entry the filters match; the settings popup sets the retention (the
// audit-settings screen); "Record history" turns a collection's history on or off (its option's
// form is schemas/audit/collection-history).
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { handleError } from '../../api/client';
import { getForm, SchemaForm } from '../../engine';
import { setQueryParams, useRoute } from '../../shell/navigation';
import { usePageTitle } from '../../shell/page-title';
import { RefreshButton } from '../../shell/RefreshButton';
import { Breadcrumbs } from '../../shell/SettingsLayout';
import { addErrorToast, addSuccessToast } from '../../shell/toasts';
import { collectionsState, ensureCollections } from '../../state/collections';
import { DateZoneLabel, FormattedDate } from '../../ui/FormattedDate';
import { formatCount } from '../../ui/counts';
import { useDateZone } from '../../ui/date-zone';
import { wallToUtc, type DateZone } from '../../lib/date-display';
import { IconDownload, IconSettings } from '../../ui/icons';
import { auditOptions, exportAudit, listAudit, setRecordHistory, type AuditEntry, type AuditFilter } from './audit-api';
import { ChangesTable } from './ChangesTable';
import './audit.css';
import { t } from '../../ui/i18n';

const loadScreenView = () => import('../../engine/ScreenView');
const ScreenView = lazy(() => loadScreenView().then((m) => ({ default: m.ScreenView })));

// the trail's areas and actions (server/audit/), in the words of the screen's language
const AREA_LABELS = {
  record: () => t('audit.areaRecord'),
  collection: () => t('audit.areaCollection'),
  settings: () => t('audit.areaSettings'),
  admin: () => t('audit.areaAdmin'),
  role: () => t('audit.areaRole'),
  backup: () => t('audit.areaBackup'),
};
const ACTION_LABELS = {
  create: () => t('audit.actionCreate'),
  update: () => t('audit.actionUpdate'),
  delete: () => t('audit.actionDelete'),
  rules: () => t('audit.actionRules'),
  import: () => t('audit.actionImport'),
  upload: () => t('audit.actionUpload'),
  restore: () => t('audit.actionRestore'),
  assign: () => t('audit.actionAssign'),
};
const labelsOf = (labels: Record<string, () => string>) => Object.fromEntries(Object.entries(labels).map(([k, f]) => [k, f()]));
const PER_PAGE = 50;

/** A datetime-local input's value, a wall time in the admin's chosen zone (UTC unless chosen), as ISO. */
function isoOf(wall: string | undefined, zone: DateZone): string | undefined {
  const utc = wall ? wallToUtc(wall, zone) : '';
  return utc ? `${utc.replace(' ', 'T')}.000Z` : undefined;
}

const who = (e: AuditEntry) => (e.actorKind === 'admin' ? e.actorEmail || e.actorId : e.actorKind === 'authRecord' ? t('audit.recordSuffix', { who: e.actorEmail || e.actorId }) : e.actorKind);

function RecordHistoryOptions() {
  const { collections } = useSnapshot(collectionsState);
  const [on, setOn] = useState<Set<string> | null>(null);
  const form = getForm('audit/collection-history');
  useEffect(() => {
    void ensureCollections().catch(() => undefined);
    auditOptions()
      .then((o) => setOn(new Set(o.history)))
      .catch(handleError);
  }, []);
  if (!on) return null;
  const change = (id: string, name: string, history: boolean) => {
    setRecordHistory(id, history)
      .then((r) => {
        setOn((cur) => {
          const next = new Set(cur);
          if (r.history) next.add(id);
          else next.delete(id);
          return next;
        });
        addSuccessToast(t('audit.historyToggled', { name, state: t(r.history ? 'audit.on' : 'audit.off') }));
      })
      .catch(handleError);
  };
  return (
    <details className="audit-history-options">
      <summary>{t('audit.historyPerCollection')}</summary>
      <p className="txt-hint txt-sm">{form.schema.description}</p>
      <ul>
        {collections
          .filter((c) => c.type !== 'view')
          .map((c) => (
            <li key={c.id} className="audit-history-option" role="group" aria-label={t('audit.historyOf', { name: c.name })}>
              <span className="audit-history-name">{c.name}</span>
              <SchemaForm
                id={`audit-history-${c.id}`}
                schema={form.schema}
                uiSchema={{ ...form.uiSchema, history: { ...(form.uiSchema.history as object), 'ui:help': undefined } }}
                formData={{ history: on.has(c.id) }}
                onChange={(d) => {
                  const next = Boolean((d as { history?: boolean }).history);
                  if (next !== on.has(c.id)) change(c.id, c.name, next);
                }}
              />
            </li>
          ))}
      </ul>
    </details>
  );
}

export default function AuditPage() {
  usePageTitle(t('audit.title'));
  const { query } = useRoute();
  const zone = useDateZone();
  const filter: AuditFilter = { actor: query.actor, collection: query.collection, action: query.action, area: query.area, from: isoOf(query.from, zone), to: isoOf(query.to, zone) };
  const key = JSON.stringify(filter);
  const { collections } = useSnapshot(collectionsState);
  const [items, setItems] = useState<AuditEntry[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsMounted, setSettingsMounted] = useState(false);
  const [actorText, setActorText] = useState(query.actor ?? '');

  useEffect(() => {
    void ensureCollections().catch(() => undefined);
  }, []);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    listAudit(JSON.parse(key) as AuditFilter, 1, PER_PAGE)
      .then((res) => {
        if (!alive) return;
        setItems(res.items);
        setTotal(res.totalItems);
        setPage(1);
      })
      .catch(handleError)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [key, refreshKey]);

  const loadMore = () => {
    setLoading(true);
    listAudit(filter, page + 1, PER_PAGE, 'audit-more')
      .then((res) => {
        setItems((cur) => [...cur, ...res.items]);
        setPage(page + 1);
      })
      .catch(handleError)
      .finally(() => setLoading(false));
  };

  const download = (format: 'json' | 'csv') => {
    exportAudit(filter, format).catch((err: unknown) => addErrorToast(err instanceof Error ? err.message : String(err)));
  };

  const select = (name: string, label: string, options: readonly string[], labels?: Record<string, string>) => (
    <label className="audit-filter">
      <span>{label}</span>
      <select value={query[name] ?? ''} onChange={(e) => setQueryParams({ [name]: e.target.value || null })} aria-label={label}>
        <option value="">{t('audit.any')}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <main className="page-wrapper audit-page">
      <header className="page-header">
        <Breadcrumbs items={[t('audit.title')]} />
        <button
          type="button"
          className="btn btn-transparent btn-circle btn-sm"
          aria-label={t('audit.settings')}
          title={t('audit.settings')}
          onMouseEnter={() => void loadScreenView()}
          onClick={() => {
            setSettingsMounted(true);
            setSettingsOpen(true);
          }}
        >
          <IconSettings size={16} />
        </button>
        <RefreshButton onClick={() => setRefreshKey((k) => k + 1)} />
        <div className="flex-fill" />
        <button type="button" className="btn btn-sm btn-secondary" onClick={() => download('json')}>
          <IconDownload /> {t('audit.exportJson')}
        </button>
        <button type="button" className="btn btn-sm btn-secondary" onClick={() => download('csv')}>
          <IconDownload /> {t('audit.exportCsv')}
        </button>
      </header>

      <div className="page-content">
        <p className="txt-hint txt-sm audit-intro">{t('audit.intro')}</p>
        <form
          className="audit-filters"
          role="search"
          aria-label={t('audit.filters')}
          onSubmit={(e) => {
            e.preventDefault();
            setQueryParams({ actor: actorText.trim() || null });
          }}
        >
          <label className="audit-filter">
            <span>{t('audit.who')}</span>
            <input type="search" value={actorText} placeholder={t('audit.whoPlaceholder')} onChange={(e) => setActorText(e.target.value)} onBlur={() => setQueryParams({ actor: actorText.trim() || null })} aria-label={t('audit.who')} />
          </label>
          {select('collection', t('audit.collection'), collections.map((c) => c.name))}
          {select('action', t('audit.action'), Object.keys(ACTION_LABELS), labelsOf(ACTION_LABELS))}
          {select('area', t('audit.area'), Object.keys(AREA_LABELS), labelsOf(AREA_LABELS))}
          <label className="audit-filter">
            <span>
              {t('audit.fromDate')} <DateZoneLabel />
            </span>
            <input type="datetime-local" value={query.from ?? ''} onChange={(e) => setQueryParams({ from: e.target.value || null })} aria-label={t('audit.fromDate')} />
          </label>
          <label className="audit-filter">
            <span>
              {t('audit.toDate')} <DateZoneLabel />
            </span>
            <input type="datetime-local" value={query.to ?? ''} onChange={(e) => setQueryParams({ to: e.target.value || null })} aria-label={t('audit.toDate')} />
          </label>
          <button type="submit" className="visually-hidden">
            {t('audit.apply')}
          </button>
        </form>

        <RecordHistoryOptions />

        <p className="txt-hint txt-sm audit-total" aria-live="polite">
          {loading && items.length === 0 ? t('audit.loading') : t(total === 1 ? 'audit.entry' : 'audit.entries', { count: formatCount(total) })}
        </p>
        <table className="audit-list" aria-label={t('audit.list')}>
          <thead>
            <tr>
              <th scope="col">
                {t('audit.when')} <DateZoneLabel />
              </th>
              <th scope="col">{t('audit.who')}</th>
              <th scope="col">{t('audit.action')}</th>
              <th scope="col">{t('audit.what')}</th>
              <th scope="col">{t('audit.changed')}</th>
              <th scope="col">{t('audit.address')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <AuditRow key={e.id} entry={e} open={open === e.id} onToggle={() => setOpen(open === e.id ? null : e.id)} />
            ))}
          </tbody>
        </table>
        {!loading && items.length === 0 && <p className="txt-hint audit-empty">{t('audit.noMatch')}</p>}
        {items.length < total && (
          <button type="button" className="btn btn-secondary audit-more" disabled={loading} onClick={loadMore}>
            {t('audit.loadMore')}
          </button>
        )}
      </div>

      {settingsMounted && (
        <Suspense fallback={null}>
          <ScreenView
            name="audit-settings"
            open={settingsOpen}
            onClose={() => setSettingsOpen(false)}
            onDone={() => {
              setSettingsOpen(false);
              setRefreshKey((k) => k + 1);
            }}
          />
        </Suspense>
      )}
    </main>
  );
}

function AuditRow({ entry: e, open, onToggle }: { entry: AuditEntry; open: boolean; onToggle: () => void }) {
  // the area and the action in the dashboard's words (an area or action a newer server sends shows as it came)
  const area = AREA_LABELS[e.area as keyof typeof AREA_LABELS]?.() ?? e.area;
  const action = ACTION_LABELS[e.action as keyof typeof ACTION_LABELS]?.() ?? e.action;
  const what = [area, e.collectionName, e.target].filter(Boolean).join(' · ');
  const fields = Object.keys(e.changes);
  return (
    <>
      <tr className="audit-row">
        <td>
          <button type="button" className="link-like audit-toggle" onClick={onToggle} aria-expanded={open} title={t(open ? 'audit.hideChanges' : 'audit.showChanges', { what: `${action} ${what}` })}>
            <FormattedDate value={e.created} />
          </button>
        </td>
        <td>{who(e)}</td>
        <td>
          <span className={`badge audit-action-${e.action}`}>{action}</span>
        </td>
        <td>{what}</td>
        <td className="txt-hint">{fields.length > 4 ? `${fields.slice(0, 4).join(', ')} +${fields.length - 4}` : fields.join(', ')}</td>
        <td className="txt-hint">{e.ip}</td>
      </tr>
      {open && (
        <tr className="audit-details">
          <td colSpan={6}>
            <p className="txt-hint txt-sm">
              {t('audit.request')} <code>{e.requestId || '—'}</code>
              {e.actorId && (
                <>
                  {' '}
                  · {t('audit.actorId', { kind: e.actorKind })} <code>{e.actorId}</code>
                </>
              )}
            </p>
            <ChangesTable changes={e.changes} />
          </td>
        </tr>
      )}
    </>
  );
}
