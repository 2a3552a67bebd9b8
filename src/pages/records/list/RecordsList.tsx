// The records list of the collections page (spec §2 Collections page, §7 Records list details,
// §9): columns from the schema, sort by header, hidden columns per collection, bulk selection and
// delete, 40 per page with Load more, 'Total found: N' from a separate count query, rows rendered
// in batches of 20 as the list scrolls, and the record editor / preview panel driven by recordId.
// Live (beyond the original UI): changed rows update in place, deleted rows are greyed out where
// they stand, and new rows are announced above the table until the admin shows them, so the list
// being read never jumps; an open editor learns of changes made elsewhere.
import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { RecordModel } from 'pocketbase';
import { useSnapshot } from 'valtio';
import { handleError, pb } from '../../../api/client';
import { IconArrowDown, IconArrowUp, IconPlus } from '../../../ui/icons';
import { setQueryParams } from '../../../app/navigation';
import { addErrorToast, addSuccessToast } from '../../../app/toasts';
import { confirm } from '../../../app/confirm-state';
import type { CollectionModel } from '../../../lib/collections/types';
import { normalizeSearchFilter } from '../../../lib/filter-normalize';
import {
  listExpand,
  listFields,
  MAX_SKELETON_ROWS,
  nextRecordsSort,
  RECORDS_BULK_BATCH,
  RECORDS_PER_PAGE,
  RECORDS_RENDER_BATCH,
  recordColumns,
  searchableFields,
  sortState,
  type ColumnDef,
  type RecordLike,
} from '../../../lib/records/format';
import { collectionsState } from '../../../state/collections';
import type { RecordsSlotProps } from '../../collections/RecordsSlot';
import { collectionsPageActions } from '../../collections/RecordsSlot';
import { BulkEditButton } from '../bulk/BulkEditButton';
import { SavedViewsButton } from '../views/SavedViewsButton';
import { RecordValue, type CellContext } from './cells';
import { useHiddenColumns } from './columns';
import { useLiveRecords, type LiveEvent } from './live';
import { getFileToken } from '../../../api/file-token';
import { RecordsSearchBar } from './SearchBar';
import { RecordsIo } from '../io/RecordsIo';
import './records-list.css';

const RecordEditorPanel = lazy(() => import('../editor/RecordEditorPanel'));
const RecordPreviewPanel = lazy(() => import('../RecordPreviewPanel'));
// the API docs overlay is its own chunk, fetched on the first 'API Preview'
const ApiDocsPanel = lazy(() => import('../api-docs/ApiDocsPanel'));
const preloadEditor = () => void import('../editor/RecordEditorPanel');

type PanelState = { open: boolean; record: RecordModel | null; key: number };

/** The last realtime change of a record, passed to the open editor (seq tells repeats apart). */
export type RemoteChange = LiveEvent & { seq: number };

function isAbort(err: unknown): boolean {
  return !!(err && typeof err === 'object' && (err as { isAbort?: boolean }).isAbort);
}

/** Drops empty options: the SDK would send `undefined` as the text 'undefined'. */
function defined<T extends Record<string, unknown>>(opts: T): Partial<T> {
  return Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

/** The nearest ancestor that scrolls vertically (null: the viewport). */
function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return p;
  }
  return null;
}

function statusOf(err: unknown): number {
  return Number((err as { status?: unknown })?.status) || 0;
}

// ---- header ---------------------------------------------------------------------------------

function SortHeader({ column, sort }: { column: ColumnDef; sort: string }) {
  const state = sortState(sort, column.name);
  if (!column.sortable) {
    return (
      <th className={`col-type-${column.type} col-field-${column.name}`} scope="col">
        <span className="col-label">{column.name}</span>
      </th>
    );
  }
  return (
    <th className={`col-sort${state !== 'none' ? ' col-sort-active' : ''} col-type-${column.type} col-field-${column.name}`} aria-sort={state} scope="col">
      <button type="button" className="col-sort-button" onClick={() => setQueryParams({ sort: nextRecordsSort(sort, column.name) })}>
        <span>{column.name}</span>
        {state === 'descending' && <IconArrowDown size={14} />}
        {state === 'ascending' && <IconArrowUp size={14} />}
      </button>
    </th>
  );
}

