// A record as the API shows it (models.Record.PublicExport in 0.22): schema fields, the safe auth
// fields (email only when visible to the caller), id, created/updated (views: only when selected),
// collectionId/collectionName and expand; keys alphabetical like Go's map encoding.
import type { Collection } from '../collections/model';
import type { RecordModel } from './model';
import { valueToOutput } from '../../src/fields/record-values';
import { sortKeys } from '../../src/lib/json';

export interface SerializeOptions {
  isAdmin: boolean;
  /** The caller's auth record (id and collectionId are what matter). */
  authRecord?: { id?: unknown; collectionId?: unknown } | null;
  /** Show email whatever emailVisibility says (auth responses, managers). */
  showEmail?: boolean;
}

/** The exported values without collection refs and expand (keys not yet sorted). */
export function publicValues(record: RecordModel, showEmail: boolean): Record<string, unknown> {
  const { collection, data } = record;
  const out: Record<string, unknown> = {};
  for (const field of collection.schema) out[field.name] = valueToOutput(field, data[field.name]);
  if (collection.type === 'auth') {
    out.verified = !!data.verified;
    out.username = String(data.username ?? '');
    out.emailVisibility = !!data.emailVisibility;
    if (showEmail || data.emailVisibility) out.email = String(data.email ?? '');
  }
  out.id = String(data.id ?? '');
  if (collection.type !== 'view' || (typeof data.created === 'string' && data.created !== '')) out.created = data.created ?? '';
  if (collection.type !== 'view' || (typeof data.updated === 'string' && data.updated !== '')) out.updated = data.updated ?? '';
  return out;
}

/** A RecordModel (with its expand) as JSON. */
export function exportRecord(record: RecordModel, opts: SerializeOptions): Record<string, unknown> {
  const auth = opts.authRecord;
  const own =
    !!auth && record.collection.type === 'auth' && String(auth.id ?? '') === String(record.data.id) &&
    (auth.collectionId === undefined || auth.collectionId === record.collection.id);
  const show = opts.isAdmin || !!opts.showEmail || !!record.showEmail || own;
  const out = publicValues(record, show);
  out.collectionId = record.collection.id;
  out.collectionName = record.collection.name;
  if (record.expand && Object.keys(record.expand).length > 0) {
    const expand: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record.expand)) {
      expand[key] = Array.isArray(value)
        ? value.map((r) => exportRecord(r, { ...opts, showEmail: false }))
        : exportRecord(value, { ...opts, showEmail: false });
    }
    out.expand = sortKeys(expand);
  }
  return inKeyOrder(out, keyOrder(record.collection));
}

/**
 * Every key a record of the collection can export, in Go's map order, computed once per loaded
 * collection (a change reloads the collections as new objects): sorting each record's keys anew
 * was a tenth of a 40-record list's serialisation.
 */
const keyOrders = new WeakMap<Collection, readonly string[]>();

function keyOrder(collection: Collection): readonly string[] {
  let keys = keyOrders.get(collection);
  if (!keys) {
    const all = new Set(['id', 'created', 'updated', 'collectionId', 'collectionName', 'expand', ...collection.schema.map((f) => f.name)]);
    if (collection.type === 'auth') for (const k of ['verified', 'username', 'emailVisibility', 'email']) all.add(k);
    keys = Object.keys(sortKeys(Object.fromEntries([...all].map((k) => [k, true]))));
    keyOrders.set(collection, keys);
  }
  return keys;
}

function inKeyOrder(out: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  let n = 0;
  for (const k of order) {
    if (Object.hasOwn(out, k)) {
      sorted[k] = out[k];
      n++;
    }
  }
  // a key the order does not know (none is expected) still comes out sorted
  return n === Object.keys(out).length ? sorted : sortKeys(out);
}
