// The collections sidebar: search, Pinned group (local storage),
// Others (only when something is pinned), 'No collections found.', 'New collection'; order auth →
// base → view by name; compact rows above 20 collections.
import { useSettledAccess } from '../../state/permissions';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { CollectionTypeIcon, IconPin, IconPlus, IconSearch } from '../../ui/icons';
import { PageSidebar } from '../../shell/PageSidebar';
import { isCompact, searchCollections, sortCollections } from '../../lib/collections/list';
import type { CollectionModel } from '../../lib/collections/types';
import { appState } from '../../state/app';
import { collectionsState, togglePinned } from '../../state/collections';
import { t } from '../../ui/i18n';

type Props = {
  activeId: string;
  onSelect: (c: CollectionModel) => void;
  onNew: () => void;
};

export function CollectionsSidebar({ activeId, onSelect, onNew }: Props) {
  const snap = useSnapshot(collectionsState);
  const { hideControls } = useSnapshot(appState);
  // new collections need the role's schema edit on all collections (src/state/permissions.ts)
  // (the New collection button waits for the role: a scoped admin's would show, then vanish)
  const settled = useSettledAccess();
  const [search, setSearch] = useState('');
  const all = snap.collections as CollectionModel[];
  const sorted = sortCollections(searchCollections(all, search));
  const pinnedIds = snap.pinned;
  const pinned = sorted.filter((c) => pinnedIds.includes(c.id));
  const others = sorted.filter((c) => !pinnedIds.includes(c.id));
  const compact = isCompact(all.length);

  const item = (c: CollectionModel) => {
    const active = c.id === activeId;
    const isPinned = pinnedIds.includes(c.id);
    return (
      <li key={c.id} className={`collection-item${active ? ' active' : ''}`}>
        <a
          href={`#/collections?collectionId=${encodeURIComponent(c.id)}`}
          className={`sidebar-list-item collection-link${active ? ' active' : ''}`}
          aria-current={active ? 'page' : undefined}
          title={c.name}
          onClick={(e) => {
            e.preventDefault();
            onSelect(c);
          }}
        >
          <CollectionTypeIcon type={c.type} size={compact ? 14 : 16} />
          <span className="txt-ellipsis">{c.name}</span>
        </a>
        <button
          type="button"
          className={`pin-button${isPinned ? ' pinned' : ''}`}
          aria-label={t(isPinned ? 'collections.unpinName' : 'collections.pinName', { name: c.name })}
          aria-pressed={isPinned}
          title={t(isPinned ? 'collections.unpin' : 'collections.pin')}
          onClick={() => togglePinned(c.id)}
        >
          <IconPin size={14} />
        </button>
      </li>
    );
  };

  return (
    <PageSidebar className={`collections-sidebar${compact ? ' compact' : ''}`} label={t('page.collections')}>
      <div className="collections-sidebar-inner">
        <div className="sidebar-search">
          <span className="sidebar-search-icon" aria-hidden="true">
            <IconSearch size={14} />
          </span>
          <input
            type="search"
            placeholder={t('collections.searchPlaceholder')}
            aria-label={t('collections.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <nav aria-label={t('collections.list')} className="collections-nav">
          {pinned.length > 0 && (
            <div className="sidebar-group">
              <div className="sidebar-title">{t('collections.pinned')}</div>
              <ul className="collection-list">{pinned.map(item)}</ul>
            </div>
          )}
          {others.length > 0 && (
            <div className="sidebar-group">
              {pinned.length > 0 && <div className="sidebar-title">{t('collections.others')}</div>}
              <ul className="collection-list">{others.map(item)}</ul>
            </div>
          )}
          {sorted.length === 0 && snap.loaded && <p className="txt-hint sidebar-note">{t('export.noCollections')}</p>}
        </nav>
        <a href="#/collections/graph" className="btn btn-transparent btn-block btn-sm collections-graph-link">
          <span>{t('page.collectionsGraph')}</span>
        </a>
        {!hideControls && settled?.schema(null, 'edit') && (
          <div className="sidebar-footer">
            <button type="button" className="btn btn-secondary btn-block btn-sm" onClick={onNew}>
              <IconPlus size={14} />
              <span>{t('collections.new')}</span>
            </button>
          </div>
        )}
      </div>
    </PageSidebar>
  );
}
