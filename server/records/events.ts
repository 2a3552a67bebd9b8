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

/**
 * Called inside the delete transaction, before a record's row goes, with the record as it is:
 * whatever must still read it (realtime checks a subscriber's rule against the row) does so
 * now and returns the work to run once the delete has committed.
 */
export type RecordDeletingListener = (record: RecordModel) => (() => void) | void;

const deletingListeners = new WeakMap<AppContext, Set<RecordDeletingListener>>();

export function onRecordDeleting(ctx: AppContext, listener: RecordDeletingListener): () => void {
  let set = deletingListeners.get(ctx);
  if (!set) deletingListeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Runs the deleting listeners; returns their after-commit work (a failing listener is skipped). */
export function announceRecordDeleting(ctx: AppContext, record: RecordModel): Array<() => void> {
  const after: Array<() => void> = [];
  for (const listener of deletingListeners.get(ctx) ?? []) {
    try {
      const fn = listener(record);
      if (fn) after.push(fn);
    } catch (err) {
      console.error('[records] deleting listener failed:', err);
    }
  }
  return after;
}

/** Runs after-commit work collected by announceRecordDeleting; a failure never breaks the caller. */
export function runAfterCommit(work: Array<() => void>): void {
  for (const fn of work) {
    try {
      fn();
    } catch (err) {
      console.error('[records] after-commit work failed:', err);
    }
  }
}
