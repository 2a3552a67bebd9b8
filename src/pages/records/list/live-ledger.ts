// The live records list's bookkeeping, apart from React so that every interleaving can be tested
// (tests/unit/records-live-ledger.test.ts): which rows the list holds, what it announces, which
// changes it has counted, and how 'Total found' follows the server's count.
//
// The list's signals race. A realtime event may come before or after the answer to the admin's
// own request, and before, during or after a page or a count the list loads, which the server
// answered at a moment the list cannot see. Hence:
// - a change is counted once per record id, whichever signal brings it first (the event, the
//   answer to the admin's own create or delete); a create event for a row a loaded page holds
//   counts nothing and is not announced;
// - a count answered supersedes every change seen before it was asked; the changes seen while it
//   was in flight are kept on top of it, except those a page asked during that flight shows it
//   already reflected (it holds a record created, or, holding the whole list, lacks one deleted:
//   the count, read about then, most likely does too); it may still reflect any of them;
// - a delete event of a record the list does not hold, while it holds the whole list, was
//   reflected by the page that went without it;
// - so every change (and a subscription that started after the count) asks for a count again once
//   events settle: 'Total found' then equals the server's count for the list's filter.
import type { RecordModel } from 'pocketbase';
import { Announced } from './announced';

/** Ids whose last change is remembered (to count a late repeat once); past this, the recount corrects. */
const MAX_FATES = 10_000;

/** The last change seen of a record: 'deleted-own' is the admin's own delete (its row goes, not greyed). */
type Fate = 'created' | 'deleted' | 'deleted-own';

/** What the list does with its rows for an event. */
export type RowPlan = 'none' | 'replace' | 'grey' | 'remove';

export type LiveAction = 'create' | 'update' | 'delete';

export class LiveLedger {
  /** The rows the list holds (loaded pages, own saves, shown announcements), greyed ones included. */
  private held = new Set<string>();
  /** Held rows deleted elsewhere, greyed out where they stand; a new set on change (React state). */
  private grey: ReadonlySet<string> = new Set();
  private announced = new Announced();
  /** Creates seen while an own create was in flight: one may be that create, whose answer says which. */
  private unsure = new Map<string, RecordModel>();
  private ownCreates = 0;
  private ownDeletes = new Set<string>();
  /** Own creates answered since the last reload was sent: kept on top when its first page lacks them. */
  private ownSinceReload = new Set<string>();
  private fates = new Map<string, Fate>();

  // 'Total found' is base + delta: the last count answered and the changes counted since it was asked
  private base: number | null = null;
  private delta = 0;
  /** The count in flight (0: none) and the changes seen meanwhile, which it may or may not hold. */
  private inFlight = 0;
  private duringFlight = 0;
  private countsSent = 0;
  /** The creates and deletes counted while the last count was in flight (a page asked meanwhile may show it reflects them). */
  private flightCreates = new Set<string>();
  private flightDeletes = new Set<string>();
  /** The pages loaded hold the whole list (the last one was not full). */
  private complete = false;
  /** A change the last count may not reflect was seen: count again once events settle. */
  private recount = false;

  /** `filtered`: an update may then move a record into or out of the list. */
  constructor(private readonly filtered: boolean) {}

  get total(): number | null {
    return this.base === null ? null : Math.max(0, this.base + this.delta);
  }

  get greyed(): ReadonlySet<string> {
    return this.grey;
  }

  get dirty(): boolean {
    return this.recount;
  }

  get incoming(): number {
    return this.announced.size;
  }

  get counting(): boolean {
    return this.inFlight !== 0;
  }

  /** A count is asked; answers its token. Every change seen so far is in its answer. */
  countSent(): number {
    this.inFlight = ++this.countsSent;
    this.duringFlight = 0;
    this.flightCreates.clear();
    this.flightDeletes.clear();
    this.recount = false;
    return this.inFlight;
  }

