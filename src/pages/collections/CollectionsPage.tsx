// #/collections: the collections sidebar, the header of the active
// collection, the records area (RecordsArea) and the collection
// editor panel. Query params: collectionId, filter, sort (default -created), recordId.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useAccess } from '../../state/permissions';
import { IconPlus, IconSettings } from '../../ui/icons';
import { RefreshButton } from '../../shell/RefreshButton';
import { setQueryParams, useRoute } from '../../shell/navigation';
import { usePageTitle } from '../../shell/page-title';
import { Breadcrumbs } from '../../shell/SettingsLayout';
import { DEFAULT_RECORDS_SORT, normalizeRecordsSort } from '../../lib/collections/list';
import type { CollectionModel } from '../../lib/collections/types';
import { appState } from '../../state/app';
import { collectionsState, listenForReloads, loadCollections, loadCollectionsOnEntry, setActiveCollection } from '../../state/collections';
import { CollectionsSidebar } from './CollectionsSidebar';
import { RecordsArea } from './RecordsArea';
import { collectionsPageActions } from './RecordsSlot';
import './collections.css';
import { t } from '../../ui/i18n';

const CollectionEditorPanel = lazy(() => import('./CollectionEditorPanel'));
const preloadEditor = () => void import('./CollectionEditorPanel');

export default function CollectionsPage() {
  const { query } = useRoute();
  const snap = useSnapshot(collectionsState);
  const { hideControls } = useSnapshot(appState);
  const actions = useSnapshot(collectionsPageActions);
  const access = useAccess();
  const [editor, setEditor] = useState<{ open: boolean; collection: CollectionModel | null; key: number }>({ open: false, collection: null, key: 0 });
  const [editorMounted, setEditorMounted] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);

  const collections = snap.collections as CollectionModel[];
  // The collection the address names wins over the store's choice, which follows it an effect
  // later: the address's sort must be checked against the collection it was written for.
  const wanted = query.collectionId;
  const active =
    (wanted ? collections.find((c) => c.id === wanted || c.name === wanted) : undefined) ??
    collections.find((c) => c.id === snap.activeId) ??
    null;
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
    if (!snap.loaded) return;
    if (wanted && wanted !== snap.activeId && collections.some((c) => c.id === wanted || c.name === wanted)) {
      const found = collections.find((c) => c.id === wanted || c.name === wanted)!;
      setActiveCollection(found.id);
    } else if ((snap.activeId || '') !== (wanted || '')) {
      setQueryParams({ collectionId: snap.activeId || null, filter: null, sort: null, recordId: null });
    }
  }, [snap.loaded, snap.activeId, wanted, collections]);

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
  if (!snap.loaded) {
    body = (
      <div className="empty-state">
        <p className="loading-text">{t('collections.loading')}</p>
      </div>
    );
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
  } else if (active) {
    body = (
      // The records list draws its own search bar (with field autocomplete) and keeps `filter` in the URL.
      <RecordsArea collection={active} filter={query.filter ?? ''} sort={sort} recordId={query.recordId ?? ''} refreshKey={refreshKey} />
    );
  }

  return (
    <div className="page-with-sidebar collections-page">
      <CollectionsSidebar activeId={snap.activeId} onSelect={select} onNew={() => openEditor(null)} />
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
              <button
                type="button"
                className="btn btn-secondary"
                disabled={!actions.apiPreview}
                title={actions.apiPreview ? undefined : t('collections.comingSoon')}
                onClick={() => actions.apiPreview?.(active)}
              >
                <span>{t('collections.apiPreview')}</span>
              </button>
              {active.type !== 'view' && access.records(active, 'create') && (
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
