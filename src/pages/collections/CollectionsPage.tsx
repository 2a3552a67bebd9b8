// #/collections: the collections sidebar, the header of the active
// collection, the records area (RecordsArea) and the collection
// editor panel. Query params: collectionId, filter, sort (default -created), recordId.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useKnownAccess } from '../../state/permissions';
import { useAuth } from '../../state/auth';
import { NoAccess } from '../../shell/NoAccess';
import { IconPlus, IconSettings } from '../../ui/icons';
import { RefreshButton } from '../../shell/RefreshButton';
import { setQueryParams, useRoute } from '../../shell/navigation';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs } from '../../shell/SettingsLayout';
import { DEFAULT_RECORDS_SORT, normalizeRecordsSort } from '../../lib/collections/list';
import type { CollectionModel } from '../../lib/collections/types';
import { accessOf, mayPreviewApi } from '../../lib/roles';
import { appState } from '../../state/app';
import { collectionsState, listenForReloads, loadCollections, loadCollectionsOnEntry, setActiveCollection } from '../../state/collections';
import { CollectionsSidebar } from './CollectionsSidebar';
import { RecordsArea } from './RecordsArea';
import { collectionsPageActions } from './RecordsSlot';
import './collections.css';
import { t } from '../../ui/i18n';

const CollectionEditorPanel = lazy(() => import('./CollectionEditorPanel'));
const preloadEditor = () => void import('./CollectionEditorPanel');
/** Until the admin's role is read: nothing is offered. */
const NOTHING = accessOf({ id: '', name: '', created: '', updated: '', collections: [], areas: {} });

