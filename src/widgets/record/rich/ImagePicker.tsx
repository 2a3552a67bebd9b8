/**
 * The rich editor's image picker 'Select an image': a sidebar of the collections with
 * non-protected file fields, a search box, the records' images (50 per page, '*:excerpt(100)',
 * records with at least one file), 'New record' (the record editor for the current collection, on
 * top; the list reloads after each save), a thumb size selector ('Original size' or a field's thumbs) and
 * the empty state 'No records with images found.'. Resolves with the chosen image's URL.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { OverlayPanel } from '../../../ui/OverlayPanel';
import type { CollectionModel, SchemaField } from '../../../lib/collections/types';
import { joinFilters, normalizeSearchFilter } from '../../../lib/filter-normalize';
import { fileKind, fileUrl, hasThumb, searchableFields } from '../../../lib/records/format';
import { fieldDefinition } from '../../../fields/registry';
import { isMultiple } from '../../../lib/record-schema';
import { useCollections } from '../../../state/collections';
import { useAccess } from '../../../state/permissions';
import { useRecordEditor } from '../context';
import { t } from '../../../ui/i18n';

// 'New record' opens the record editor for the picker's collection (its chunk only when asked for)
/** The nested editor's form id (its fields must not clash with the editor the picker was opened from). */
const PICKER_RECORD_FORM_ID = 'image-picker-record-form';

const IMAGE_PICKER_PER_PAGE = 50;
const ORIGINAL_SIZE = '';

export type ImagePickerProps = { open: boolean; onClose(): void; onSelect(url: string): void };

/** The non-protected file fields of a collection (what the picker can show). */
function imageFields(c: Pick<CollectionModel, 'schema'>): SchemaField[] {
  return (c.schema ?? []).filter((f) => fieldDefinition(f.type).uploads && !f.options?.protected && !f.toDelete);
}

/** Records with any file in those fields. */
function imageRecordsFilter(fields: readonly SchemaField[]): string {
  return fields.map((f) => (isMultiple(f) ? `${f.name}:length > 0` : `${f.name} != ''`)).join(' || ');
}

const toList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

type Picked = { record: RecordModel; field: SchemaField; name: string };

