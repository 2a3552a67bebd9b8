// The records created elsewhere that the live list announces above its table ('N new records
// created since the list was loaded'), in arrival order; O(1) per event.
import type { RecordModel } from 'pocketbase';

/** Records announced one by one; past this many (a bulk import) only their ids are kept and Show reloads the list. */
const MAX_ANNOUNCED = 200;

export class Announced {
  readonly records = new Map<string, RecordModel>();
  readonly overflow = new Set<string>();
  get size() {
    return this.records.size + this.overflow.size;
  }
  has(id: string) {
    return this.records.has(id) || this.overflow.has(id);
  }
  add(record: RecordModel) {
    if (this.overflow.size === 0 && this.records.size < MAX_ANNOUNCED) this.records.set(record.id, record);
    else this.overflow.add(record.id);
  }
  update(record: RecordModel) {
    if (this.records.has(record.id)) this.records.set(record.id, record);
  }
  remove(id: string) {
    return this.records.delete(id) || this.overflow.delete(id);
  }
}
