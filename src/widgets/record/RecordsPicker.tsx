import { useCallback, useEffect, useRef, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError, pb } from '../../api/client';
import { OverlayPanel } from '../../ui/OverlayPanel';
import type { CollectionModel } from '../../lib/collections/types';
import { normalizeSearchFilter } from '../../lib/filter-normalize';
import { relationLabel, searchableFields } from '../../lib/records/format';
import { PICKER_PER_PAGE } from './relation-data';
import { t } from '../../ui/i18n';
import { formatCount } from '../../ui/counts';

export type RecordsPickerProps = {
  open: boolean;
  collection: CollectionModel;
  /** The records chosen so far (labels shown for them at once). */
  selected: readonly RecordModel[];
  /** 1 for a single relation; undefined for no limit. */
  maxSelect?: number;
  onClose(): void;
  onSet(records: RecordModel[]): void;
};

/** The header count: '(N of MAX M)' with a limit, '(N)' without. */
export function selectionCount(n: number, max?: number): string {
  return max ? t('recordWidget.countOfMax', { n: formatCount(n), max: formatCount(max) }) : t('recordWidget.count', { n: formatCount(n) });
}

/**
 * The records picker popup 'Select {collection} records': search, 50 per page with
 * Load more, single choice when maxSelect is 1, otherwise selectable while fewer than maxSelect are
 * chosen; Cancel / 'Set selection'.
 */
export function RecordsPicker({ open, collection, selected, maxSelect, onClose, onSet }: RecordsPickerProps) {
  const [chosen, setChosen] = useState<RecordModel[]>([]);
  const [items, setItems] = useState<RecordModel[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [search, setSearch] = useState('');
  const seq = useRef(0);
  const single = maxSelect === 1;

  const load = useCallback(
    async (nextPage: number, term: string) => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const filter = normalizeSearchFilter(term, searchableFields(collection));
        const res = await pb.collection(collection.id).getList(nextPage, PICKER_PER_PAGE, {
          filter,
          sort: collection.type === 'view' ? '' : '-created',
          fields: '*:excerpt(200)',
          skipTotal: true,
          requestKey: null,
        });
        if (mine !== seq.current) return;
        setItems((prev) => (nextPage === 1 ? res.items : [...prev, ...res.items]));
        setPage(nextPage);
        setHasMore(res.items.length >= PICKER_PER_PAGE);
      } catch (err) {
        if (mine === seq.current) handleError(err, { silent400: true });
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [collection],
  );

  useEffect(() => {
    if (!open) return;
    setChosen([...selected]);
    setSearch('');
    void load(1, '');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, collection.id]);

  useEffect(() => {
    if (!open) return;
    const t = setTimeout(() => void load(1, search), 250);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const isChosen = (id: string) => chosen.some((r) => r.id === id);
  const full = !single && maxSelect !== undefined && chosen.length >= maxSelect;

  const toggle = (r: RecordModel) => {
    if (isChosen(r.id)) setChosen(chosen.filter((x) => x.id !== r.id));
    else if (single) setChosen([r]);
    else if (!full) setChosen([...chosen, r]);
  };

  const title = t('recordWidget.pickerTitle', { name: collection.name });
  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      size="popup"
      className="records-picker"
      ariaLabel={title}
      header={
        <div className="records-picker-header">
          <h4 className="overlay-panel-title">{title}</h4>
          <input
            type="search"
            className="sf-input"
            placeholder={t('recordWidget.searchPlaceholder')}
            aria-label={t('recordWidget.searchRecords')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      }
      footer={
        <>
          <button type="button" className="btn btn-transparent" onClick={onClose}>
            {t('recordWidget.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              onSet(chosen);
              onClose();
            }}
          >
            {t('recordWidget.setSelection')}
          </button>
        </>
      }
    >
      <div className="records-picker-list" role="listbox" aria-multiselectable={!single || undefined} aria-label={t('recordWidget.pickerList', { name: collection.name })}>
        {items.map((r) => {
          const on = isChosen(r.id);
          const label = relationLabel(r, collection);
          return (
            <button
              type="button"
              key={r.id}
              role="option"
              aria-selected={on}
              className={`records-picker-item${on ? ' is-selected' : ''}`}
              disabled={!on && full}
              onClick={() => toggle(r)}
            >
              <span className={`records-picker-mark${single ? ' is-radio' : ''}`} aria-hidden="true">
                {on ? '✓' : ''}
              </span>
              <span className="records-picker-label txt-ellipsis">{label}</span>
              {label !== r.id && <span className="txt-hint txt-sm txt-mono">{r.id}</span>}
            </button>
          );
        })}
        {!loading && items.length === 0 && <p className="txt-hint txt-center">{t('recordWidget.noRecords')}</p>}
        {loading && <p className="txt-hint txt-center loading-text">{t('recordWidget.loading')}</p>}
        {hasMore && !loading && (
          <button type="button" className="btn btn-secondary btn-sm btn-block" onClick={() => void load(page + 1, search)}>
            {t('recordWidget.loadMore')}
          </button>
        )}
      </div>
      <div className="records-picker-selected">
        <p className="txt-sm txt-hint">{t('recordWidget.selected', { selection: selectionCount(chosen.length, maxSelect) })}</p>
        <div className="records-picker-chips">
          {chosen.map((r) => (
            <span className="record-chip" key={r.id}>
              {relationLabel(r, collection)}
              <button type="button" className="record-chip-remove" aria-label={t('recordWidget.deselect', { id: r.id })} onClick={() => toggle(r)}>
                ×
              </button>
            </span>
          ))}
        </div>
      </div>
    </OverlayPanel>
  );
}
