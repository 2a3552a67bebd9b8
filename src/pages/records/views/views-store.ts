/**
 * Saved views of the records list: a name for a filter + sort + hidden columns, per collection,
 * kept in local storage. They travel as a small JSON file of their own (keyed by collection name,
 * so a team on another instance can import them); the collections export is not touched.
 */
import { t } from '../../../ui/i18n';

export type SavedView = { id: string; name: string; filter: string; sort: string; hidden: string[] };
export type ViewsFile = { type: 'outpost-saved-views'; version: 1; collections: Record<string, Omit<SavedView, 'id'>[]> };

const VIEWS_STORAGE_KEY = 'outpost_saved_views';
const MAX_VIEWS_PER_COLLECTION = 50;
const MAX_TEXT = 2000;

type Stored = Record<string, SavedView[]>;

const str = (v: unknown, max = MAX_TEXT): string | null => (typeof v === 'string' && v.length <= max ? v : null);

function cleanView(v: unknown): Omit<SavedView, 'id'> | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const name = str(o.name, 100)?.trim();
  const filter = str(o.filter ?? '');
  const sort = str(o.sort ?? '', 200);
  const hidden = Array.isArray(o.hidden ?? []) ? ((o.hidden ?? []) as unknown[]).filter((x): x is string => typeof x === 'string' && x.length <= 100).slice(0, 200) : null;
  if (!name || filter === null || sort === null || hidden === null) return null;
  return { name, filter, sort, hidden };
}

const newId = () => Math.random().toString(36).slice(2, 10);

function readAll(): Stored {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(VIEWS_STORAGE_KEY) ?? '{}');
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
    const out: Stored = {};
    for (const [cid, list] of Object.entries(raw as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      out[cid] = list.flatMap((v) => {
        const c = cleanView(v);
        const id = (v as { id?: unknown })?.id;
        return c ? [{ ...c, id: typeof id === 'string' ? id : newId() }] : [];
      });
    }
    return out;
  } catch {
    return {};
  }
}

function writeAll(all: Stored): void {
  localStorage.setItem(VIEWS_STORAGE_KEY, JSON.stringify(all));
}

export const listViews = (collectionId: string): SavedView[] => readAll()[collectionId] ?? [];

/** Saves a view (a view of the same name is replaced). */
export function saveView(collectionId: string, view: Omit<SavedView, 'id'>): SavedView {
  const all = readAll();
  const list = all[collectionId] ?? [];
  const existing = list.find((v) => v.name === view.name);
  const saved = { ...view, id: existing?.id ?? newId() };
  all[collectionId] = existing ? list.map((v) => (v.id === existing.id ? saved : v)) : [...list, saved].slice(-MAX_VIEWS_PER_COLLECTION);
  writeAll(all);
  return saved;
}

export function renameView(collectionId: string, id: string, name: string): void {
  const all = readAll();
  all[collectionId] = (all[collectionId] ?? []).map((v) => (v.id === id ? { ...v, name: name.trim().slice(0, 100) } : v));
  writeAll(all);
}

export function deleteView(collectionId: string, id: string): void {
  const all = readAll();
  all[collectionId] = (all[collectionId] ?? []).filter((v) => v.id !== id);
  if (!all[collectionId].length) delete all[collectionId];
  writeAll(all);
}

/** The export file, keyed by collection name. */
export function exportViews(collections: readonly { id: string; name: string }[]): ViewsFile {
  const all = readAll();
  const out: ViewsFile = { type: 'outpost-saved-views', version: 1, collections: {} };
  for (const c of collections) {
    const list = all[c.id];
    if (list?.length) out.collections[c.name] = list.map(({ name, filter, sort, hidden }) => ({ name, filter, sort, hidden }));
  }
  return out;
}

/** Imports a views file: views of known collections are saved (same name replaced). */
export function importViews(text: string, collections: readonly { id: string; name: string }[]): { imported: number; skipped: number } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(t('savedViews.notJson'));
  }
  const file = data as Partial<ViewsFile>;
  if (!file || file.type !== 'outpost-saved-views' || !file.collections || typeof file.collections !== 'object') {
    throw new Error(t('savedViews.notExport'));
  }
  const byName = new Map(collections.map((c) => [c.name, c.id]));
  let imported = 0;
  let skipped = 0;
  for (const [name, list] of Object.entries(file.collections)) {
    const cid = byName.get(name);
    for (const v of Array.isArray(list) ? list : []) {
      const clean = cleanView(v);
      if (cid && clean) {
        saveView(cid, clean);
        imported++;
      } else skipped++;
    }
  }
  return { imported, skipped };
}
