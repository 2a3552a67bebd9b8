/**
 * The command palette (Ctrl/Cmd+K): a searchable list of actions, collections, recent records,
 * settings screens and admins. A 15-character record id is looked up in every collection (one
 * request on Outpost) and offered first. Focus stays in the search box; ↑/↓ move the active
 * option, Enter runs it, Esc closes. The collections list is the store's: loaded on demand when the
 * palette opens on a screen that did not load it (quiet "Loading collections…" meanwhile); an
 * Enter pressed while the list or a record lookup is on its way runs the first result once it is in.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { pb } from '../../api/client';
import type { CollectionModel } from '../../lib/collections/types';
import { collectionsPageActions } from '../../pages/collections/RecordsSlot';
import { appState } from '../../state/app';
import { canArea } from '../../state/permissions';
import { collectionsState, ensureCollections } from '../../state/collections';
import { IconSearch } from '../../ui/icons';
import { navigate } from '../../shell/navigation';
import { toggleTheme, useTheme } from '../../ui/theme';
import { buildCommands, looksLikeRecordId, matchCommands, recordHref, type Command } from './commands';
import { takeKeyBuffer } from './key-buffer';
import { readRecent } from './recent';
import { findRecordCollection, type FoundCollection } from './record-lookup';
import './palette.css';
import { t } from '../../ui/i18n';

type Admin = { id: string; email: string };
let adminsCache: Admin[] | null = null;

export default function CommandPalette({ onClose }: { onClose: () => void }) {
  const snap = useSnapshot(collectionsState);
  const app = useSnapshot(appState);
  const pageActions = useSnapshot(collectionsPageActions);
  const theme = useTheme();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [admins, setAdmins] = useState<Admin[]>(adminsCache ?? []);
  const [found, setFound] = useState<{ id: string; collection: FoundCollection | null } | null>(null);
  /** The query an Enter was pressed on while the results were still coming. */
  const [enterWhenReady, setEnterWhenReady] = useState<string | null>(null);
  const [listSettled, setListSettled] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const restoreFocus = useRef<Element | null>(null);

  // layout effect: the caught keys and focus move to the box before the browser handles another key
  useLayoutEffect(() => {
    restoreFocus.current = document.activeElement;
    const typed = takeKeyBuffer();
    if (typed) setQuery(typed);
    inputRef.current?.focus();
    return () => (restoreFocus.current as HTMLElement | null)?.focus?.();
  }, []);

  // The collections (PaletteHost asked as the palette opened: this joins that load).
  useEffect(() => {
    let live = true;
    void ensureCollections().then(() => live && setListSettled(true));
    return () => void (live = false);
  }, []);

  // Admins: one small page, fetched once per session.
  useEffect(() => {
    // (a scoped admin without the admins area would meet a 403: src/state/permissions.ts)
    if (adminsCache || !canArea('admins')) return;
    pb.admins
      .getList(1, 50, { sort: 'email', fields: 'id,email', skipTotal: true, requestKey: null })
      .then((res) => setAdmins((adminsCache = res.items.map((a) => ({ id: a.id, email: a.email })))))
      .catch(() => undefined);
  }, []);

  const trimmed = query.trim();
  useEffect(() => {
    if (!looksLikeRecordId(trimmed)) {
      setFound(null);
      return;
    }
    const ctrl = new AbortController();
    const t = setTimeout(() => {
      const collections = () => ensureCollections().then(() => collectionsState.collections as CollectionModel[]);
      void findRecordCollection(trimmed, collections, collectionsState.activeId, ctrl.signal).then((c) => {
        if (!ctrl.signal.aborted) setFound({ id: trimmed, collection: c });
      });
    }, 150);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [trimmed]);
  const listPending = !snap.loaded && (snap.loading || !listSettled);
  const lookupPending = looksLikeRecordId(trimmed) && found?.id !== trimmed;

  const activeCollection = (snap.collections.find((c) => c.id === snap.activeId) as CollectionModel | undefined) ?? null;
  const all = useMemo(
    () =>
      buildCommands({
        collections: snap.collections as CollectionModel[],
        activeCollection,
        hideControls: app.hideControls,
        recent: readRecent(),
        admins,
        theme,
        actions: {
          newRecord: pageActions.newRecord && activeCollection ? () => collectionsPageActions.newRecord?.(activeCollection) : null,
          newCollection: () => {
            collectionsPageActions.newCollectionRequested = true;
            navigate('/collections');
          },
          apiDocs: pageActions.apiPreview && activeCollection ? () => collectionsPageActions.apiPreview?.(activeCollection) : null,
          toggleTheme,
        },
      }),
    [snap.collections, activeCollection, app.hideControls, admins, theme, pageActions.newRecord, pageActions.apiPreview],
  );

  const results = useMemo(() => {
    const list = matchCommands(all, query);
    if (found && found.id === trimmed) {
      const rec: Command = found.collection
        ? { key: 'id:' + found.id, group: 'Records', label: t('palette.openRecord', { id: found.id }), hint: found.collection.name, href: recordHref(found.collection.id, found.id) }
        : { key: 'id:none', group: 'Records', label: t('palette.noRecord', { id: found.id }) };
      return [rec, ...list.filter((c) => c.key !== 'r:' + found.id)];
    }
    return list;
  }, [all, query, found, trimmed]);

  useEffect(() => setActive(0), [query, found]);

  const run = (c: Command | undefined) => {
    if (!c || (!c.href && !c.run)) return;
    onClose();
    if (c.href) navigate(c.href);
    else c.run?.();
  };

  const busy = listPending || lookupPending;
  useEffect(() => {
    if (enterWhenReady === null || busy) return;
    setEnterWhenReady(null);
    if (enterWhenReady === query) run(results[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- run closes over the props of this render
  }, [busy, enterWhenReady, query, results]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = results.length;
      if (n) setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (!results[active] && busy) setEnterWhenReady(query);
      else run(results[active]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === 'Tab') {
      e.preventDefault(); // the dialog has one control: focus stays in the search box
    }
  };

  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  let lastGroup = '';
  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label={t('palette.label')}>
        <div className="palette-search">
          <IconSearch size={18} />
          <input
            ref={inputRef}
            type="text"
            className="palette-input"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={results.length ? `${listId}-${active}` : undefined}
            aria-autocomplete="list"
            aria-label={t('palette.searchLabel')}
            placeholder={t('palette.placeholder')}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setEnterWhenReady(null);
            }}
            onKeyDown={onKeyDown}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <ul className="palette-list" id={listId} role="listbox" aria-label={t('palette.results')} aria-busy={busy || undefined}>
          {results.map((c, i) => {
            const header = c.group !== lastGroup;
            lastGroup = c.group;
            return (
              <li
                key={c.key}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                aria-disabled={!c.href && !c.run ? true : undefined}
                className={`palette-item${i === active ? ' active' : ''}${header ? ' palette-item--first' : ''}`}
                data-group={header ? t(`palette.group.${c.group}`) : undefined}
                onMouseMove={() => setActive(i)}
                onClick={() => run(c)}
              >
                <span className="palette-label">{c.label}</span>
                {c.hint && <span className="palette-hint">{c.hint}</span>}
                <span className="palette-group">{t(`palette.group.${c.group}`)}</span>
              </li>
            );
          })}
          {(busy || results.length === 0) && (
            <li className="palette-empty" role="presentation">
              {listPending ? t('palette.loadingCollections') : lookupPending ? t('palette.lookingUp') : t('palette.noResults')}
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}
