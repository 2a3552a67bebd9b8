// The records list's realtime subscription: '<collection>/*' with the list's own filter, expand
// and fields as subscription options, so the server sends only matching records, shaped like the
// rows the list already shows (the server evaluates the same options per subscriber).
import { useEffect, useRef } from 'react';
import type { RecordModel } from 'pocketbase';
import { pb } from '../../../api/client';
import type { LiveAction } from './live-ledger';

export interface LiveEvent {
  action: LiveAction;
  record: RecordModel;
}

export interface LiveOptions {
  filter?: string;
  expand?: string;
  fields?: string;
}

/**
 * Subscribes while mounted and `enabled` (and re-subscribes when the collection or options
 * change); `onLive` is called once the server has the subscription. View collections get no
 * record events (as in 0.22), so the list does not subscribe.
 */
export function useLiveRecords(
  collectionId: string,
  enabled: boolean,
  options: LiveOptions,
  onEvent: (e: LiveEvent) => void,
  onLive: () => void,
): void {
  const handler = useRef({ onEvent, onLive });
  useEffect(() => {
    handler.current = { onEvent, onLive };
  });
  const { filter = '', expand = '', fields = '' } = options;

  useEffect(() => {
    if (!enabled) return;
    let unsubscribe: (() => Promise<void>) | null = null;
    let cancelled = false;
    const query: Record<string, string> = {};
    if (filter) query.filter = filter;
    if (expand) query.expand = expand;
    if (fields) query.fields = fields;
    pb.collection(collectionId)
      .subscribe('*', (e) => handler.current.onEvent({ action: e.action as LiveAction, record: e.record }), { query })
      .then((fn) => {
        if (cancelled) {
          void fn().catch(() => undefined);
          return;
        }
        unsubscribe = fn;
        handler.current.onLive();
      })
      .catch((err) => {
        // the list still works without live updates (e.g. the server has no realtime)
        console.warn('[records] realtime subscription failed:', err);
      });
    return () => {
      cancelled = true;
      void unsubscribe?.().catch(() => undefined);
    };
  }, [collectionId, enabled, filter, expand, fields]);
}
