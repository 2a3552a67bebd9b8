// The cluster channel of a node:cluster worker: everything goes through the primary over the
// process's IPC pipe (ipc-primary.ts relays, counts the acks, holds the coordinator and names the
// leader).
import cluster from 'node:cluster';
import type { ClusterChannel, ClusterHandler } from './channel';
import { isWire, type ToPrimary, type ToWorker } from './ipc-wire';

export function createIpcChannel(): ClusterChannel {
  if (!cluster.isWorker || !process.send) throw new Error('the IPC channel runs in a node:cluster worker');
  const send = (m: ToPrimary) => process.send!(m);
  const handlers = new Map<string, Set<ClusterHandler>>();
  const waits = new Map<number, (m: ToWorker) => void>();
  let nextId = 1;
  let leader = false;
  let members = 1;

  const onMessage = (m: unknown) => {
    if (!isWire(m)) return;
    const msg = m as ToWorker;
    if (msg.outpost === 'role') {
      leader = msg.leader;
      members = msg.members;
    } else if (msg.outpost === 'msg') {
      const run = [...(handlers.get(msg.subject) ?? [])].map(async (h) => h(msg.data));
      if (msg.ack !== undefined) {
        const ack = msg.ack;
        void Promise.allSettled(run).then(() => send({ outpost: 'ack', ack }));
      }
    } else {
      waits.get(msg.id)?.(msg);
      waits.delete(msg.id);
    }
  };
  process.on('message', onMessage);

  const roundTrip = (build: (id: number) => ToPrimary, timeoutMs: number) =>
    new Promise<ToWorker>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waits.delete(id);
        reject(new Error(`no answer from the primary in ${timeoutMs} ms`));
      }, timeoutMs);
      waits.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      send(build(id));
    });

  return {
    memberId: `w${cluster.worker!.id}`,
    transport: 'ipc',
    publish: (subject, data) => send({ outpost: 'pub', subject, data }),
    subscribe(subject, handler) {
      let set = handlers.get(subject);
      if (!set) handlers.set(subject, (set = new Set()));
      set.add(handler);
      return () => set.delete(handler);
    },
    async broadcast(subject, data, timeoutMs) {
      // the primary stops waiting at timeoutMs; this side waits a little longer for its word
      const m = await roundTrip((id) => ({ outpost: 'bcast', id, subject, data, timeoutMs }), timeoutMs + 1000).catch(() => null);
      return m && m.outpost === 'done' ? { acked: m.acked, expected: m.expected } : { acked: 0, expected: members - 1 };
    },
    async ask(subject, data, timeoutMs) {
      const m = await roundTrip((id) => ({ outpost: 'ask', id, subject, data }), timeoutMs);
      if (m.outpost !== 'answer') throw new Error('unexpected answer');
      if (m.error) throw new Error(m.error);
      return m.data;
    },
    isLeader: () => leader,
    members: () => members,
    async close() {
      process.off('message', onMessage);
      handlers.clear();
    },
  };
}
