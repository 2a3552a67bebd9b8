// The live records list's ledger: each order of a realtime event against the answer to the
// admin's own create or delete, against a reload's page and count, and a seeded random
// interleaving against a model server (after events settle, 'Total found' is the server's count,
// and nothing the admin created or the list holds is announced).
import { describe, expect, it } from 'vitest';
import type { RecordModel } from 'pocketbase';
import { LiveLedger } from '../../src/pages/records/list/live-ledger';

const rec = (id: string) => ({ id, collectionId: 'c', collectionName: 'c' }) as RecordModel;

/** A ledger with `ids` loaded by a reload whose count answered `count` (more than `ids`: more pages). */
function loaded(ids: string[], count = ids.length, filtered = false) {
  const l = new LiveLedger(filtered);
  l.reloadSent();
  const token = l.countSent();
  l.pageLoaded(ids, { first: true, more: count > ids.length, sent: l.pageSent() });
  l.countAnswered(token, count);
  return l;
}

/** Answers the recounts a settled list asks for with the server's count. */
function settle(l: LiveLedger, serverCount: number) {
  for (let i = 0; l.dirty && i < 5; i++) l.countAnswered(l.countSent(), serverCount);
  expect(l.dirty).toBe(false);
}

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

/** A deterministic PRNG (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('random interleavings against a model server', () => {
  it('after events settle the total is the server count, and nothing own or held is announced', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed);
      const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
      const server: string[] = ['s1', 's2', 's3', 's4', 's5', 's6']; // newest last; a page is the newest 4
      const l = new LiveLedger(false);
      const ownIds = new Set<string>();
      const shown = new Set<string>(); // the rows of the list (as the React side keeps them)
      type Step = () => void;
      let pending: Step[] = []; // things the network will do, in an order the test picks
      let n = 0;
      const later = (step: Step) => pending.push(step);
      // the server's events travel in commit order on one stream; each is delivered by a later step
      const stream: Step[] = [];
      const event = (action: 'create' | 'delete', id: string) => {
        stream.push(() => {
          const plan = l.event(action, rec(id));
          if (plan === 'remove') shown.delete(id);
        });
        later(() => stream.shift()!());
      };
      const reload = () => {
        l.reloadSent();
        const token = l.countSent();
        const sent = l.pageSent();
        later(() => {
          const count = server.length; // read now
          later(() => l.countAnswered(token, count));
        });
        later(() => {
          const page = server.slice(-4).reverse(); // read now
          later(() => {
            const { skip, keep } = l.pageLoaded(page, { first: true, more: page.length >= 4, sent });
            for (const id of [...shown]) if (!keep.includes(id)) shown.delete(id);
            for (const id of page) if (!skip.has(id)) shown.add(id);
          });
        });
      };
      reload();
      for (let round = 0; round < 12; round++) {
        const what = random();
        if (what < 0.25) {
          const id = `o${++n}`;
          later(() => {
            server.push(id); // committed now, its event comes later
            event('create', id);
          });
        } else if (what < 0.4 && server.length > 0) {
          later(() => {
            const id = pick(server.filter((x) => !ownIds.has(x)));
            if (!id || !server.includes(id)) return;
            server.splice(server.indexOf(id), 1);
            event('delete', id);
          });
        } else if (what < 0.6) {
          const id = `m${++n}`;
          ownIds.add(id);
          const settled = l.writeStarted('create', null);
          later(() => {
            server.push(id);
            event('create', id);
            later(() => {
              l.ownSaved(id, true);
              shown.add(id);
              settled();
            });
          });
        } else if (what < 0.75 && shown.size > 0) {
          const id = pick([...shown]);
          if (!server.includes(id) || l.greyed.has(id)) continue;
          const settled = l.writeStarted('delete', id);
          later(() => {
            if (!server.includes(id)) return settled();
            server.splice(server.indexOf(id), 1);
            event('delete', id);
            later(() => {
              l.ownDeleted(id);
              shown.delete(id);
              settled();
            });
          });
        } else if (what < 0.85) {
          reload();
        } else if (l.dirty && !l.counting) {
          const token = l.countSent();
          later(() => {
            const count = server.length;
            later(() => l.countAnswered(token, count));
          });
        }
        // the network runs a random share of what is pending, in a random order
        for (let k = Math.floor(random() * pending.length); k > 0; k--) {
          const i = Math.floor(random() * pending.length);
          const [step] = pending.splice(i, 1);
          step();
        }
      }
      while (pending.length) {
        const batch = pending;
        pending = [];
        while (batch.length) batch.splice(Math.floor(random() * batch.length), 1)[0]();
      }
      settle(l, server.length);
      expect({ seed, total: l.total }).toEqual({ seed, total: server.length });
      const announced = l.show() ?? [];
      for (const r of announced) {
        expect({ seed, id: r.id, own: ownIds.has(r.id), held: shown.has(r.id), gone: !server.includes(r.id) }).toEqual({
          seed,
          id: r.id,
          own: false,
          held: false,
          gone: false,
        });
      }
    }
  });
});
