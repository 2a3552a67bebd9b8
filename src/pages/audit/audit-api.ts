// The audit trail's API (server/http/audit.ts): entries, exports, the per-collection history option.
import { pb } from '../../api/client';
import type { AuditFilter } from '../../lib/audit-filter';

export type { AuditFilter };

export interface AuditChange {
  old: unknown;
  new: unknown;
}

export interface AuditEntry {
  id: string;
  created: string;
  area: string;
  action: string;
  collectionId: string;
  collectionName: string;
  target: string;
  actorKind: string;
  actorId: string;
  actorEmail: string;
  ip: string;
  requestId: string;
  changes: Record<string, AuditChange>;
}

export interface AuditPage {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: AuditEntry[];
}

const clean = (f: AuditFilter) => Object.fromEntries(Object.entries(f).filter(([, v]) => v));

export function listAudit(filter: AuditFilter, page: number, perPage = 50, requestKey = 'audit-list'): Promise<AuditPage> {
  return pb.send('/api/outpost/audit', { query: { ...clean(filter), page, perPage }, requestKey });
}

/** Every entry matching `filter` as a file (the server names it), downloaded by the browser. */
export async function exportAudit(filter: AuditFilter, format: 'json' | 'csv'): Promise<void> {
  const query = new URLSearchParams({ ...clean(filter), format } as Record<string, string>);
  const res = await fetch(pb.buildUrl(`/api/outpost/audit/export?${query.toString()}`), { headers: { Authorization: pb.authStore.token } });
  if (!res.ok) throw new Error(`The export failed (${res.status}).`);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `audit.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function auditOptions(): Promise<{ enabled: boolean; history: string[] }> {
  return pb.send('/api/outpost/audit/options', { requestKey: 'audit-options' });
}

/** One collection's history option (and whether the trail is on at all), for the collection editor. */
export function collectionHistory(collection: string): Promise<{ enabled: boolean; history: boolean }> {
  return pb.send(`/api/outpost/audit/options/${encodeURIComponent(collection)}`, { requestKey: null });
}

export function setRecordHistory(collection: string, history: boolean): Promise<{ history: boolean }> {
  return pb.send(`/api/outpost/audit/options/${encodeURIComponent(collection)}`, { method: 'PATCH', body: { history }, requestKey: null });
}

/** A value as the trail shows it: text as is, anything else as JSON. */
export const showValue = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
