// 0.22's model objects (Record, Collection, Admin: server/migrations/js-models.ts) crossing between
// a hook executor and the main thread: each becomes a tagged plain snapshot and is built again on
// the other side. Values of any other kind cross as structured clone copies them.
import { Admin, Collection, JsRecord } from '../migrations/js-models';
import type { CollectionRef, RecordWire } from './protocol';
import { filesFromWire, filesToWire } from './hook-file';

type Tagged = { __model: 'record'; record: RecordWire } | { __model: 'collection'; json: Record<string, unknown>; isNew: boolean } | { __model: 'admin'; json: Record<string, unknown>; isNew: boolean };

/** Whether `v` is a model's snapshot (toWire's output, or built by the main thread in this shape). */
export const isTaggedModel = (v: unknown): boolean => typeof v === 'object' && v !== null && typeof (v as { __model?: unknown }).__model === 'string';

/** The snapshot of an admin (its JSON plus the secret columns 0.22's model carries) for a hook event. */
export const adminWire = (json: Record<string, unknown>, isNew = false) => ({ __model: 'admin', json, isNew }) satisfies Tagged;

/** The snapshot of a collection (its API JSON) for a hook event. */
export const collectionWire = (json: Record<string, unknown>, isNew = false) => ({ __model: 'collection', json, isNew }) satisfies Tagged;

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

const mapValues = (o: Record<string, unknown>, fn: (v: unknown) => unknown) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fn(v)]));

/** A record's snapshot: its `$filesystem` files and expanded relations included. */
export function recordToWire(r: JsRecord): RecordWire {
  const wire: RecordWire = { collection: r.collection()?.toJSON() ?? null, data: mapValues(r.data(), filesToWire), isNew: r.isNew() };
  const expand = r.expand();
  if (Object.keys(expand).length) wire.expand = mapValues(expand, (v) => (Array.isArray(v) ? v.map(recordToWire) : recordToWire(v as JsRecord)));
  return wire;
}

/** The executor's copies of the collections events named, by id (the last version seen of each). */
const seen = new Map<string, { version: string; json: Record<string, unknown> }>();
let fetchCollection: (id: string, version: string) => Record<string, unknown> | null = () => null;

/** How an executor gets a collection version it has not seen (a call to the main thread). */
export function fetchCollectionsWith(fetch: (id: string, version: string) => Record<string, unknown> | null): void {
  fetchCollection = fetch;
}

export const isCollectionRef = (v: unknown): v is CollectionRef => typeof v === 'object' && v !== null && typeof (v as { __collectionRef?: unknown }).__collectionRef === 'string';

/** The JSON of the collection `ref` names: the cached copy of that version, or the main thread's answer. */
export function collectionJsonOf(ref: CollectionRef): Record<string, unknown> | null {
  const hit = seen.get(ref.__collectionRef);
  if (hit?.version === ref.version) return hit.json;
  const json = fetchCollection(ref.__collectionRef, ref.version);
  if (json) seen.set(ref.__collectionRef, { version: ref.version, json });
  return json;
}

export function recordFromWire(w: RecordWire): JsRecord {
  let collection: Collection | null = null;
  // (Collection copies what it is built from: the cached JSON stays as it came)
  const json = w.collection ?? (w.collectionRef ? collectionJsonOf(w.collectionRef) : null);
  if (json) {
    collection = new Collection(json);
    collection.markAsNotNew();
  }
  const r = new JsRecord(collection, mapValues(w.data, filesFromWire));
  if (!w.isNew) r.markAsNotNew();
  if (w.expand) r.setExpand(mapValues(w.expand, (v) => (Array.isArray(v) ? v.map((x) => recordFromWire(x as RecordWire)) : recordFromWire(v as RecordWire))));
  return r;
}

function adminJson(a: Admin): Record<string, unknown> {
  return { ...a.toJSON(), tokenKey: a.tokenKey, passwordHash: a.passwordHash, lastResetSentAt: a.lastResetSentAt };
}

/** A value with its models replaced by snapshots (functions are refused: they cannot cross). */
export function toWire(value: unknown, depth = 0): unknown {
  if (depth > 64) throw new Error('the value is nested too deeply to pass to the server');
  if (value instanceof JsRecord) return { __model: 'record', record: recordToWire(value) } satisfies Tagged;
  if (value instanceof Collection) return { __model: 'collection', json: value.toJSON(), isNew: value.isNew() } satisfies Tagged;
  if (value instanceof Admin) return { __model: 'admin', json: adminJson(value), isNew: value.isNew() } satisfies Tagged;
  if (typeof value === 'function') throw new Error('a function cannot be passed to the server');
  if (Array.isArray(value)) return value.map((v) => toWire(v, depth + 1));
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v, depth + 1)]));
  return value;
}

/** The models of a value built again from their snapshots. */
export function fromWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromWire);
  if (!isPlain(value)) return value;
  const tagged = value as Partial<Tagged>;
  if (tagged.__model === 'record') return recordFromWire((value as { record: RecordWire }).record);
  if (tagged.__model === 'collection' || tagged.__model === 'admin') {
    const { json, isNew } = value as { json: Record<string, unknown>; isNew: boolean };
    const model = tagged.__model === 'collection' ? new Collection(json) : Object.assign(new Admin(json), { tokenKey: json.tokenKey ?? '', passwordHash: json.passwordHash ?? '', lastResetSentAt: json.lastResetSentAt ?? '' });
    if (!isNew) model.markAsNotNew();
    return model;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromWire(v)]));
}

/** Copies a model's state from its updated snapshot into the instance the handler holds. */
export function updateFromWire(target: unknown, wire: unknown): void {
  const fresh = fromWire(wire);
  if (target instanceof JsRecord && fresh instanceof JsRecord) {
    target.load(fresh.data());
    if (!fresh.isNew()) target.markAsNotNew();
    if (Object.keys(fresh.expand()).length) target.setExpand(fresh.expand());
  } else if (target instanceof Collection && fresh instanceof Collection) {
    target.load(fresh.toJSON());
    if (!fresh.isNew()) target.markAsNotNew();
  } else if (target instanceof Admin && fresh instanceof Admin) {
    Object.assign(target, { id: fresh.id, created: fresh.created, updated: fresh.updated, email: fresh.email, tokenKey: fresh.tokenKey, passwordHash: fresh.passwordHash });
    if (!fresh.isNew()) target.markAsNotNew();
  }
}