function ColumnsMenu({ columns, hidden, onToggle }: { columns: ColumnDef[]; hidden: string[]; onToggle: (name: string) => void }) {
  const [open, setOpen] = useState(false);
  // fixed to the viewport: the table wrapper scrolls (and would clip an absolute dropdown)
  const [pos, setPos] = useState<{ top: number; right: number }>({ top: 0, right: 0 });
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div className="records-columns-menu" ref={ref}>
      <button
        type="button"
        className="btn btn-transparent btn-circle btn-sm"
        aria-label="Toggle columns"
        title="Toggle columns"
        aria-expanded={open}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setPos({ top: r.bottom + 4, right: Math.max(8, window.innerWidth - r.right) });
          setOpen((o) => !o);
        }}
      >
        <span aria-hidden="true" className="records-columns-icon">⋮</span>
      </button>
      {open && (
        <div className="dropdown records-columns-dropdown" role="group" aria-label="Columns" style={{ top: pos.top, right: pos.right }}>
          <div className="dropdown-header">Visible columns</div>
          {columns.map((c) => (
            <label key={c.name} className="dropdown-item records-column-toggle">
              <input type="checkbox" checked={!hidden.includes(c.name)} onChange={() => onToggle(c.name)} />
              <span>{c.name}</span>
            </label>
          ))}
        </div>
      )}
    </div>
  );
}

// ---- rows -----------------------------------------------------------------------------------

type RowProps = {
  record: RecordLike;
  columns: ColumnDef[];
  ctx: CellContext;
  selected: boolean;
  selectable: boolean;
  /** Deleted elsewhere: shown greyed out in place until the next reload. */
  deleted: boolean;
  onOpen: (id: string) => void;
  onToggle: (id: string) => void;
};

const RecordRow = memo(function RecordRow({ record, columns, ctx, selected, selectable, deleted, onOpen, onToggle }: RowProps) {
  const id = String(record.id ?? '');
  if (deleted) {
    return (
      <tr className="rl-row row-deleted" data-id={id} aria-disabled="true">
        {selectable && <td className="col-select" />}
        {columns.map((c) => (
          <td key={c.name} className={`col-type-${c.type} col-field-${c.name}`}>
            <RecordValue record={record} column={c} ctx={ctx} />
          </td>
        ))}
        <td className="col-action">
          <span className="rl-deleted-label">Deleted</span>
        </td>
      </tr>
    );
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onOpen(id);
    }
  };
  return (
    <tr
      className={`row-handle rl-row${selected ? ' row-selected' : ''}`}
      tabIndex={0}
      data-id={id}
      aria-label={`Open record ${id}`}
      onClick={() => onOpen(id)}
      onKeyDown={onKeyDown}
      onMouseEnter={preloadEditor}
    >
      {selectable && (
        <td className="col-select" onClick={(e) => e.stopPropagation()}>
          <input type="checkbox" aria-label={`Select record ${id}`} checked={selected} onChange={() => onToggle(id)} onKeyDown={(e) => e.stopPropagation()} />
        </td>
      )}
      {columns.map((c) => (
        <td key={c.name} className={`col-type-${c.type} col-field-${c.name}`}>
          <RecordValue record={record} column={c} ctx={ctx} />
        </td>
      ))}
      <td className="col-action" aria-hidden="true">
        ›
      </td>
    </tr>
  );
});

// ---- the list -------------------------------------------------------------------------------