  /** Answers false for an answer a later count superseded. */
  countAnswered(token: number, count: number): boolean {
    if (token !== this.inFlight) return false;
    this.inFlight = 0;
    this.base = count;
    this.delta = this.duringFlight;
    return true;
  }

  /** A count failed (the total stays; 0 when there was none, as for an invalid filter) or was cancelled. */
  countFailed(token: number, cancelled = false): boolean {
    if (token !== this.inFlight) return false;
    this.inFlight = 0;
    if (!cancelled) this.base ??= 0;
    this.flightCreates.clear(); // no page can show what a failed count holds
    this.flightDeletes.clear();
    this.recount = false; // no retry loop on a lasting error: the next change asks again
    return true;
  }

  /** The subscription is live: a change made after a count was read and before now sent no event. */
  subscribed(): void {
    if (this.countsSent > 0) this.recount = true;
  }

  /** A realtime event of a record matching the list's filter. */
  event(action: LiveAction, record: RecordModel): RowPlan {
    const id = record.id;
    if (action === 'create') {
      this.created(record);
      return 'none';
    }
    if (action === 'update') {
      this.announced.update(record);
      if (this.unsure.has(id)) this.unsure.set(id, record);
      if (this.held.has(id)) return 'replace';
      // a record the list never saw may just have come to match the filter
      if (this.filtered && !this.announced.has(id) && !this.unsure.has(id)) this.recount = true;
      return 'none';
    }
    const fate = this.fates.get(id);
    if (fate === 'deleted' || fate === 'deleted-own') return 'none';
    const own = this.ownDeletes.has(id);
    this.remember(id, own ? 'deleted-own' : 'deleted');
    if (!this.announced.remove(id) && !this.unsure.delete(id) && !this.held.has(id) && this.complete) {
      this.recount = true; // the loaded list went without it already: so, most likely, did the count
      return 'none';
    }
    this.change(id, -1);
    if (!this.held.has(id)) return 'none'; // announced, or a row of a later page
    if (own) {
      this.held.delete(id);
      return 'remove';
    }
    this.setGrey(id, true);
    return 'grey';
  }

  private created(record: RecordModel): void {
    const id = record.id;
    if (this.fates.get(id) === 'created') return; // the answer to the admin's own create came first
    this.remember(id, 'created');
    if (this.held.has(id)) {
      // a page read after the create holds it; whether the count does is not known
      this.recount = true;
      return;
    }
    this.change(id, 1);
    if (this.ownCreates > 0) this.unsure.set(id, record);
    else this.announced.add(record);
  }

  /** An own create or delete is being sent (its event may come first); call the answer when it settled. */
  writeStarted(action: 'create' | 'delete', id: string | null): () => void {
    let ended = false;
    if (action === 'create') {
      this.ownCreates++;
      return () => {
        if (ended) return;
        ended = true;
        if (--this.ownCreates === 0) this.releaseUnsure();
      };
    }
    if (id) this.ownDeletes.add(id);
    return () => {
      if (ended || !id) return;
      ended = true;
      this.ownDeletes.delete(id);
    };
  }

  /** The creates seen during own creates that were not theirs: created elsewhere after all. */
  private releaseUnsure(): void {
    for (const record of this.unsure.values()) if (!this.held.has(record.id)) this.announced.add(record);
    this.unsure.clear();
  }

  /** The answer to an own save. */
  ownSaved(id: string, created: boolean): void {
    if (!created) {
      if (this.filtered) this.recount = true; // the change may have taken it out of the filter
      return;
    }
    this.held.add(id);
    this.ownSinceReload.add(id);
    this.unsure.delete(id);
    this.announced.remove(id); // its event came first while the list was not told of the write
    if (this.fates.get(id) === 'created') return; // and counted it
    this.remember(id, 'created');
    this.change(id, 1);
  }

