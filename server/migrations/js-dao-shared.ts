// What the Dao's parts share: the model conversions, the collection look-up and 0.22's "no rows"
// error (seed files test for it: `try { dao.findFirstRecordByData(...) } catch (e) { ... }`).
import type { AppContext } from '../context';
import { ApiError } from '../core/errors';
import { findCollection } from '../collections/store';
import { collectionJson } from '../collections/normalize';
import type { Collection as StoredCollection } from '../collections/model';
import type { RecordModel } from '../records/model';
import { Collection, JsRecord } from './js-models';

export const NO_ROWS = 'sql: no rows in result set';

/** An API error as one line: its message and its field errors. */
function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const data = err.data && Object.keys(err.data).length ? ` ${JSON.stringify(err.data)}` : '';
    const details = err.details ? ` (${typeof err.details === 'string' ? err.details : JSON.stringify(err.details)})` : '';
    return `${err.message}${data}${details}`;
  }
  return err instanceof Error ? err.message : String(err);
}

export const fail = (what: string, err: unknown): Error => new Error(`${what}: ${describeError(err)}`);

export function toCollection(c: StoredCollection): Collection {
  const out = new Collection(collectionJson(c));
  out.markAsNotNew();
  return out;
}

export function toRecord(model: RecordModel): JsRecord {
  const r = new JsRecord(toCollection(model.collection), model.data);
  r.markAsNotNew();
  return r;
}

/** A collection by name, id or model; 0.22's "no rows" error when there is none. */
export function collectionOf(ctx: AppContext, nameOrId: unknown): StoredCollection {
  const key = nameOrId instanceof Collection ? nameOrId.id || nameOrId.name : String(nameOrId ?? '');
  const c = findCollection(ctx, key);
  if (!c) throw new Error(NO_ROWS);
  return c;
}
