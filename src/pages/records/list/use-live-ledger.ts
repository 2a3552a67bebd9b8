// The records list's ledger (./live-ledger) for the current query, what the page draws from it
// ('Total found', the new-records notice, greyed rows), and its counts: one with every reload
// (page 1, size 1, fields id), and another once events settle after a change the last count may
// not hold.
import { useEffect, useState } from 'react';
import { handleError, pb } from '../../../api/client';
import { defined, isAbort, type ListQuery } from './list-helpers';
import { LiveLedger } from './live-ledger';

/** Events arrive one per task: their effect on the notice and the total is drawn at most this often. */
const PUBLISH_MS = 100;
/** A recount waits this long after the change that asked for it, so a burst of events costs one. */
const RECOUNT_MS = 1000;
/** ...and longer after a slow count: counting takes at most about a tenth of the time. */
const RECOUNT_SLOWDOWN = 10;

export type LedgerView = { total: number | null; incoming: number; greyed: ReadonlySet<string> };

const viewOf = (l: LiveLedger): LedgerView => ({ total: l.total, incoming: l.incoming, greyed: l.greyed });

/** Holds the current ledger and its timers; its methods are stable across renders. */
class LedgerDriver {
  key = '';
  ledger = new LiveLedger(false);
  private collectionId = '';
  private filter = '';
  private publishTimer = 0;
  private recountTimer = 0;
  private lastCountMs = 0;
  private drawn: LedgerView | null = null;

  constructor(private readonly draw: (view: LedgerView) => void) {}

  /** A new query starts a new ledger (its total from '…'); answers still in flight go to the one that asked. */
  use(key: string, collectionId: string, filter: string): void {
    if (key === this.key) return;
    this.key = key;
    this.ledger = new LiveLedger(filter !== '');
    this.drawn = null;
    this.collectionId = collectionId;
    this.filter = filter;
  }

  /** Draws the ledger after a change: `soon` (a create event, they come in floods) at most every PUBLISH_MS. */
  publish = (soon = false): void => {
    if (!soon) this.flush();
    else if (!this.publishTimer) this.publishTimer = window.setTimeout(this.flush, PUBLISH_MS);
  };

  /** Page 1 is asked again: the count is asked with it. */
  reloadSent = (): void => {
    this.ledger.reloadSent();
    this.count(true);
    this.flush();
  };

  private flush = (): void => {
    window.clearTimeout(this.publishTimer);
    this.publishTimer = 0;
    const l = this.ledger;
    const view = viewOf(l);
    const d = this.drawn;
    if (!d || d.total !== view.total || d.incoming !== view.incoming || d.greyed !== view.greyed) this.draw(view);
    this.drawn = view;
    if (l.dirty && !l.counting && !this.recountTimer) {
      this.recountTimer = window.setTimeout(this.recount, Math.max(RECOUNT_MS, RECOUNT_SLOWDOWN * this.lastCountMs));
    }
  };

  private recount = (): void => {
    this.recountTimer = 0;
    if (this.ledger.dirty && !this.ledger.counting) this.count(false);
  };

  private count(report: boolean): void {
    const l = this.ledger;
    const token = l.countSent();
    const started = performance.now();
    pb.collection(this.collectionId)
      .getList(1, 1, defined({ filter: this.filter, fields: 'id', requestKey: 'records_count' }))
      .then((r) => {
        this.lastCountMs = performance.now() - started;
        if (l.countAnswered(token, r.totalItems) && l === this.ledger) this.flush();
      })
      .catch((err) => {
        const cancelled = isAbort(err);
        if (!l.countFailed(token, cancelled) || l !== this.ledger) return;
        this.flush();
        // the list reports anything that matters (an invalid filter, quietly); a recount stays quiet
        if (report && !cancelled) handleError(err, { silent400: true });
      });
  }

  dispose(): void {
    window.clearTimeout(this.publishTimer);
    window.clearTimeout(this.recountTimer);
  }
}

export function useLiveLedger(collectionId: string, query: ListQuery) {
  const { filter, sort, expand, fields } = query;
  const key = `${collectionId}\n${filter}\n${sort}\n${expand}\n${fields}`;
  const [view, setView] = useState<LedgerView | null>(null);
  const [driver] = useState(() => new LedgerDriver(setView));
  const [viewKey, setViewKey] = useState(key);
  driver.use(key, collectionId, filter);
  if (viewKey !== key) {
    setViewKey(key);
    setView(null);
  }
  useEffect(() => () => driver.dispose(), [driver]);

  const { ledger, publish, reloadSent } = driver;
  return { ledger, view: view ?? viewOf(ledger), publish, reloadSent };
}

export type LiveLedgerAccess = Pick<ReturnType<typeof useLiveLedger>, 'ledger' | 'publish' | 'reloadSent'>;
