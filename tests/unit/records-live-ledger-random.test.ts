// The live records list's ledger: a seeded random interleaving against a model server (after
// events settle, 'Total found' is the server's count, and nothing the admin created or the list
// holds is announced).
import { describe, expect, it } from 'vitest';
import { LiveLedger } from '../../src/pages/records/list/live-ledger';
import { rec, settle } from '../helpers/live-ledger';

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
