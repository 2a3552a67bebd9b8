// The collections store: the full list sorted by name, the active
// collection (kept, or the first), the draft the editor panel is working on (read by the field
// option widgets: relation targets, index columns, rule autocomplete), pinned ids in local storage,
// and a reload broadcast to other tabs after a save or delete.
//
// Who loads the list: the records screen (its early path as the app starts on #/collections, then
// the page on entry), the relation graph, and anything else that needs it on another screen (the
// command palette) through ensureCollections: one load, joined by everyone while in flight. Once
// loaded, the tab listens for the reload broadcast for good: while the records screen is open it
// reloads at once, elsewhere the list is marked stale and the next ensureCollections reloads it.
import { proxy, ref, useSnapshot } from 'valtio';
import { handleError, pb } from '../api/client';
import { EARLY_COLLECTIONS_BATCH, takeEarlyCollections } from '../lib/boot/early-collections';
import type { CollectionModel } from '../lib/collections/types';

export type CollectionsState = {
  collections: CollectionModel[];
  loading: boolean;
  loaded: boolean;
  activeId: string;
  /** The collection the editor panel is editing (unsaved), for widgets that need context. */
  draft: CollectionModel | null;
  pinned: string[];
};

const PINNED_STORAGE_KEY = '@pinnedCollections';
export const COLLECTIONS_CHANNEL = 'outpost-collections';
const COLLECTIONS_BATCH = EARLY_COLLECTIONS_BATCH;
/** An answer asked for early (by the boot script, or the app before the page's code was in) is used up to this old. */
const EARLY_MAX_AGE_MS = 10_000;

