// The records list of the collections page: columns from the schema, sort by header, hidden
// columns per collection, bulk selection (delete, edit), saved views, import/export, 'Total
// found', Load more, rows rendered in batches as the list scrolls, live updates, and the record
// editor / preview panel driven by recordId. The state lives in hooks next to this file: pages
// (use-records-paging), 'Total found' and the live notices (use-live-ledger), render batches,
// selection, live updates and the panel.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { IconPlus } from '../../../ui/icons';
import { setQueryParams } from '../../../shell/navigation';
import type { CollectionModel } from '../../../lib/collections/types';
import { MAX_SKELETON_ROWS, recordColumns, type RecordLike } from '../../../lib/records/format';
import { collectionsState } from '../../../state/collections';
import type { RecordsSlotProps } from '../../collections/RecordsSlot';
import { collectionsPageActions } from '../../collections/RecordsSlot';
import { pb } from '../../../api/client';
import { getFileToken } from '../../../api/file-token';
import { isFileField } from '../../../fields/file/field';
import { useAccess } from '../../../state/permissions';
import { BulkEditButton } from '../bulk/BulkEditButton';
import { RecordsIo } from '../io/RecordsIo';
import { SavedViewsButton } from '../views/SavedViewsButton';
import type { CellContext } from './cells';
import { listQueryOf } from './first-page';
import { useHiddenColumns } from './columns';
import { RecordsSearchBar } from './SearchBar';
import { ColumnsMenu, preloadEditor, RecordRow, SortHeader } from './table-parts';
import { useLiveLedger } from './use-live-ledger';
import { useLiveList } from './use-live-list';
import { useRecordPanel } from './use-record-panel';
import { useRecordsPaging } from './use-records-paging';
import { useRenderBatches } from './use-render-batches';
import { confirmDeleteRecords, useSelection } from './use-selection';
import './records-list.css';
import { t } from '../../../ui/i18n';
import { formatCount, tCount } from '../../../ui/counts';
import { tRich } from '../../../ui/rich-text';

const RecordEditorPanel = lazy(() => import('../editor/RecordEditorPanel'));
const RecordPreviewPanel = lazy(() => import('../RecordPreviewPanel'));
// the API docs overlay is its own chunk, fetched on the first 'API Preview'
const ApiDocsPanel = lazy(() => import('../api-docs/ApiDocsPanel'));

/** Protected files need the admin file token (fetched again as rows change: it is short-lived). */
function useFileToken(collection: CollectionModel, rowsKey: unknown): string {
  const [token, setToken] = useState('');
  const hasProtected = collection.schema.some((f) => isFileField(f) && f.options?.protected);
  useEffect(() => {
    if (!hasProtected) return;
    let alive = true;
    void getFileToken().then((t) => alive && setToken(t));
    return () => {
      alive = false;
    };
  }, [hasProtected, rowsKey]);
  return token;
}