export default function RecordsList({ collection, filter, sort, recordId, refreshKey }: RecordsSlotProps) {
  const { collections } = useSnapshot(collectionsState);
  const isView = collection.type === 'view';
  const selectable = !isView;

  const searchFields = useMemo(() => searchableFields(collection), [collection]);
  const normalizedFilter = useMemo(() => normalizeSearchFilter(filter, searchFields), [filter, searchFields]);
  const expand = useMemo(() => listExpand(collection), [collection]);
  const fields = useMemo(() => listFields(collection), [collection]);

  const allColumns = useMemo(() => recordColumns(collection), [collection]);
  const [hidden, toggleHidden, replaceHidden] = useHiddenColumns(collection.id);
  const visibleColumns = useMemo(() => allColumns.filter((c) => !hidden.includes(c.name)), [allColumns, hidden]);

  const [records, setRecords] = useState<RecordModel[]>([]);
  const [page, setPage] = useState(0);
  const [lastPageFull, setLastPageFull] = useState(false);
  const [loading, setLoading] = useState(true);
  const [invalid, setInvalid] = useState('');
  const [total, setTotal] = useState<number | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [renderLimit, setRenderLimit] = useState(RECORDS_RENDER_BATCH);
  const [countKey, setCountKey] = useState(0);
  const [fileToken, setFileToken] = useState('');
  const [incoming, setIncoming] = useState<RecordModel[]>([]);
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  const gen = useRef(0);

  // ---- loading ----
  const queryKey = `${collection.id}\n${normalizedFilter}\n${sort}\n${expand}\n${fields}`;
  const loadPage = useCallback(
    async (pageNo: number, generation: number) => {
      setLoading(true);
      try {
        const result = await pb.collection(collection.id).getList(
          pageNo,
          RECORDS_PER_PAGE,
          defined({ sort, filter: normalizedFilter, expand, fields, skipTotal: true, requestKey: 'records_list' }),
        );
        if (generation !== gen.current) return;
        setRecords((list) => (pageNo === 1 ? result.items : [...list, ...result.items.filter((r) => !list.some((x) => x.id === r.id))]));
        setPage(pageNo);
        setLastPageFull(result.items.length >= RECORDS_PER_PAGE);
        setInvalid('');
        setLoading(false);
      } catch (err) {
        if (isAbort(err) || generation !== gen.current) return;
        setLoading(false);
        if (pageNo === 1) setRecords([]);
        setLastPageFull(false);
        // An invalid filter (400) shows no toast (spec §8), only a quiet hint.
        if (statusOf(err) === 400 && normalizedFilter) {
          const msg = (err as { response?: { message?: unknown } }).response?.message;
          const generic = typeof msg !== 'string' || !msg || msg.startsWith('Something went wrong');
          setInvalid(generic ? 'Invalid filter - check the field names and the syntax.' : `Invalid filter - ${msg}`);
        }
        handleError(err, { silent400: !!normalizedFilter });
      }
    },
    // queryKey covers collection.id, the filter, sort, expand and fields
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey],
  );

  const reload = useCallback(() => {
    const g = ++gen.current;
    setIncoming([]);
    setDeletedIds(new Set());
    setSelected(new Set());
    setRenderLimit(RECORDS_RENDER_BATCH);
    setCountKey((k) => k + 1);
    void loadPage(1, g);
  }, [loadPage]);

  // A new query (collection, filter, sort) starts from an empty page 1.
  const [shownKey, setShownKey] = useState(queryKey);
  if (shownKey !== queryKey) {
    setShownKey(queryKey);
    if (!queryKey.startsWith(shownKey.split('\n')[0] + '\n')) setRecords([]);
    setLoading(true);
    setTotal(null);
  }
  useEffect(() => {
    reload();
  }, [reload, refreshKey]);

  // The count: page 1, size 1, the same filter, fields id, reading totalItems (spec §7).
  useEffect(() => {
    if (countKey === 0) return; // the first reload bumps it
    let cancelled = false;
    pb.collection(collection.id)
      .getList(1, 1, defined({ filter: normalizedFilter, fields: 'id', requestKey: 'records_count' }))
      .then((r) => {
        if (!cancelled) setTotal(r.totalItems);
      })
      .catch((err) => {
        if (cancelled || isAbort(err)) return;
        setTotal(0);
        handleError(err, { silent400: true }); // the list reports anything that matters
      });
    return () => {
      cancelled = true;
    };
    // countKey bumps on every reload
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [countKey]);

  // Protected files need the admin file token.
  const hasProtected = collection.schema.some((f) => f.type === 'file' && f.options?.protected);
  useEffect(() => {
    if (!hasProtected) return;
    let alive = true;
    void getFileToken().then((t) => alive && setFileToken(t));
    return () => {
      alive = false;
    };
  }, [hasProtected, records]);

  const loadMore = () => {
    // the first batch of the next page shows as soon as it arrives, the rest as the list scrolls
    setRenderLimit(records.length + RECORDS_RENDER_BATCH);
    void loadPage(page + 1, gen.current);
  };

  // ---- rendering in batches of 20 as the sentinel below the rows comes into view ----
  const sentinel = useRef<HTMLDivElement>(null);
  const shown = Math.min(records.length, renderLimit);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || shown >= records.length || typeof IntersectionObserver === 'undefined') return;
    // the root is the scrolling ancestor, so the margin renders the next batch before it shows
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) startTransition(() => setRenderLimit((l) => l + RECORDS_RENDER_BATCH));
      },
      { root: scrollParent(el), rootMargin: '0px 0px 400px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [shown, records.length]);

  // ---- selection ----
  const toggleSelected = useCallback((id: string) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const allSelected = records.length > 0 && records.every((r) => selected.has(r.id));
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(records.map((r) => r.id)));

  const deleteSelected = () => {
    const ids = [...selected];
    if (ids.length === 0) return;
    confirm(`Do you really want to delete the selected ${ids.length === 1 ? 'record' : 'records'}?`, async () => {
      try {
        for (let i = 0; i < ids.length; i += RECORDS_BULK_BATCH) {
          await Promise.all(ids.slice(i, i + RECORDS_BULK_BATCH).map((id) => pb.collection(collection.id).delete(id, { requestKey: null })));
        }
        addSuccessToast('Successfully deleted the selected record(s).');
      } catch (err) {
        handleError(err);
      } finally {
        reload();
      }
    });
  };

  // ---- the panel (editor, or preview for views) ----
  const [panel, setPanel] = useState<PanelState>({ open: false, record: null, key: 0 });
  const [panelMounted, setPanelMounted] = useState(false);
  const panelRef = useRef(panel);
  const recordsRef = useRef(records);
  const incomingRef = useRef(incoming);
  const deletedRef = useRef(deletedIds);
  useEffect(() => {
    panelRef.current = panel;
    recordsRef.current = records;
    incomingRef.current = incoming;
    deletedRef.current = deletedIds;
  });

  // ---- live updates ----
  const remoteSeq = useRef(0);
  const onLive = useCallback((e: LiveEvent) => {
    const id = e.record?.id;
    if (!id) return;
    const inList = recordsRef.current.some((r) => r.id === id);
    const announced = incomingRef.current.some((r) => r.id === id);
    if (e.action === 'create') {
      if (inList || announced) return; // our own save, already shown
      setIncoming((list) => [e.record, ...list]);
      setTotal((t) => (t === null ? t : t + 1));
      return;
    }
    setRemote({ ...e, seq: ++remoteSeq.current });
    if (e.action === 'update') {
      const swap = (list: RecordModel[]) => list.map((r) => (r.id === id ? e.record : r));
      if (inList) setRecords(swap);
      if (announced) setIncoming(swap);
      return;
    }
    if (announced) {
      setIncoming((list) => list.filter((r) => r.id !== id));
      setTotal((t) => (t === null ? t : Math.max(0, t - 1)));
    } else if (inList && !deletedRef.current.has(id)) {
      setDeletedIds((s) => new Set(s).add(id));
      setSelected((s) => {
        if (!s.has(id)) return s;
        const next = new Set(s);
        next.delete(id);
        return next;
      });
      setTotal((t) => (t === null ? t : Math.max(0, t - 1)));
    }
  }, []);
  useLiveRecords(collection.id, !isView, { filter: normalizedFilter, expand, fields }, onLive);

  /** Puts the announced records on top of the list and scrolls there. */
  const showIncoming = () => {
    const fresh = incomingRef.current;
    setIncoming([]);
    setRecords((list) => [...fresh.filter((r) => !list.some((x) => x.id === r.id)), ...list]);
    setRenderLimit((l) => l + fresh.length);
    const wrapper = sentinel.current?.parentElement;
    if (wrapper) (scrollParent(wrapper) ?? document.scrollingElement)?.scrollTo({ top: 0 });
  };

  const openNew = useCallback(() => {
    setPanelMounted(true);
    setPanel((p) => ({ open: true, record: null, key: p.key + 1 }));
  }, []);

  const [docs, setDocs] = useState({ mounted: false, open: false });
  useEffect(() => {
    collectionsPageActions.apiPreview = () => setDocs({ mounted: true, open: true });
    return () => {
      collectionsPageActions.apiPreview = null;
    };
  }, []);

  useEffect(() => {
    if (isView) {
      collectionsPageActions.newRecord = null;
      return;
    }
    collectionsPageActions.newRecord = () => openNew();
    return () => {
      collectionsPageActions.newRecord = null;
    };
  }, [isView, openNew]);

  // recordId in the URL opens that record (a deep link to a record not in the list is fetched).
  useEffect(() => {
    if (!recordId) {
      if (panelRef.current.open && panelRef.current.record) setPanel((p) => ({ ...p, open: false }));
      return;
    }
    const cur = panelRef.current;
    if (cur.open && cur.record?.id === recordId) return;
    // The editor reloads the record itself; a row of the list is enough to open it with.
    const row = !isView ? recordsRef.current.find((r) => r.id === recordId) : undefined;
    if (row) {
      setPanelMounted(true);
      setPanel((p) => ({ open: true, record: row, key: p.key + 1 }));
      return;
    }
    let cancelled = false;
    pb.collection(collection.id)
      .getOne(recordId, defined({ expand, requestKey: 'record_view' }))
      .then((record) => {
        if (cancelled) return;
        setPanelMounted(true);
        setPanel((p) => ({ open: true, record, key: p.key + 1 }));
      })
      .catch((err) => {
        if (cancelled || isAbort(err)) return;
        const status = statusOf(err);
        if (status === 401 || status === 403) handleError(err);
        else addErrorToast(`Unable to load record with id "${recordId}"`);
        setQueryParams({ recordId: null });
      });
    return () => {
      cancelled = true;
    };
  }, [recordId, collection.id, expand, isView]);

  const openRecord = useCallback((id: string) => setQueryParams({ recordId: id }), []);
  const closePanel = useCallback(() => {
    setPanel((p) => ({ ...p, open: false }));
    setQueryParams({ recordId: null });
  }, []);

  /** Refetches one row with the list's expand/fields so it shows like its neighbours. */
  const refreshRow = useCallback(
    async (saved: RecordModel) => {
      let row: RecordModel = saved;
      try {
        row = await pb.collection(collection.id).getOne(saved.id, { ...defined({ expand, fields }), requestKey: null });
      } catch {
        /* show the saved record as it is */
      }
      setRecords((list) => {
        const idx = list.findIndex((r) => r.id === row.id);
        if (idx >= 0) {
          const copy = list.slice();
          copy[idx] = row;
          return copy;
        }
        return [row, ...list];
      });
    },
    [collection.id, expand, fields],
  );

  const onSaved = useCallback(
    (saved: RecordModel) => {
      const isNew = !records.some((r) => r.id === saved.id);
      // our own create may already have been announced by the realtime event (and counted)
      const announced = incomingRef.current.some((r) => r.id === saved.id);
      if (announced) setIncoming((list) => list.filter((r) => r.id !== saved.id));
      if (isNew && !announced) setTotal((t) => (t === null ? t : t + 1));
      void refreshRow(saved);
      // A new record saved while the panel stays open (Ctrl+S) now lives at its id.
      if (panelRef.current.open) {
        setPanel((p) => ({ ...p, record: saved }));
        setQueryParams({ recordId: saved.id });
      }
    },
    [records, refreshRow],
  );

  const onDeleted = useCallback((id: string) => {
    // the realtime event of this delete may have come first (and counted it already)
    const counted = deletedRef.current.has(id);
    setRecords((list) => list.filter((r) => r.id !== id));
    setDeletedIds((s) => {
      if (!s.has(id)) return s;
      const next = new Set(s);
      next.delete(id);
      return next;
    });
    setSelected((s) => {
      if (!s.has(id)) return s;
      const next = new Set(s);
      next.delete(id);
      return next;
    });
    if (!counted) setTotal((t) => (t === null ? t : Math.max(0, t - 1)));
    setPanel((p) => ({ ...p, open: false, record: null }));
    setQueryParams({ recordId: null });
  }, []);

  // ---- cell context ----
  const collectionsById = useMemo(() => new Map((collections as unknown as CollectionModel[]).map((c) => [c.id, c])), [collections]);
  const ctx = useMemo<CellContext>(() => ({ collection, collectionsById, fileToken }), [collection, collectionsById, fileToken]);

  const colSpan = visibleColumns.length + (selectable ? 1 : 0) + 1;
  const showSkeleton = loading && records.length === 0;
  const visible = records.slice(0, shown);

  return (
    <div className="records-list">
      <div className="records-toolbar">
        <RecordsSearchBar collection={collection} value={filter} invalid={invalid} onSubmit={(v) => setQueryParams({ filter: v || null })} />
        <SavedViewsButton
          collection={collection}
          current={{ filter, sort, hidden }}
          onApply={(v) => {
            setQueryParams({ filter: v.filter || null, sort: v.sort || null });
            replaceHidden(v.hidden);
          }}
        />
      </div>
      <RecordsIo collection={collection} filter={normalizedFilter} sort={sort} selected={selected} onImported={reload} />

      {incoming.length > 0 && (
        <div className="records-live-notice" role="status">
          <span className="records-live-dot" aria-hidden="true" />
          <span className="flex-fill">
            {incoming.length === 1 ? '1 new record' : `${incoming.length} new records`} created since the list was loaded.
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={showIncoming}>
            Show
          </button>
        </div>
      )}

      <div className="table-wrapper records-table-wrapper">
        <table className="table records-table" aria-busy={loading || undefined} aria-label={`${collection.name} records`}>
          <thead>
            <tr>
              {selectable && (
                <th className="col-select" scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select all"
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
                    <p className="empty-state-title">No records found.</p>
                    {filter ? (
                      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setQueryParams({ filter: null })}>
                        Clear filters
                      </button>
                    ) : (
                      !isView && (
                        <button type="button" className="btn btn-secondary btn-sm" onClick={openNew} onMouseEnter={preloadEditor}>
                          <IconPlus size={14} />
                          <span>New record</span>
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
                onOpen={openRecord}
                onToggle={toggleSelected}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div ref={sentinel} className="records-sentinel" aria-hidden="true" />

      {lastPageFull && shown >= records.length && records.length > 0 && (
        <div className="records-load-more">
          <button type="button" className={`btn btn-secondary${loading ? ' btn-loading' : ''}`} disabled={loading} onClick={loadMore}>
            Load more
          </button>
        </div>
      )}

      <div className="table-footer txt-hint records-footer">
        <span>Total found: {total === null ? '…' : total}</span>
      </div>

      {selected.size > 0 && (
        <div className="records-bulkbar" role="region" aria-label="Bulk actions">
          <span>
            Selected <strong>{selected.size}</strong> {selected.size === 1 ? 'record' : 'records'}
          </span>
          <button type="button" className="btn btn-transparent btn-sm" onClick={() => setSelected(new Set())}>
            Reset
          </button>
          <div className="flex-fill" />
          <BulkEditButton collection={collection} ids={[...selected]} onChanged={reload} />
          <button type="button" className="btn btn-danger btn-sm" onClick={deleteSelected}>
            Delete selected
          </button>
        </div>
      )}

      {docs.mounted && (
        <Suspense fallback={null}>
          <ApiDocsPanel collection={collection} open={docs.open} onClose={() => setDocs((d) => ({ ...d, open: false }))} />
        </Suspense>
      )}

      {panelMounted && (
        <Suspense fallback={null}>
          {isView ? (
            <RecordPreviewPanel key={panel.key} collection={collection} record={panel.record} open={panel.open} onClose={closePanel} />
          ) : (
            <RecordEditorPanel
              key={panel.key}
              collection={collection}
              record={panel.record}
              open={panel.open}
              onClose={closePanel}
              onSaved={onSaved}
              onDeleted={onDeleted}
              remoteChange={remote && remote.record.id === panel.record?.id ? remote : null}
            />
          )}
        </Suspense>
      )}
    </div>
  );
}
