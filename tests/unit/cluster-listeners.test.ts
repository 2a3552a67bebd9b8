// A cluster member shares its record events only while another member holds realtime clients
// (server/realtime/cluster-listeners.ts), over a two-member channel kept in memory here.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClusterChannel, ClusterHandler } from '../../server/cluster/channel';
import { clusterListeners, type ClusterListeners } from '../../server/realtime/cluster-listeners';

function bus() {
  const members: Array<{ id: string; handlers: Map<string, Set<ClusterHandler>> }> = [];
  const member = (id: string): ClusterChannel => {
    const handlers = new Map<string, Set<ClusterHandler>>();
    members.push({ id, handlers });
    return {
      memberId: id,
      transport: 'ipc',
      publish(subject, data) {
        for (const m of members) if (m.id !== id) for (const h of m.handlers.get(subject) ?? []) void h(data);
      },
      subscribe(subject, handler) {
        const set = handlers.get(subject) ?? new Set();
        handlers.set(subject, set.add(handler));
        return () => void set.delete(handler);
      },
      broadcast: async () => ({ acked: 0, expected: 0 }),
      ask: async () => null,
      isLeader: () => false,
      members: () => members.length,
      close: async () => undefined,
    };
  };
  return { member };
}

let a: ClusterListeners;
let b: ClusterListeners;

beforeEach(() => {
  vi.useFakeTimers();
  const { member } = bus();
  a = clusterListeners(member('a'));
  b = clusterListeners(member('b'));
});

afterEach(() => {
  a.close();
  b.close();
  vi.useRealTimers();
});

describe('clusterListeners', () => {
  it('knows at once when another member gets its first client and loses its last', () => {
    expect(a.othersListening()).toBe(false);
    b.setOwnCount(1);
    expect(a.othersListening()).toBe(true);
    expect(b.othersListening()).toBe(false);
    b.setOwnCount(2);
    b.setOwnCount(0);
    expect(a.othersListening()).toBe(false);
  });

  it('keeps the word while the other member repeats it, and forgets a member that went silent', () => {
    b.setOwnCount(1);
    vi.advanceTimersByTime(10_000);
    expect(a.othersListening()).toBe(true);
    b.close(); // (a member that died says nothing more)
    vi.advanceTimersByTime(4_000);
    expect(a.othersListening()).toBe(false);
  });

  it('tells a member that joins later within a heartbeat', () => {
    const { member } = bus();
    const early = clusterListeners(member('early'));
    early.setOwnCount(3);
    const late = clusterListeners(member('late'));
    expect(late.othersListening()).toBe(false);
    vi.advanceTimersByTime(1_100);
    expect(late.othersListening()).toBe(true);
    early.close();
    late.close();
  });
});