export default function CollectionsPage() {
  const { query } = useRoute();
  const snap = useSnapshot(collectionsState);
  const { hideControls } = useSnapshot(appState);
  const actions = useSnapshot(collectionsPageActions);
  const knownAccess = useKnownAccess(useAuth().admin?.id);
  // what the role allows is drawn once it is known: a records list the role may not read would
  // meet a 403 (a full admin's read of its role rides beside the collections request)
  const access = knownAccess ?? NOTHING;
  const [editor, setEditor] = useState<{ open: boolean; collection: CollectionModel | null; key: number }>({ open: false, collection: null, key: 0 });
  const [editorMounted, setEditorMounted] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);

  const collections = snap.collections as CollectionModel[];
  // The collection the address names wins over the store's choice, which follows it an effect
  // later: the address's sort must be checked against the collection it was written for.
  const wanted = query.collectionId;
  const wantedFound = wanted ? collections.find((c) => c.id === wanted || c.name === wanted) : undefined;
  // A scoped admin's list holds only the collections its role includes: an address naming another
  // one is explained, not silently swapped for the first collection (a full admin's is, as in 0.22).
  // Until the role is known, the address is left alone.
  const missing = snap.loaded && !!wanted && !wantedFound;
  const hidden = missing && knownAccess !== null && !knownAccess.full;
  const active = hidden ? null : (wantedFound ?? collections.find((c) => c.id === snap.activeId) ?? null);
  usePageTitle(active?.name ?? t('page.collections'));

  // Load once (keeping the collection of the address), and follow reloads of other tabs.
  useEffect(() => {
    // (the app may have asked for the list as it started: see records/list/records-first-load)
    void loadCollectionsOnEntry(query.collectionId || undefined);
    return listenForReloads();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The address picks the active collection; the store's choice is written back to it.
  useEffect(() => {
    if (!snap.loaded || hidden || (missing && !knownAccess)) return;
    if (wanted && wanted !== snap.activeId && collections.some((c) => c.id === wanted || c.name === wanted)) {
      const found = collections.find((c) => c.id === wanted || c.name === wanted)!;
      setActiveCollection(found.id);
    } else if ((snap.activeId || '') !== (wanted || '')) {
      setQueryParams({ collectionId: snap.activeId || null, filter: null, sort: null, recordId: null });
    }
  }, [snap.loaded, snap.activeId, wanted, collections, hidden, missing, knownAccess]);

  // A sort naming fields the collection lacks resets to the default.
  const sort = normalizeRecordsSort(query.sort, active);
  useEffect(() => {
    if (active && active.id === snap.activeId && query.sort && sort !== query.sort) setQueryParams({ sort: sort === DEFAULT_RECORDS_SORT ? null : sort || null });
  }, [active, snap.activeId, query.sort, sort]);

  const select = (c: CollectionModel) => {
    setActiveCollection(c.id);
    // Changing the collection resets filter, sort and record id.
    setQueryParams({ collectionId: c.id, filter: null, sort: null, recordId: null }, { replace: false });
  };

  const openEditor = (collection: CollectionModel | null) => {
    setEditorMounted(true);
    setEditor((e) => ({ open: true, collection, key: e.key + 1 }));
  };

  // The command palette's "New collection" (it may come from another page).
  useEffect(() => {
    if (!actions.newCollectionRequested || hideControls) return;
    collectionsPageActions.newCollectionRequested = false;
    openEditor(null);
  }, [actions.newCollectionRequested, hideControls]);

  const onSaved = (saved: CollectionModel, created: boolean) => {
    if (created) select(saved);
  };

  const refresh = () => {
    void loadCollections();
    setRefreshKey((k) => k + 1);
  };

  let body;
  if (!snap.loaded || !knownAccess) {
    body = (
      <div className="empty-state">
        <p className="loading-text">{t('collections.loading')}</p>
      </div>
    );
  } else if (hidden) {
    body = <NoAccess reason={{ kind: 'collection', collection: wanted }} />;
  } else if (collections.length === 0) {
    body = (
      <div className="empty-state placeholder-card collections-empty">
        <p className="empty-state-title">{t('collections.noneYet')}</p>
        {!hideControls && access.schema(null, 'edit') && (
          <>
            <p className="txt-hint">{t('collections.createFirst')}</p>
            <button type="button" className="btn btn-primary" onClick={() => openEditor(null)} onMouseEnter={preloadEditor}>
              <IconPlus size={16} />
              <span>{t('collections.createNew')}</span>
            </button>
          </>
        )}
      </div>
    );
  } else if (active && !access.records(active, 'read')) {
    // seen for its schema (or for export/import) only: its records stay closed
    body = <NoAccess reason={{ kind: 'records', collection: active.name }} />;
  } else if (active) {
    body = (
      // The records list draws its own search bar (with field autocomplete) and keeps `filter` in the URL.
      <RecordsArea collection={active} filter={query.filter ?? ''} sort={sort} recordId={query.recordId ?? ''} refreshKey={refreshKey} />
    );
  }

  return (
    <div className="page-with-sidebar collections-page">
      <CollectionsSidebar activeId={hidden ? '' : snap.activeId} onSelect={select} onNew={() => openEditor(null)} />
      <main className="page-wrapper">
        <header className="page-header">
          <Breadcrumbs items={active ? [t('page.collections'), active.name] : [t('page.collections')]} />
          {active && (
            <>
              {!hideControls && access.schema(active, 'view') && (
                <button
                  type="button"
                  className="btn btn-transparent btn-circle btn-sm"
                  aria-label={t('collections.edit')}
                  title={t('collections.edit')}
                  onMouseEnter={preloadEditor}
                  onFocus={preloadEditor}
                  onClick={() => openEditor(active)}
                >
                  <IconSettings size={16} />
                </button>
              )}
              <RefreshButton loading={snap.loading} onClick={refresh} />
              <div className="flex-fill" />
              {mayPreviewApi(access, active) && (
                <button
                  type="button"
                  className="btn btn-secondary"
                  disabled={!actions.apiPreview}
                  title={actions.apiPreview ? undefined : t('collections.comingSoon')}
                  onClick={() => actions.apiPreview?.(active)}
                >
                  <span>{t('collections.apiPreview')}</span>
                </button>
              )}
              {active.type !== 'view' && access.records(active, 'create') && access.records(active, 'read') && (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={!actions.newRecord}
                  title={actions.newRecord ? undefined : t('collections.comingSoon')}
                  onClick={() => actions.newRecord?.(active)}
                >
                  <IconPlus size={16} />
                  <span>{t('collections.newRecord')}</span>
                </button>
              )}
            </>
          )}
        </header>
        <div className="page-content">{body}</div>
      </main>

      {editorMounted && (
        <Suspense fallback={null}>
          <CollectionEditorPanel
            key={editor.key}
            open={editor.open}
            collection={editor.collection}
            onClose={() => setEditor((e) => ({ ...e, open: false }))}
            onSaved={onSaved}
          />
        </Suspense>
      )}
    </div>
  );
}
