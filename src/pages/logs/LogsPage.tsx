// #/logs: header (settings popup, refresh, 'Include requests by admins'), the
// search bar, the chart, the list, the 'Request log' panel and the footer. The hash query holds
// filter, adminRequests (1 or absent) and logId (the open panel); the checkbox is also
// remembered in local storage.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { pb } from '../../api/client';
import { FilterSearchBar } from '../../shell/FilterSearchBar';
import { IconSettings } from '../../ui/icons';
import { setQueryParams, useRoute } from '../../shell/navigation';
import { usePageTitle, PRODUCT_NAME } from '../../shell/page-title';
import { RefreshButton } from '../../shell/RefreshButton';
import { Breadcrumbs } from '../../shell/SettingsLayout';
import { addErrorToast } from '../../shell/toasts';
import { handleError } from '../../api/client';
import { normalizeSearchFilter } from '../../lib/filter-normalize';
import {
  DOCS_URL,
  LOG_LEVELS,
  LOG_VIEW_REQUEST_KEY,
  LOGS_AUTOCOMPLETE_KEYS,
  PRODUCT_VERSION,
  RELEASES_URL,
  type LogEntry,
} from './log-format';
import { ADMIN_LOGS_STORAGE_KEY, includeAdminsOf, LOGS_SEARCH_FIELDS, logsFilter } from './logs-filter';
import { LogsList } from './LogsList';
import { LogsStats } from './LogsStats';
import { LogViewPanel } from './LogViewPanel';
import { t } from '../../ui/i18n';
import './logs.css';

// The settings popup pulls in the form engine: loaded when first wanted, not with the page.
const loadScreenView = () => import('../../engine/ScreenView');
const ScreenView = lazy(() => loadScreenView().then((m) => ({ default: m.ScreenView })));

function storeIncludeAdmins(on: boolean): void {
  try {
    window.localStorage.setItem(ADMIN_LOGS_STORAGE_KEY, on ? '1' : '0');
  } catch {
    /* private mode: the URL still carries it */
  }
}

type Panel = { open: boolean; log: LogEntry | null };

export default function LogsPage() {
  usePageTitle(t('page.logs'));
  const { query } = useRoute();
  const search = query.filter ?? '';
  const includeAdmins = includeAdminsOf(query);
  const logId = query.logId ?? '';
  const filter = useMemo(() => logsFilter(search, includeAdmins), [search, includeAdmins]);

  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsMounted, setSettingsMounted] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const [invalid, setInvalid] = useState('');
  const [listSettled, setListSettled] = useState(false);
  const onListSettled = useCallback(() => setListSettled(true), []);
  const refresh = () => setRefreshKey((k) => k + 1);

  // the remembered checkbox shows in the URL from the start
  useEffect(() => {
    if (includeAdmins && query.adminRequests === undefined) setQueryParams({ adminRequests: 1 });
  }, [includeAdmins, query.adminRequests]);

  const setIncludeAdmins = (on: boolean) => {
    storeIncludeAdmins(on);
    setQueryParams({ adminRequests: on ? 1 : null });
  };

  // ---- the panel follows logId: a listed row opens at once, any other id is fetched ----
  const [panel, setPanel] = useState<Panel>({ open: false, log: null });
  const rows = useRef<readonly LogEntry[]>([]);
  const onRowsChange = useCallback((logs: readonly LogEntry[]) => {
    rows.current = logs;
  }, []);
  const clicked = useRef<LogEntry | null>(null);

  useEffect(() => {
    if (!logId) {
      setPanel((p) => (p.open ? { open: false, log: p.log } : p));
      return;
    }
    const known = clicked.current?.id === logId ? clicked.current : rows.current.find((l) => l.id === logId);
    clicked.current = null;
    if (known) {
      setPanel({ open: true, log: known });
      return;
    }
    let alive = true;
    setPanel({ open: true, log: null });
    pb.logs
      .getOne(logId, { requestKey: LOG_VIEW_REQUEST_KEY })
      .then((log) => {
        if (alive) setPanel({ open: true, log: log as unknown as LogEntry });
      })
      .catch((err) => {
        if (!alive || (err as { isAbort?: boolean }).isAbort) return;
        const status = (err as { status?: number }).status;
        if (status === 401 || status === 403) handleError(err);
        else {
          console.warn(err);
          addErrorToast(t('logs.loadFailed', { id: logId }));
        }
        setQueryParams({ logId: null });
      });
    return () => {
      alive = false;
    };
  }, [logId]);

  const openLog = useCallback((log: LogEntry) => {
    clicked.current = log;
    setQueryParams({ logId: log.id });
  }, []);
  const closePanel = useCallback(() => {
    pb.cancelRequest(LOG_VIEW_REQUEST_KEY);
    setQueryParams({ logId: null });
  }, []);

  return (
    <main className="page-wrapper logs-page">
      <header className="page-header">
        <Breadcrumbs items={[t('page.logs')]} />
        <button
          type="button"
          className="btn btn-transparent btn-circle btn-sm"
          aria-label={t('logs.settings')}
          title={t('logs.settings')}
          onMouseEnter={() => void loadScreenView()}
          onFocus={() => void loadScreenView()}
          onClick={() => {
            setSettingsMounted(true);
            setSettingsOpen(true);
          }}
        >
          <IconSettings size={16} />
        </button>
        <RefreshButton onClick={refresh} />
        <div className="flex-fill" />
        <label className="logs-admin-toggle">
          <input type="checkbox" checked={includeAdmins} onChange={(e) => setIncludeAdmins(e.target.checked)} />
          <span>{t('logs.includeAdmins')}</span>
        </label>
      </header>

      <div className="page-content logs-content">
        <FilterSearchBar
          className="logs-search"
          value={search}
          keys={LOGS_AUTOCOMPLETE_KEYS}
          invalid={invalid}
          onSubmit={(text) => setQueryParams({ filter: text || null })}
          ariaLabel={t('logs.search')}
          placeholder={t('logs.searchPlaceholder')}
          normalize={(text) => normalizeSearchFilter(text, LOGS_SEARCH_FIELDS)}
        />
        <p className="logs-levels txt-muted">
          {t('logs.defaultLevels')}{' '}
          {LOG_LEVELS.map((l) => (
            <code key={l.level}>
              {l.level}:{l.label}
            </code>
          ))}
        </p>

        <LogsStats filter={filter} refreshKey={refreshKey} drawChart={listSettled} />

        <LogsList
          filter={filter}
          search={search}
          refreshKey={refreshKey}
          onOpen={openLog}
          onClearSearch={() => setQueryParams({ filter: null })}
          onInvalidFilter={setInvalid}
          onRowsChange={onRowsChange}
          onSettled={onListSettled}
        />
      </div>

      <footer className="page-footer">
        <a href={DOCS_URL} target="_blank" rel="noopener noreferrer">
          {t('logs.docs')}
        </a>
        <span className="page-footer-delimiter" aria-hidden="true">
          |
        </span>
        <a href={RELEASES_URL} target="_blank" rel="noopener noreferrer" title={t('logs.releases')}>
          {PRODUCT_NAME} v{PRODUCT_VERSION}
        </a>
      </footer>

      <LogViewPanel open={panel.open} log={panel.log} onClose={closePanel} />
      {settingsMounted && (
        <Suspense fallback={null}>
          <ScreenView
            name="logs-settings"
            open={settingsOpen}
            onClose={() => setSettingsOpen(false)}
            onDone={() => {
              setSettingsOpen(false);
              refresh();
            }}
          />
        </Suspense>
      )}
    </main>
  );
}