  /** The answer to an own delete (the list drops the row). */
  ownDeleted(id: string): void {
    const fate = this.fates.get(id);
    this.remember(id, 'deleted-own');
    this.held.delete(id);
    this.ownSinceReload.delete(id);
    this.setGrey(id, false);
    this.unsure.delete(id);
    this.announced.remove(id);
    if (fate !== 'deleted' && fate !== 'deleted-own') this.change(id, -1);
  }

  /** Page 1 is requested again: what was announced before is in its answer (or on a later page). */
  reloadSent(): void {
    this.announced = new Announced();
    this.ownSinceReload.clear();
    // the rows shown meanwhile stay held (an update still reaches them) until the page answers
  }

  /** A page is asked; answers the token its answer goes back with. */
  pageSent(): number {
    return this.inFlight;
  }

  /**
   * A page answered (page 1 replaces the rows; `more`: it was full). Reconciles it with the events
   * seen while it was in flight: a row it holds is no longer announced, a row deleted since it was
   * read is greyed (or left out: `skip`, the admin's own delete); for page 1, `keep` names the own
   * new rows to keep on top that it does not hold. `sent` is pageSent's token.
   */
  pageLoaded(ids: readonly string[], opts: { first: boolean; more: boolean; sent: number }): { skip: ReadonlySet<string>; keep: readonly string[] } {
    const { first, more, sent } = opts;
    this.complete = !more;
    // asked while the last count was in flight: what it reflects, that count most likely does too
    const evidence = sent !== 0 && sent === this.countsSent;
    const skip = new Set<string>();
    const greyed = new Set(first ? [] : this.grey);
    if (first) this.held = new Set();
    for (const id of ids) {
      const fate = this.fates.get(id);
      if (fate === 'deleted-own') {
        skip.add(id);
        continue;
      }
      this.held.add(id);
      if (fate === 'deleted') greyed.add(id);
      else this.announced.remove(id);
      if (evidence && this.flightCreates.delete(id)) this.unchange(1);
    }
    if (evidence && first && !more) {
      for (const id of this.flightDeletes) if (!ids.includes(id)) this.unchange(-1);
      this.flightDeletes.clear();
    }
    const keep: string[] = [];
    if (first) {
      for (const id of this.ownSinceReload) {
        if (!this.held.has(id) && this.fates.get(id) === 'created') keep.push(id);
      }
      for (const id of keep) this.held.add(id);
    }
    this.grey = greyed;
    return { skip, keep };
  }

  /** The rows loaded are gone (page 1 failed). */
  cleared(): void {
    this.complete = false;
    this.held = new Set();
    this.grey = new Set();
  }

  /** Show: the announced records, newest first, now held; null after a flood (the list reloads). */
  show(): RecordModel[] | null {
    const ann = this.announced;
    this.announced = new Announced();
    if (ann.overflow.size > 0) return null;
    const fresh = [...ann.records.values()].reverse();
    for (const r of fresh) this.held.add(r.id);
    return fresh;
  }

  private change(id: string, d: number): void {
    this.delta += d;
    if (this.inFlight) {
      this.duringFlight += d;
      if (d > 0) {
        this.flightCreates.add(id);
        this.flightDeletes.delete(id);
      } else if (!this.flightCreates.delete(id)) {
        this.flightDeletes.add(id);
      }
    }
    this.recount = true;
  }

  /** Takes back a change counted during the last count's flight that it most likely reflects. */
  private unchange(d: number): void {
    if (this.inFlight) this.duringFlight -= d;
    else this.delta -= d;
  }

  private remember(id: string, fate: Fate): void {
    this.fates.delete(id); // re-inserted last: the oldest entry goes first
    this.fates.set(id, fate);
    if (this.fates.size > MAX_FATES) this.fates.delete(this.fates.keys().next().value as string);
  }

  private setGrey(id: string, grey: boolean): void {
    if (this.grey.has(id) === grey) return;
    const next = new Set(this.grey);
    if (grey) next.add(id);
    else next.delete(id);
    this.grey = next;
  }
}
