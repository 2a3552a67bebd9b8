// Reading the trail: the audit screen's filtered pages, its exports and a record's history. The
// reads run in the read pool like every list a request starts.
import type { AppContext } from '../context';
import { AUDIT_COLUMNS, missingAuditTable, type AuditEntry } from './store';
import type { AuditFilter } from '../../src/lib/audit-filter';

export type { AuditFilter };

export interface AuditItem extends Omit<AuditEntry, 'changes'> {
  changes: Record<string, { old: unknown; new: unknown }>;
}

function where(f: AuditFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.actor) {
    parts.push("(actorId = ? OR instr(lower(actorEmail), lower(?)) > 0)");
    params.push(f.actor, f.actor);
  }
  if (f.collection) {
    parts.push('(collectionId = ? OR collectionName = ?)');
    params.push(f.collection, f.collection);
  }
  for (const key of ['action', 'area', 'target'] as const) {
    if (f[key]) {
      parts.push(`${key} = ?`);
      params.push(f[key]);
    }
  }
  if (f.from) {
    parts.push('created >= ?');
    params.push(f.from);
  }
  if (f.to) {
    parts.push('created <= ?');
    params.push(f.to);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

const item = (row: Record<string, unknown>): AuditItem => {
  let changes: AuditItem['changes'] = {};
  try {
    changes = JSON.parse(String(row.changes)) as AuditItem['changes'];
  } catch {
    /* a row written by hand: shown without changes */
  }
  return { ...(row as unknown as AuditEntry), changes };
};

/** The read's answer, or `empty` before the first entry created the table. */
async function untilWritten<T>(read: Promise<T>, empty: T): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (missingAuditTable(err)) return empty;
    throw err;
  }
}

const SELECT = `SELECT id, ${AUDIT_COLUMNS.join(', ')} FROM _outpostAudit`;
// the order they were written in (created follows it, ties within a millisecond included)
const ORDER = 'ORDER BY id DESC';

/** One page, newest first, with totals (PocketBase's list shape). */
export async function listAudit(ctx: AppContext, filter: AuditFilter, page: number, perPage: number) {
  const w = where(filter);
  const [count, rows] = (await untilWritten(
    ctx.reads.batch([
      { sql: `SELECT count(*) FROM _outpostAudit ${w.sql}`, params: w.params, mode: 'pluck' },
      { sql: `${SELECT} ${w.sql} ${ORDER} LIMIT ? OFFSET ?`, params: [...w.params, perPage, (page - 1) * perPage], mode: 'all' },
    ]),
    [0, []],
  )) as [number, Array<Record<string, unknown>>];
  const totalItems = Number(count);
  return { page, perPage, totalItems, totalPages: Math.ceil(totalItems / perPage), items: rows.map(item) };
}

/** Every matching entry, newest first, up to `limit`. */
export async function exportAudit(ctx: AppContext, filter: AuditFilter, limit: number): Promise<AuditItem[]> {
  const w = where(filter);
  const rows = await untilWritten(ctx.reads.all(`${SELECT} ${w.sql} ${ORDER} LIMIT ?`, [...w.params, limit]), []);
  return rows.map(item);
}

/** The collections that keep their records' history (ids). */
export function historyCollections(ctx: AppContext): string[] {
  return [...ctx.audit.store.historyCollections()];
}
