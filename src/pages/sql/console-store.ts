/**
 * The SQL console's saved queries and history, per admin, in this browser's storage
 * (`outpost_sql_console:<admin id>`). Why not a table of Outpost's own in data.db: the queries are
 * one admin's scratch work, like the records list's saved views (also kept here); a table would add
 * to pb_data something PocketBase 0.22 does not have (carried by backups into 0.22 restores,
 * needing an API, a migration path and a clean-up when an admin is deleted) for no one else to
 * read. The price: they stay in this browser (no sync across devices).
 */
export type SavedQuery = { id: string; name: string; sql: string; updated: string };
export type HistoryEntry = { sql: string; at: string; ok: boolean; rows?: number; ms?: number };
type Stored = { saved: SavedQuery[]; history: HistoryEntry[] };

const KEY_PREFIX = 'outpost_sql_console:';
const HISTORY_KEPT = 50;
const SAVED_KEPT = 200;
const MAX_SQL = 100_000;

const keyOf = (adminId: string) => KEY_PREFIX + adminId;
const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length <= max ? v : null);
const newId = () => Math.random().toString(36).slice(2, 10);

function read(adminId: string): Stored {
  try {
    const raw = JSON.parse(localStorage.getItem(keyOf(adminId)) ?? '{}') as Partial<Record<keyof Stored, unknown>>;
    const saved = (Array.isArray(raw.saved) ? raw.saved : []).flatMap((v: Record<string, unknown>) => {
      const name = str(v?.name, 100);
      const sql = str(v?.sql, MAX_SQL);
      return name && sql !== null ? [{ id: str(v.id, 20) ?? newId(), name, sql, updated: str(v.updated, 40) ?? '' }] : [];
    });
    const history = (Array.isArray(raw.history) ? raw.history : []).flatMap((v: Record<string, unknown>) => {
      const sql = str(v?.sql, MAX_SQL);
      if (!sql) return [];
      const entry: HistoryEntry = { sql, at: str(v.at, 40) ?? '', ok: v.ok === true };
      if (typeof v.rows === 'number') entry.rows = v.rows;
      if (typeof v.ms === 'number') entry.ms = v.ms;
      return [entry];
    });
    return { saved, history };
  } catch {
    return { saved: [], history: [] };
  }
}

function write(adminId: string, data: Stored): void {
  localStorage.setItem(keyOf(adminId), JSON.stringify(data));
}

export const listSaved = (adminId: string): SavedQuery[] => read(adminId).saved.sort((a, b) => a.name.localeCompare(b.name));
export const listHistory = (adminId: string): HistoryEntry[] => read(adminId).history;

/** Saves `sql` under `name` (a query of that name is replaced). Throws when the storage is full or off. */
export function saveQuery(adminId: string, name: string, sql: string): SavedQuery {
  const data = read(adminId);
  const existing = data.saved.find((q) => q.name === name);
  const saved = { id: existing?.id ?? newId(), name, sql, updated: new Date().toISOString() };
  data.saved = [saved, ...data.saved.filter((q) => q.name !== name)].slice(0, SAVED_KEPT);
  write(adminId, data);
  return saved;
}

export function deleteSaved(adminId: string, id: string): void {
  const data = read(adminId);
  data.saved = data.saved.filter((q) => q.id !== id);
  write(adminId, data);
}

/** Adds a run to the front of the history (the same statement run again moves up). Never throws. */
export function addHistory(adminId: string, entry: HistoryEntry): void {
  try {
    const data = read(adminId);
    data.history = [entry, ...data.history.filter((h) => h.sql !== entry.sql)].slice(0, HISTORY_KEPT);
    write(adminId, data);
  } catch {
    /* storage full or off: the history is a convenience */
  }
}

export function clearHistory(adminId: string): void {
  try {
    write(adminId, { ...read(adminId), history: [] });
  } catch {
    /* storage off */
  }
}
