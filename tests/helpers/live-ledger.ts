// Set-up shared by the live records list's ledger tests (tests/unit/records-live-ledger-*.test.ts).
import { expect } from 'vitest';
import type { RecordModel } from 'pocketbase';
import { LiveLedger } from '../../src/pages/records/list/live-ledger';

export const rec = (id: string) => ({ id, collectionId: 'c', collectionName: 'c' }) as RecordModel;

/** A ledger with `ids` loaded by a reload whose count answered `count` (more than `ids`: more pages). */
export function loaded(ids: string[], count = ids.length, filtered = false) {
  const l = new LiveLedger(filtered);
  l.reloadSent();
  const token = l.countSent();
  l.pageLoaded(ids, { first: true, more: count > ids.length, sent: l.pageSent() });
  l.countAnswered(token, count);
  return l;
}

/** Answers the recounts a settled list asks for with the server's count. */
export function settle(l: LiveLedger, serverCount: number) {
  for (let i = 0; l.dirty && i < 5; i++) l.countAnswered(l.countSent(), serverCount);
  expect(l.dirty).toBe(false);
}
