// A record of the server (RecordModel) as hook handlers get it (a snapshot with its collection),
// and their changes back into it: schema fields prepared as the API prepares values (not validated
// again, as in 0.22), system keys copied as given; and a record hook code passes (to a form,
// enrichRecord, ...) as the server's model.
import type { AppContext } from '../context';
import { collectionJson } from '../collections/normalize';
import { findCollection } from '../collections/store';
import type { RecordModel } from '../records/model';
import type { RecordWire } from './protocol';
import { prepareValue } from '../../src/fields/record-values';

const SYSTEM_KEYS = ['id', 'created', 'updated', 'username', 'email', 'emailVisibility', 'verified', 'tokenKey', 'passwordHash', 'lastResetSentAt', 'lastVerificationSentAt'];

export const recordWire = (record: RecordModel, isNew = false): RecordWire => ({
  collection: collectionJson(record.collection) as unknown as Record<string, unknown>,
  data: { ...record.data },
  isNew,
});

export function applyRecordWire(record: RecordModel, wire: RecordWire): void {
  for (const field of record.collection.schema) {
    if (Object.hasOwn(wire.data, field.name)) record.data[field.name] = prepareValue(field, wire.data[field.name]);
  }
  for (const key of SYSTEM_KEYS) if (Object.hasOwn(wire.data, key) && Object.hasOwn(record.data, key)) record.data[key] = wire.data[key];
}

/** A record snapshot hook code passed, as the server's model of its stored collection ("no rows" when there is none). */
export function recordModelOf(ctx: AppContext, wire: RecordWire): RecordModel {
  const ref = wire.collection?.id || wire.collection?.name;
  const collection = typeof ref === 'string' && ref ? findCollection(ctx, ref) : undefined;
  if (!collection) throw new Error('sql: no rows in result set');
  const data: RecordModel['data'] = { ...wire.data };
  for (const field of collection.schema) if (Object.hasOwn(data, field.name)) data[field.name] = prepareValue(field, data[field.name]);
  return { collection, data };
}