export default function ImagePicker({ open, onClose, onSelect }: ImagePickerProps) {
  const { collections } = useCollections();
  const sources = useMemo(() => (collections as CollectionModel[]).filter((c) => imageFields(c).length > 0), [collections]);
  const [activeId, setActiveId] = useState('');
  const active = sources.find((c) => c.id === activeId) ?? sources[0] ?? null;
  const [search, setSearch] = useState('');
  const [items, setItems] = useState<RecordModel[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [size, setSize] = useState(ORIGINAL_SIZE);
  const [creating, setCreating] = useState<CollectionModel | null>(null);
  const { NestedEditor } = useRecordEditor();
  // (a scoped admin without create on that collection gets no New record button: the server would refuse)
  const access = useAccess();
  const seq = useRef(0);

  const load = async (c: CollectionModel, nextPage: number, term: string) => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const fields = imageFields(c);
      const res = await pb.collection(c.id).getList(nextPage, IMAGE_PICKER_PER_PAGE, {
        filter: joinFilters(imageRecordsFilter(fields), normalizeSearchFilter(term, searchableFields(c))),
        sort: c.type === 'view' ? '' : '-created',
        fields: '*:excerpt(100)',
        skipTotal: true,
        requestKey: null,
      });
      if (mine !== seq.current) return;
      setItems((prev) => (nextPage === 1 ? res.items : [...prev, ...res.items]));
      setPage(nextPage);
      setHasMore(res.items.length >= IMAGE_PICKER_PER_PAGE);
    } catch (err) {
      if (mine === seq.current) handleError(err, { silent400: true });
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  };

  useEffect(() => {
    if (!open || !active) return;
    setPicked(null);
    const t = setTimeout(() => void load(active, 1, search), search ? 250 : 0);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, active?.id, search]);

  const images: Picked[] = active
    ? items.flatMap((record) =>
        imageFields(active).flatMap((field) => toList(record[field.name]).filter((n) => fileKind(n) === 'image').map((name) => ({ record, field, name }))),
      )
    : [];
  const thumbs = picked ? ['100x100', ...toList(picked.field.options?.thumbs).filter((t) => t !== '100x100')] : [];
  const urlOf = (p: Picked, thumb?: string) => fileUrl(pb.baseUrl, p.record.collectionId, p.record.id, p.name, { thumb: thumb || undefined });

  return (
    <OverlayPanel
      open={open}
      onRequestClose={onClose}
      size="lg"
      className="image-picker"
      header={t('recordWidget.selectImage')}
      footer={
        <>
          <label className="image-picker-size">
            <span className="txt-hint txt-sm">{t('recordWidget.size')}</span>
            <select className="sf-input sf-select" value={size} disabled={!picked} onChange={(e) => setSize(e.target.value)} aria-label={t('recordWidget.imageSize')}>
              <option value={ORIGINAL_SIZE}>{t('recordWidget.originalSize')}</option>
              {thumbs.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <span className="flex-fill" />
          <button type="button" className="btn btn-transparent" onClick={onClose}>
            {t('recordWidget.cancel')}
          </button>
          <button type="button" className="btn btn-primary" disabled={!picked} onClick={() => picked && onSelect(urlOf(picked, size))}>
            {t('recordWidget.insertImage')}
          </button>
        </>
      }
    >
      <div className="image-picker-body">
        <nav className="image-picker-sidebar" aria-label={t('recordWidget.imageCollections')}>
          {sources.map((c) => (
            <button
              key={c.id}
              type="button"
              className={`sidebar-list-item${active?.id === c.id ? ' active' : ''}`}
              aria-current={active?.id === c.id || undefined}
              onClick={() => {
                setActiveId(c.id);
                setSize(ORIGINAL_SIZE);
              }}
            >
              {c.name}
            </button>
          ))}
        </nav>
        <div className="image-picker-main">
          <div className="image-picker-search">
            <input type="search" className="sf-input" placeholder={t('recordWidget.searchRecordsDots')} aria-label={t('recordWidget.searchRecords')} value={search} onChange={(e) => setSearch(e.target.value)} />
            {active && active.type !== 'view' && NestedEditor && access.records(active, 'create') && (
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setCreating(active)}>
                {t('recordWidget.newRecord')}
              </button>
            )}
          </div>
          <div className="image-picker-grid">
            {images.map((p) => {
              const on = picked?.record.id === p.record.id && picked.name === p.name;
              return (
                <button
                  type="button"
                  key={`${p.record.id}/${p.name}`}
                  className={`image-picker-thumb${on ? ' is-selected' : ''}`}
                  title={p.name}
                  aria-pressed={on}
                  onClick={() => {
                    setPicked(p);
                    setSize(ORIGINAL_SIZE);
                  }}
                >
                  <img src={urlOf(p, hasThumb(p.name) ? '100x100' : undefined)} alt={p.name} loading="lazy" />
                </button>
              );
            })}
          </div>
          {!loading && images.length === 0 && <p className="txt-hint txt-center empty-state-title">{t('recordWidget.noImages')}</p>}
          {loading && <p className="txt-hint txt-center">{t('recordWidget.loading')}</p>}
          {hasMore && !loading && active && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void load(active, page + 1, search)}>
              {t('recordWidget.loadMore')}
            </button>
          )}
        </div>
      </div>
      {creating && NestedEditor && (
        <NestedEditor
          collection={creating}
          formId={PICKER_RECORD_FORM_ID}
          onClose={() => setCreating(null)}
          onSaved={() => {
            // the new record's images become pickable: reload from the first page
            if (active?.id === creating.id) void load(creating, 1, search);
          }}
        />
      )}
    </OverlayPanel>
  );
}
