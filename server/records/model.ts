// The in-memory record: its collection, its normalised values (see values.ts), and what an API
// answer adds to it (expanded relations, whether the email may be shown).
import type { Collection } from '../collections/model';
import { type RecordData, valueFromColumn } from '../../src/fields/record-values';

export interface RecordModel {
  collection: Collection;
  /** id, created, updated, the auth columns (auth collections) and every schema field, normalised. */
  data: RecordData;
  /** Expanded relations by field name (or `coll_via_field`). */
  expand?: Record<string, RecordModel | RecordModel[]>;
  /** Back-relation ids collected during expand (not exported). */
  via?: Record<string, string[]>;
  /** Show `email` whatever emailVisibility says (admins, the owner, managers). */
  showEmail?: boolean;
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const bool = (v: unknown): boolean => v === 1 || v === 1n || v === true || v === '1' || v === 'true' || v === 'TRUE';

/** A table (or view) row → a RecordModel. Unknown columns are dropped. */
export function recordFromRow(collection: Collection, row: Record<string, unknown>): RecordModel {
  const data: RecordData = { id: str(row.id) };
  if (collection.type !== 'view' || 'created' in row) data.created = str(row.created);
  if (collection.type !== 'view' || 'updated' in row) data.updated = str(row.updated);
  if (collection.type === 'auth') {
    data.username = str(row.username);
    data.email = str(row.email);
    data.emailVisibility = bool(row.emailVisibility);
    data.verified = bool(row.verified);
    data.tokenKey = str(row.tokenKey);
    data.passwordHash = str(row.passwordHash);
    data.lastResetSentAt = str(row.lastResetSentAt);
    data.lastVerificationSentAt = str(row.lastVerificationSentAt);
  }
  for (const field of collection.schema) data[field.name] = valueFromColumn(field, row[field.name]);
  return { collection, data };
}

/** String ids of a relation/file/select value (single or multiple). */
export function stringsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (value === null || value === undefined || value === '') return [];
  return [String(value)];
}
