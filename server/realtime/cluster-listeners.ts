// Which other members of a cluster hold realtime clients. A member shares its record events only
// when one does: a share is an IPC message relayed through the primary to every member (measured
// the largest cost of a create with --workers 2), and a member with no client drops it anyway.
// A member says so when its first client connects and when its last one leaves, and repeats it
// while it has clients, so a member that starts (or restarts after a restore) learns it within a
// heartbeat and a member that died stops counting after HOLD_MS. A client's subscriptions come
// in a later request than its connect, by which time the others have the word.
import type { ClusterChannel } from '../cluster/channel';

const SUBJECT = 'realtime.listeners';
const HEARTBEAT_MS = 1_000;
const HOLD_MS = 3_500;

interface Notice {
  member: string;
  listening: boolean;
}

export interface ClusterListeners {
  /** Whether any other member held a realtime client at its last word. */
  othersListening(): boolean;
  /** Call with this member's client count after each change. */
  setOwnCount(count: number): void;
  close(): void;
}

export function clusterListeners(cluster: ClusterChannel): ClusterListeners {
  const others = new Map<string, number>(); // member → until when its word holds
  let listening = false;
  const say = () => cluster.publish(SUBJECT, { member: cluster.memberId, listening } satisfies Notice);
  const heartbeat = setInterval(() => listening && say(), HEARTBEAT_MS);
  heartbeat.unref();
  const off = cluster.subscribe(SUBJECT, (message) => {
    const n = message as Notice;
    if (n.member === cluster.memberId) return;
    if (n.listening) others.set(n.member, Date.now() + HOLD_MS);
    else others.delete(n.member);
  });
  return {
    othersListening() {
      if (others.size === 0) return false;
      const now = Date.now();
      for (const [member, until] of others) {
        if (until > now) return true;
        others.delete(member);
      }
      return false;
    },
    setOwnCount(count) {
      if (count > 0 === listening) return;
      listening = count > 0;
      say();
    },
    close() {
      clearInterval(heartbeat);
      off();
    },
  };
}
