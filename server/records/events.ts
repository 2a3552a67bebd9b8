// Record change events for realtime and caches: every committed create, update and delete
// (cascaded deletes and relation clean-ups included) is announced after the commit.
import type { AppContext } from '../context';
import type { RecordModel } from './model';

export interface RecordChange {
  action: 'create' | 'update' | 'delete';
  record: RecordModel;
}

export type RecordListener = (change: RecordChange) => void;

const listeners = new WeakMap<AppContext, Set<RecordListener>>();

/** Subscribes to committed record changes; returns the unsubscribe function. */
export function onRecordChange(ctx: AppContext, listener: RecordListener): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells every listener; a failing listener never breaks the caller. */
export function emitRecordChange(ctx: AppContext, change: RecordChange): void {
  for (const listener of listeners.get(ctx) ?? []) {
    try {
      listener(change);
    } catch (err) {
      console.error('[records] change listener failed:', err);
    }
  }
}