export default function RecordsList({ collection, filter, sort, recordId, refreshKey }: RecordsSlotProps) {
  const { collections } = useSnapshot(collectionsState);
  const isView = collection.type === 'view';
  const selectable = !isView;

  // the same query the app may have asked for early (./first-page)
  const query = useMemo(() => listQueryOf(collection, filter, sort), [collection, filter, sort]);
  const { filter: normalizedFilter, expand, fields } = query;

  const allColumns = useMemo(() => recordColumns(collection), [collection]);
  const [hidden, toggleHidden, replaceHidden] = useHiddenColumns(collection.id);
  const visibleColumns = useMemo(() => allColumns.filter((c) => !hidden.includes(c.name)), [allColumns, hidden]);

  // 'Total found', the new-records notice and the greyed rows: the live list's ledger
  const tally = useLiveLedger(collection.id, query);
  const paging = useRecordsPaging(collection.id, query, refreshKey, tally);
  const { records, setRecords, loading, generation, reload } = paging;
  const batches = useRenderBatches(records.length, generation);
  const { selected, toggle: toggleSelected, deselect, selectOnly } = useSelection(generation);
  // an import's own records would come back one event each (tens of thousands, costing the server
  // and this page more than the writes): live updates pause while it writes, and the list reloads after
  const [importing, setImporting] = useState(false);
  const live = useLiveList(collection.id, !isView && !importing, { filter: normalizedFilter, expand, fields }, tally, { setRecords, deselect, reload });
  const panel = useRecordPanel(collection, recordId, { expand, fields }, { records, setRecords, own: live.own });
  // a scoped admin's role leaves out what it may not do (src/state/permissions.ts)
  const access = useAccess();
  const fileToken = useFileToken(collection, records);

  const [docs, setDocs] = useState({ mounted: false, open: false });
  useEffect(() => {
    collectionsPageActions.apiPreview = () => setDocs({ mounted: true, open: true });
    return () => {
      collectionsPageActions.apiPreview = null;
    };
  }, []);

  const allSelected = records.length > 0 && records.every((r) => selected.has(r.id));
  const toggleAll = () => selectOnly(allSelected ? [] : records.map((r) => r.id));
  const loadMore = () => {
    // the first batch of the next page shows as soon as it arrives, the rest as the list scrolls
    batches.showNextPage(records.length);
    paging.loadMore();
  };

  const collectionsById = useMemo(() => new Map((collections as unknown as CollectionModel[]).map((c) => [c.id, c])), [collections]);
  const ctx = useMemo<CellContext>(() => ({ collection, collectionsById, fileToken, baseUrl: pb.baseUrl }), [collection, collectionsById, fileToken]);

  const colSpan = visibleColumns.length + (selectable ? 1 : 0) + 1;
  const showSkeleton = loading && records.length === 0;
  const visible = records.slice(0, batches.shown);
  const { incoming: incomingCount, greyed: deletedIds, total } = tally.view;
  const { remote } = live;

  return (
    <div className="records-list">
      <div className="records-toolbar">
        <RecordsSearchBar collection={collection} value={filter} invalid={paging.invalid} onSubmit={(v) => setQueryParams({ filter: v || null })} />
        <SavedViewsButton
          collection={collection}
          current={{ filter, sort, hidden }}
          onApply={(v) => {
            setQueryParams({ filter: v.filter || null, sort: v.sort || null });
            replaceHidden(v.hidden);
          }}
        />
      </div>
      <RecordsIo collection={collection} filter={normalizedFilter} sort={sort} selected={selected} onImported={reload} onImportRunning={setImporting} />

      {paging.unreadable && collection.type === 'view' && (
        <div className="alert alert-warning" role="status">
          {t('recordList.viewUnreadable')}
        </div>
      )}

      {incomingCount > 0 && (
        <div className="records-live-notice" role="status">
          <span className="records-live-dot" aria-hidden="true" />
          <span className="flex-fill">
            {tCount('recordList.incoming', incomingCount)}
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => batches.revealTop(live.showIncoming())}>
            {t('recordList.show')}
          </button>
        </div>
      )}

      <div className="table-wrapper records-table-wrapper">
        <table className="table records-table" aria-busy={loading || undefined} aria-label={t('recordList.table', { name: collection.name })}>
          <thead>
            <tr>
              {selectable && (
                <th className="col-select" scope="col">
                  <input
                    type="checkbox"
                    aria-label={t('recordList.selectAll')}
                    checked={allSelected}
                    disabled={records.length === 0}
                    onChange={toggleAll}
                  />
                </th>
              )}
              {visibleColumns.map((c) => (
                <SortHeader key={c.name} column={c} sort={sort} />
              ))}
              <th className="col-action" scope="col">
                <ColumnsMenu columns={allColumns} hidden={hidden} onToggle={toggleHidden} />
              </th>
            </tr>
          </thead>
          <tbody>
            {showSkeleton &&
              Array.from({ length: MAX_SKELETON_ROWS }, (_, i) => (
                <tr key={'skeleton' + i} className="row-skeleton" aria-hidden="true">
                  <td colSpan={colSpan}>
                    <span className="skeleton-line" />
                  </td>
                </tr>
              ))}
            {!loading && records.length === 0 && (
              <tr>
                <td colSpan={colSpan}>
                  <div className="empty-state records-empty">
                    <p className="empty-state-title">{t('recordWidget.noRecords')}</p>
                    {filter ? (
                      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setQueryParams({ filter: null })}>
                        {t('recordList.clearFilters')}
                      </button>
                    ) : (
                      !isView &&
                      access.records(collection, 'create') && (
                        <button type="button" className="btn btn-secondary btn-sm" onClick={panel.openNew} onMouseEnter={preloadEditor}>
                          <IconPlus size={14} />
                          <span>{t('recordWidget.newRecord')}</span>
                        </button>
                      )
                    )}
                  </div>
                </td>
              </tr>
            )}
            {visible.map((r) => (
              <RecordRow
                key={r.id}
                record={r as unknown as RecordLike}
                columns={visibleColumns}
                ctx={ctx}
                selected={selected.has(r.id)}
                selectable={selectable}
                deleted={deletedIds.has(r.id)}
                onOpen={panel.openRecord}
                onToggle={toggleSelected}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div ref={batches.sentinel} className="records-sentinel" aria-hidden="true" />

      {paging.hasMore && batches.shown >= records.length && records.length > 0 && (
        <div className="records-load-more">
          <button type="button" className={`btn btn-secondary${loading ? ' btn-loading' : ''}`} disabled={loading} onClick={loadMore}>
            {t('recordWidget.loadMore')}
          </button>
        </div>
      )}

      <div className="table-footer txt-hint records-footer">
        <span>{t('recordList.total', { total: total === null ? '…' : formatCount(total) })}</span>
      </div>

      {selected.size > 0 && (
        <div className="records-bulkbar" role="region" aria-label={t('recordList.bulkActions')}>
          <span>
            {tRich('recordList.selected', { n: <strong>{formatCount(selected.size)}</strong> }, { count: selected.size })}
          </span>
          <button type="button" className="btn btn-transparent btn-sm" onClick={() => selectOnly([])}>
            {t('recordList.reset')}
          </button>
          <div className="flex-fill" />
          {access.records(collection, 'update') && <BulkEditButton collection={collection} ids={[...selected]} onChanged={reload} />}
          {access.records(collection, 'delete') && (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => confirmDeleteRecords(collection.id, [...selected], reload, live.own)}>
              {t('recordList.deleteSelected')}
            </button>
          )}
        </div>
      )}

      {docs.mounted && (
        <Suspense fallback={null}>
          <ApiDocsPanel collection={collection} open={docs.open} onClose={() => setDocs((d) => ({ ...d, open: false }))} />
        </Suspense>
      )}

      {panel.mounted && (
        <Suspense fallback={null}>
          {isView ? (
            <RecordPreviewPanel key={panel.panel.key} collection={collection} record={panel.panel.record} open={panel.panel.open} onClose={panel.close} />
          ) : (
            <RecordEditorPanel
              key={panel.panel.key}
              collection={collection}
              record={panel.panel.record}
              open={panel.panel.open}
              onClose={panel.close}
              onSaved={panel.onSaved}
              onDeleted={panel.onDeleted}
              onWriteStart={live.own.writeStarted}
              remoteChange={remote && remote.record.id === panel.panel.record?.id ? remote : null}
            />
          )}
        </Suspense>
      )}
    </div>
  );
}
