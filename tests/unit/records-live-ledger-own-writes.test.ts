// The live records list's ledger: each order of a realtime event against the answer to the
// admin's own create or delete.
import { describe, expect, it } from 'vitest';
import { loaded, rec } from '../helpers/live-ledger';

describe('the admin’s own create', () => {
  it('event before the answer: counted once, never announced', () => {
    const l = loaded(['a', 'b']);
    const settled = l.writeStarted('create', null);
    expect(l.event('create', rec('n'))).toBe('none');
    expect(l.total).toBe(3);
    expect(l.incoming).toBe(0);
    l.ownSaved('n', true);
    settled();
    expect([l.total, l.incoming]).toEqual([3, 0]);
  });

  it('event after the answer (and after the row was fetched again): counted once', () => {
    const l = loaded(['a', 'b']);
    const settled = l.writeStarted('create', null);
    l.ownSaved('n', true);
    settled();
    expect(l.event('create', rec('n'))).toBe('none');
    expect([l.total, l.incoming]).toEqual([3, 0]);
  });

  it('an event the list was not told to expect is announced until the answer names it', () => {
    const l = loaded(['a']);
    l.event('create', rec('n'));
    expect([l.total, l.incoming]).toEqual([2, 1]);
    l.ownSaved('n', true);
    expect([l.total, l.incoming]).toEqual([2, 0]);
  });

  it('a create elsewhere while the own one is in flight is announced once it settles', () => {
    const l = loaded(['a']);
    const settled = l.writeStarted('create', null);
    l.event('create', rec('x'));
    l.event('create', rec('n'));
    l.ownSaved('n', true);
    expect(l.incoming).toBe(0);
    settled();
    expect([l.total, l.incoming]).toEqual([3, 1]);
    expect(l.show()!.map((r) => r.id)).toEqual(['x']);
  });

  it('a failed create announces what it held back', () => {
    const l = loaded([]);
    const settled = l.writeStarted('create', null);
    l.event('create', rec('x'));
    settled();
    settled(); // a second call changes nothing
    expect([l.total, l.incoming]).toEqual([1, 1]);
  });

  it('an update counts nothing (without a filter, asks no recount)', () => {
    const l = loaded(['a']);
    l.ownSaved('a', false);
    expect(l.event('update', rec('a'))).toBe('replace');
    expect([l.total, l.dirty]).toEqual([1, false]);
    const f = loaded(['a'], 1, true);
    f.ownSaved('a', false);
    expect(f.dirty).toBe(true);
  });
});

describe('the admin’s own delete', () => {
  it('event before the answer: the row goes (not greyed), counted once', () => {
    const l = loaded(['a', 'b']);
    const settled = l.writeStarted('delete', 'a');
    expect(l.event('delete', rec('a'))).toBe('remove');
    expect(l.total).toBe(1);
    l.ownDeleted('a');
    settled();
    expect([l.total, l.greyed.size]).toEqual([1, 0]);
  });

  it('event after the answer: counted once', () => {
    const l = loaded(['a', 'b']);
    l.ownDeleted('a');
    expect(l.event('delete', rec('a'))).toBe('none');
    expect(l.total).toBe(1);
  });

  it('an event the list did not expect greys the row until the answer removes it', () => {
    const l = loaded(['a', 'b']);
    expect(l.event('delete', rec('a'))).toBe('grey');
    expect([...l.greyed]).toEqual(['a']);
    l.ownDeleted('a');
    expect([l.total, l.greyed.size]).toEqual([1, 0]);
  });

  it('deleting the only record leaves 0, whatever the order', () => {
    for (const eventFirst of [true, false]) {
      const l = loaded(['a']);
      const settled = l.writeStarted('delete', 'a');
      if (eventFirst) l.event('delete', rec('a'));
      l.ownDeleted('a');
      settled();
      if (!eventFirst) l.event('delete', rec('a'));
      expect(l.total).toBe(0);
    }
  });
});
