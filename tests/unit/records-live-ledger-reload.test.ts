// The live records list's ledger: realtime events against a reload in flight (its page and its
// count, in either order), and Load more.
import { describe, expect, it } from 'vitest';
import { loaded, rec, settle } from '../helpers/live-ledger';

describe('a reload in flight', () => {
  it('supersedes what was announced before it was sent', () => {
    const l = loaded(['a']);
    l.event('create', rec('x'));
    l.reloadSent();
    expect(l.incoming).toBe(0);
    const token = l.countSent();
    l.pageLoaded(['x', 'a'], { first: true, more: false, sent: l.pageSent() });
    l.countAnswered(token, 2);
    expect([l.total, l.dirty]).toEqual([2, false]);
  });

  it('create during the flight, held by the page: no notice, counted once (page before or after the count)', () => {
    for (const pageFirst of [true, false]) {
      const l = loaded(['a']);
      l.reloadSent();
      const token = l.countSent();
      const sent = l.pageSent();
      l.event('create', rec('x'));
      if (pageFirst) l.pageLoaded(['x', 'a'], { first: true, more: false, sent });
      l.countAnswered(token, 2); // read after the create
      if (!pageFirst) l.pageLoaded(['x', 'a'], { first: true, more: false, sent });
      expect([l.total, l.incoming]).toEqual([2, 0]);
      settle(l, 2);
      expect(l.total).toBe(2);
    }
  });

  it('create during the flight, read before it: announced, counted', () => {
    const l = loaded(['a']);
    l.reloadSent();
    const token = l.countSent();
    const sent = l.pageSent();
    l.event('create', rec('x'));
    l.pageLoaded(['a'], { first: true, more: false, sent });
    l.countAnswered(token, 1);
    expect([l.total, l.incoming]).toEqual([2, 1]);
    settle(l, 2);
    expect(l.total).toBe(2);
  });

  it('a count holding a create seen during its flight that no page showed: the recount settles it', () => {
    const l = loaded(Array.from({ length: 40 }, (_, i) => `p${i}`), 60);
    const token = l.countSent();
    l.event('create', rec('x'));
    l.countAnswered(token, 61);
    expect(l.total).toBe(62); // for now
    expect(l.dirty).toBe(true);
    settle(l, 61);
    expect(l.total).toBe(61);
  });

  it('delete during the flight: greyed if the page still holds it, left out if the admin deleted it', () => {
    const l = loaded(['a', 'b', 'c']);
    l.reloadSent();
    const token = l.countSent();
    const sent = l.pageSent();
    l.event('delete', rec('a'));
    l.ownDeleted('b');
    const { skip } = l.pageLoaded(['a', 'b', 'c'], { first: true, more: false, sent });
    l.countAnswered(token, 3);
    expect([...skip]).toEqual(['b']);
    expect([...l.greyed]).toEqual(['a']);
    settle(l, 1);
    expect(l.total).toBe(1);
  });

  it('delete during the flight, read after it: the whole list lacks it, so the count does too', () => {
    for (const pageFirst of [true, false]) {
      const l = loaded(['a', 'b', 'c']);
      l.reloadSent();
      const token = l.countSent();
      const sent = l.pageSent();
      expect(l.event('delete', rec('a'))).toBe('grey'); // the old rows are still shown
      if (pageFirst) l.pageLoaded(['b', 'c'], { first: true, more: false, sent });
      l.countAnswered(token, 2);
      if (!pageFirst) l.pageLoaded(['b', 'c'], { first: true, more: false, sent });
      expect([l.total, l.greyed.size]).toEqual([2, 0]);
      settle(l, 2);
      expect(l.total).toBe(2);
    }
  });

  it('delete event after a reload that went without the record: counted by the reload only', () => {
    const l = loaded(['a', 'b', 'c']);
    l.reloadSent();
    l.pageLoaded(['b', 'c'], { first: true, more: false, sent: l.pageSent() });
    l.countAnswered(l.countSent(), 2);
    expect(l.event('delete', rec('a'))).toBe('none');
    expect(l.total).toBe(2);
    // with more pages, the record may be on one of them: counted
    const more = loaded(['b', 'c'], 10);
    more.event('delete', rec('a'));
    expect(more.total).toBe(9);
  });

  it('create event after a reload that holds the record: counted by the reload only, not announced', () => {
    const l = loaded(['a']);
    l.reloadSent();
    const token = l.countSent();
    l.pageLoaded(['x', 'a'], { first: true, more: false, sent: l.pageSent() });
    l.countAnswered(token, 2);
    l.event('create', rec('x'));
    expect([l.total, l.incoming]).toEqual([2, 0]);
  });

  it('keeps an own new record on top when page 1 does not hold it', () => {
    const l = loaded(['a']);
    l.reloadSent();
    const sent = l.pageSent();
    l.ownSaved('n', true);
    expect(l.pageLoaded(['a'], { first: true, more: false, sent }).keep).toEqual(['n']);
    expect(l.event('create', rec('n'))).toBe('none');
    expect(l.incoming).toBe(0);
  });

  it('Load more reconciles too: a row it holds is no longer announced', () => {
    const l = loaded(['a']);
    l.event('create', rec('y'));
    l.pageLoaded(['y', 'b'], { first: false, more: false, sent: l.pageSent() });
    expect(l.incoming).toBe(0);
  });
});