function readPinned(): string[] {
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(PINNED_STORAGE_KEY) : null;
    const list = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export const collectionsState = proxy<CollectionsState>({
  collections: [],
  loading: false,
  loaded: false,
  activeId: '',
  draft: null,
  pinned: readPinned(),
});

export function useCollections() {
  return useSnapshot(collectionsState);
}

function byName(list: CollectionModel[]): CollectionModel[] {
  // localeCompare's collation data is loaded by the boot script on #/collections (lib/boot/early-collections)
  return [...list].sort((a, b) => a.name.localeCompare(b.name));
}

/** Keeps the active collection when it still exists, else picks the first. */
function keepActive(preferred?: string): void {
  const list = collectionsState.collections;
  const want = preferred ?? collectionsState.activeId;
  const found = want ? list.find((c) => c.id === want || c.name === want) : undefined;
  collectionsState.activeId = found?.id ?? list[0]?.id ?? '';
}

let loadSeq = 0;
/** The load in flight (null once it settled), for ensureCollections to join. */
let inFlight: Promise<void> | null = null;
/** A reload broadcast came while no screen listening live was open: the next ensureCollections reloads. */
let stale = false;

/**
 * GET /api/collections (batches of 200, sorted by name); `activeId` picks the active one.
 * `loaded` runs as the list is stored, before any component hears of it. When the boot script's
 * answer is already in, the list is stored (and `loaded` runs) before this returns.
 */
export function loadCollections(activeId?: string, loaded?: () => void): Promise<void> {
  const seq = ++loadSeq;
  collectionsState.loading = true;
  stale = false;
  const boot = takeEarlyCollections(EARLY_MAX_AGE_MS);
  if (boot && boot.value !== undefined && wholeList(boot.value)) {
    store(seq, wholeList(boot.value)!, activeId, loaded);
    return Promise.resolve();
  }
  const done = (async () => {
    try {
      const items =
        wholeList(boot ? await boot.items : null) ??
        (await pb.collections.getFullList({ batch: COLLECTIONS_BATCH, sort: '+name', requestKey: 'collections_list' }));
      store(seq, items, activeId, loaded);
    } catch (err) {
      if ((err as { isAbort?: boolean })?.isAbort) return;
      handleError(err);
    } finally {
      if (seq === loadSeq) {
        collectionsState.loading = false;
        inFlight = null;
      }
    }
  })();
  inFlight = done;
  return done;
}

/**
 * The list for code outside the records screen (the command palette): resolves at once when it is
 * loaded and current, joins the load in flight (the records screen's early one included), else
 * loads it. Never adds a request to a load already under way.
 */
export function ensureCollections(): Promise<void> {
  if (collectionsState.loaded && !stale) return Promise.resolve();
  return inFlight ?? loadCollections();
}

/** The boot script's first batch when it holds the whole list (under a full batch); else null. */
const wholeList = (items: unknown[] | null | undefined): unknown[] | null => (items && items.length < COLLECTIONS_BATCH ? items : null);

function store(seq: number, items: unknown[], activeId: string | undefined, loaded: (() => void) | undefined): void {
  if (seq !== loadSeq) return;
  collectionsState.collections = byName(items as CollectionModel[]);
  collectionsState.loaded = true;
  collectionsState.loading = false;
  keepActive(activeId);
  loaded?.();
  openReloadChannel();
}

let early: { done: Promise<void>; at: number } | null = null;

/** Starts the list's load as the app starts on #/collections, while the page's code downloads. */
export function startCollectionsLoad(activeId?: string, loaded?: () => void): Promise<void> {
  const done = loadCollections(activeId, loaded);
  early = { done, at: performance.now() };
  return done;
}

/**
 * The page's first load: the one the app started, while fresh (once); else the load in flight (the
 * palette's, say); else a new request (entering the page refreshes the list).
 */
export function loadCollectionsOnEntry(activeId?: string): Promise<void> {
  const started = early && performance.now() - early.at < EARLY_MAX_AGE_MS ? early.done : null;
  early = null;
  const taken = started ?? inFlight;
  if (!taken) return loadCollections(activeId);
  // another load may have been started meanwhile (a reload broadcast): it owns the active choice
  const seq = loadSeq;
  return taken.then(() => {
    if (seq === loadSeq && collectionsState.loaded) keepActive(activeId);
  });
}

export function setActiveCollection(id: string): void {
  collectionsState.activeId = id;
}

/** After a save: replace or add the collection in the list, and tell other tabs. */
export function upsertCollection(c: CollectionModel): void {
  const list = collectionsState.collections.filter((x) => x.id !== c.id);
  collectionsState.collections = byName([...list, c]);
  broadcastReload();
}

/** After a delete: drop it (and its pin), pick another active one, and tell other tabs. */
export function removeCollection(id: string): void {
  collectionsState.collections = collectionsState.collections.filter((c) => c.id !== id);
  if (collectionsState.pinned.includes(id)) setPinned(collectionsState.pinned.filter((p) => p !== id));
  if (collectionsState.activeId === id) keepActive('');
  broadcastReload();
}

export function setEditorDraft(draft: CollectionModel | null): void {
  collectionsState.draft = draft ? ref(draft) : null;
}

// ---- pinned ----

function setPinned(ids: string[]): void {
  collectionsState.pinned = ids;
  try {
    localStorage.setItem(PINNED_STORAGE_KEY, JSON.stringify(ids));
  } catch {
    /* storage unavailable */
  }
}

export function togglePinned(id: string): void {
  const pinned = collectionsState.pinned;
  setPinned(pinned.includes(id) ? pinned.filter((p) => p !== id) : [...pinned, id]);
}

// ---- other tabs ----

const STORAGE_PING_KEY = '@collectionsReload';
/** The tab's one channel, open from the first load on (it never hears its own posts). */
let channel: BroadcastChannel | null = null;
let listening = false;
/** Screens that want a broadcast to reload the list at once (the records screen). */
let liveScreens = 0;

function onReloadMessage(): void {
  if (liveScreens > 0) void loadCollections();
  else stale = true;
}

function openReloadChannel(): void {
  if (listening) return;
  listening = true;
  try {
    if (typeof BroadcastChannel !== 'undefined') {
      channel = new BroadcastChannel(COLLECTIONS_CHANNEL);
      channel.onmessage = onReloadMessage;
    } else if (typeof window !== 'undefined') {
      window.addEventListener('storage', (e) => e.key === STORAGE_PING_KEY && onReloadMessage());
    }
  } catch {
    /* no way to hear other tabs */
  }
}

function broadcastReload(): void {
  try {
    if (channel) channel.postMessage('reload');
    else if (typeof BroadcastChannel !== 'undefined') {
      const temp = new BroadcastChannel(COLLECTIONS_CHANNEL);
      temp.postMessage('reload');
      temp.close();
    } else localStorage.setItem(STORAGE_PING_KEY, String(Date.now()));
  } catch {
    /* nothing to tell */
  }
}

/** While the collections page is open, a reload broadcast of another tab reloads the list at once. */
export function listenForReloads(): () => void {
  openReloadChannel();
  liveScreens++;
  return () => void liveScreens--;
}
