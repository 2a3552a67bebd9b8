// A record of the server (RecordModel) as hook handlers get it (a snapshot with its collection),
// and their changes back into it: schema fields prepared as the API prepares values (not validated
// again, as in 0.22), system keys copied as given; and a record hook code passes (to a form,
// enrichRecord, ...) as the server's model.
import type { AppContext } from '../context';
import { collectionJson } from '../collections/normalize';
import { findCollection } from '../collections/store';
import type { RecordModel } from '../records/model';
import type { Collection } from '../collections/model';
import type { CollectionRef, RecordWire } from './protocol';
import { prepareValue } from '../../src/fields/record-values';

const SYSTEM_KEYS = ['id', 'created', 'updated', 'username', 'email', 'emailVisibility', 'verified', 'tokenKey', 'passwordHash', 'lastResetSentAt', 'lastVerificationSentAt'];

/**
 * The collections events named lately (collectionRef), by id and version: an executor that has not
 * seen a version asks for it (collectionByRef) and gets exactly the one its event named, even one
 * the store has replaced since or never held. Bounded: the least recently named go first.
 */
const named = new Map<string, Collection>();
const NAMED_MAX = 256;

/**
 * A collection object's version: the store's objects are read-only and built anew on every change
 * (collections/store.ts), so each object is a version of its own.
 */
const versions = new WeakMap<Collection, string>();
let lastVersion = 0;

let lastNamed: Collection | null = null;

/** `c` named by its id and version for an event bound to an executor (whose copy of it is cached there). */
export function collectionRef(c: Collection): CollectionRef {
  let version = versions.get(c);
  if (!version) versions.set(c, (version = String(++lastVersion)));
  // (most calls name the collection the last one named: already the newest entry)
  if (c !== lastNamed) {
    const key = `${c.id}@${version}`;
    named.delete(key);
    named.set(key, c);
    if (named.size > NAMED_MAX) named.delete(named.keys().next().value!);
    lastNamed = c;
  }
  return { __collectionRef: c.id, version };
}

/** The JSON of the collection an event named (an executor's first sight of that version); null when unknown. */
export function collectionByRef(ctx: AppContext, id: string, version: string): Record<string, unknown> | null {
  const c = named.get(`${id}@${version}`) ?? findCollection(ctx, id);
  return c ? (collectionJson(c) as unknown as Record<string, unknown>) : null;
}

export const recordWire = (record: RecordModel, isNew = false): RecordWire => ({
  collection: null,
  collectionRef: collectionRef(record.collection),
  data: { ...record.data },
  isNew,
});

/** The id or name of a record snapshot's collection (however it names it). */
export const wireCollectionKey = (wire: RecordWire): unknown => wire.collectionRef?.__collectionRef ?? wire.collection?.id ?? wire.collection?.name;

export function applyRecordWire(record: RecordModel, wire: RecordWire): void {
  for (const field of record.collection.schema) {
    if (Object.hasOwn(wire.data, field.name)) record.data[field.name] = prepareValue(field, wire.data[field.name]);
  }
  for (const key of SYSTEM_KEYS) if (Object.hasOwn(wire.data, key) && Object.hasOwn(record.data, key)) record.data[key] = wire.data[key];
}

/** A record snapshot hook code passed, as the server's model of its stored collection ("no rows" when there is none). */
export function recordModelOf(ctx: AppContext, wire: RecordWire): RecordModel {
  const ref = wireCollectionKey(wire);
  const collection = typeof ref === 'string' && ref ? findCollection(ctx, ref) : undefined;
  if (!collection) throw new Error('sql: no rows in result set');
  const data: RecordModel['data'] = { ...wire.data };
  for (const field of collection.schema) if (Object.hasOwn(data, field.name)) data[field.name] = prepareValue(field, data[field.name]);
  return { collection, data };
}
