// The live records list's ledger: creates and deletes made elsewhere (announced, greyed, counted),
// and the count's answers (superseded, failed, after the subscription).
import { describe, expect, it } from 'vitest';
import { LiveLedger } from '../../src/pages/records/list/live-ledger';
import { loaded, rec } from '../helpers/live-ledger';

describe('changes elsewhere', () => {
  it('a create is announced and counted; Show puts it in the list', () => {
    const l = loaded(['a']);
    l.event('create', rec('x'));
    expect([l.total, l.incoming]).toEqual([2, 1]);
    expect(l.show()!.map((r) => r.id)).toEqual(['x']);
    expect(l.incoming).toBe(0);
    expect(l.event('update', rec('x'))).toBe('replace');
  });

  it('a delete greys a held row, drops an announcement, and counts a row of a later page', () => {
    const l = loaded(['a', 'b'], 50);
    l.event('create', rec('x'));
    expect(l.event('delete', rec('a'))).toBe('grey');
    expect(l.event('delete', rec('x'))).toBe('none');
    expect(l.event('delete', rec('far'))).toBe('none');
    expect([l.total, l.incoming, [...l.greyed]]).toEqual([48, 0, ['a']]);
    expect(l.event('delete', rec('a'))).toBe('none'); // a repeat counts nothing
    expect(l.total).toBe(48);
  });

  it('a create event for a row a loaded page holds counts nothing and is not announced', () => {
    const l = loaded(['a', 'x']);
    l.event('create', rec('x'));
    expect([l.total, l.incoming]).toEqual([2, 0]);
    expect(l.dirty).toBe(true); // whether the count held it is not known: it is asked again
  });

  it('past 200 announcements only ids are kept and Show asks for a reload', () => {
    const l = loaded([]);
    for (let i = 0; i < 300; i++) l.event('create', rec(`r${i}`));
    expect([l.total, l.incoming]).toEqual([300, 300]);
    expect(l.show()).toBeNull();
  });

  it('with a filter, an update of a record the list never saw asks for a recount', () => {
    const l = loaded(['a'], 1, true);
    expect(l.event('update', rec('z'))).toBe('none');
    expect(l.dirty).toBe(true);
  });
});

describe('counts', () => {
  it('an answer superseded by a later count is ignored; a failure keeps the total', () => {
    const l = loaded(['a']);
    const old = l.countSent();
    const next = l.countSent();
    expect(l.countAnswered(old, 99)).toBe(false);
    expect(l.countFailed(next)).toBe(true);
    expect([l.total, l.counting]).toEqual([1, false]);
    const fresh = new LiveLedger(false);
    fresh.countFailed(fresh.countSent());
    expect(fresh.total).toBe(0); // an invalid filter: 0 as before
    const cancelled = new LiveLedger(false);
    cancelled.countFailed(cancelled.countSent(), true);
    expect(cancelled.total).toBeNull();
  });

  it('a subscription confirmed after a count asks for another (changes before it never came)', () => {
    const l = loaded(['a']);
    l.subscribed();
    expect(l.dirty).toBe(true);
    const early = new LiveLedger(false);
    early.subscribed();
    expect(early.dirty).toBe(false);
  });
});
