// The cluster channel through a NATS server (`serve --natsUrl`): separate Outpost instances on the
// same pb_data (other ports, later other machines) share realtime events, invalidations, the
// coordinator's counters and one leader. Membership is by presence: every member announces itself
// every second and is forgotten after PRESENCE_EXPIRY_MS of silence (at once when it leaves
// cleanly); the oldest member alive is the leader and answers the coordinator's questions. Every
// member keeps a copy of the coordinator's counts (the leader publishes each change, a newcomer
// loads the leader's copy), so the sign-in limits and read slots survive a change of leader, and
// a member that gets no answer from the leader (it just died) decides from its copy. Subjects
// live under `outpost.`: use one NATS server (or account) per cluster.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NatsConnection, Msg } from 'nats';
import type { ClusterChannel, ClusterHandler } from './channel';
import { createCoordinator, type CoordinatorChange, type CoordinatorSnapshot } from './coordinator';

const PREFIX = 'outpost';
/** nats.js's code for a request nobody subscribes to (ErrorCode.NoResponders). */
const NO_RESPONDERS = '503';
const PRESENCE_EVERY_MS = 1000;
const PRESENCE_EXPIRY_MS = 3500;
/** How long a new member listens for the others before it takes part (the leader is known by then). */
const JOIN_WAIT_MS = 300;
/** How long a newcomer waits for the leader's copy of the counts. */
const SNAPSHOT_TIMEOUT_MS = 2000;

interface Envelope {
  from: string;
  data: unknown;
  /** The inbox a broadcast's acks go to. */
  ack?: string;
}

interface Presence {
  id: string;
  started: number;
  /** The machine and the pb_data it serves: members on one machine must serve the same folder. */
  host?: string;
  dir?: string;
}

/** The folder's real path (symlinks resolved), or its absolute one while it does not exist yet. */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Joins the cluster of the instances serving `dataDir` through the NATS server at `url`. */
export async function connectNatsChannel(url: string, dataDir: string): Promise<ClusterChannel> {
  const { connect, JSONCodec } = await import('nats');
  const codec = JSONCodec<unknown>();
  const self: Presence = { id: randomUUID().slice(0, 8), started: Date.now(), host: os.hostname(), dir: realDir(dataDir) };
  const nc: NatsConnection = await connect({ servers: url, name: self.dir, noEcho: true, maxReconnectAttempts: -1, timeout: 5000 });
  // an instance of this machine serving another pb_data: not a member (its events, invalidations
  // and restores are about other data); a newcomer that finds one refuses to start
  const strangers = new Map<string, Presence>();
  const members = new Map<string, Presence & { seen: number }>();
  const handlers = new Map<string, Set<ClusterHandler>>();
  // isLeader is declared below; the coordinator publishes only while this member leads
  const coordinator = createCoordinator({
    idPrefix: `${self.id}.`,
    replicate: (change) => {
      if (isLeader()) nc.publish(`${PREFIX}.state`, codec.encode(change));
    },
  });

  const live = () => {
    const cutoff = Date.now() - PRESENCE_EXPIRY_MS;
    for (const [id, m] of members) if (m.seen < cutoff) members.delete(id);
    return [...members.values()];
  };
  const isLeader = () => live().every((m) => m.started > self.started || (m.started === self.started && m.id > self.id));

  const announce = (subject: string) => nc.publish(`${PREFIX}.${subject}`, codec.encode(self));
  nc.subscribe(`${PREFIX}.presence.*`, {
    callback: (err, msg) => {
      if (err) return;
      const p = codec.decode(msg.data) as Presence;
      if (msg.subject.endsWith('.leave')) return void (members.delete(p.id), strangers.delete(p.id));
      if (p.host === self.host && p.dir !== undefined && p.dir !== self.dir) {
        if (!strangers.has(p.id)) console.error(`[cluster] instance ${p.id} on this NATS server serves ${p.dir}, not ${self.dir}: ignored (the members of a cluster share one pb_data)`);
        strangers.set(p.id, p);
      } else members.set(p.id, { ...p, seen: Date.now() });
      // a newcomer asks who is there: answer at once rather than at the next beat
      if (msg.subject.endsWith('.hello')) announce('presence.beat');
    },
  });
  nc.subscribe(`${PREFIX}.msg.>`, {
    callback: (err, msg) => {
      if (err) return;
      const subject = msg.subject.slice(`${PREFIX}.msg.`.length);
      const env = codec.decode(msg.data) as Envelope;
      const run = [...(handlers.get(subject) ?? [])].map(async (h) => h(env.data));
      if (env.ack) {
        const inbox = env.ack;
        void Promise.allSettled(run).then(() => nc.publish(inbox, codec.encode(self.id)));
      }
    },
  });
  nc.subscribe(`${PREFIX}.ask`, {
    callback: (err, msg: Msg) => {
      if (err || !isLeader()) return;
      const { subject, data } = codec.decode(msg.data) as { subject: string; data: unknown };
      coordinator.answer(subject, data).then(
        (answer) => msg.respond(codec.encode({ answer })),
        (e: unknown) => msg.respond(codec.encode({ error: e instanceof Error ? e.message : String(e) })),
      );
    },
  });
  nc.subscribe(`${PREFIX}.snapshot`, {
    callback: (err, msg: Msg) => {
      if (!err && isLeader()) msg.respond(codec.encode(coordinator.snapshot()));
    },
  });
  // the leader's changes, kept from the moment its copy arrives: NATS delivers one connection's
  // messages in order, so those before its answer are in the copy and those after are not
  let copying = true;
  nc.subscribe(`${PREFIX}.state`, {
    callback: (err, msg) => {
      if (!err && !copying) coordinator.apply(codec.decode(msg.data) as CoordinatorChange);
    },
  });
  announce('presence.hello');
  const beat = setInterval(() => announce('presence.beat'), PRESENCE_EVERY_MS);
  beat.unref();
  await new Promise((r) => setTimeout(r, JOIN_WAIT_MS));
  const stranger = [...strangers.values()][0];
  if (stranger) {
    clearInterval(beat);
    announce('presence.leave');
    await nc.drain().catch(() => undefined);
    throw new Error(`another instance on this NATS server serves ${stranger.dir} on this machine, this one ${self.dir}: the instances of a cluster share one pb_data (use another NATS server or account for other data)`);
  }
  if (!isLeader()) {
    try {
      const reply = await nc.request(`${PREFIX}.snapshot`, codec.encode(null), { timeout: SNAPSHOT_TIMEOUT_MS });
      coordinator.load(codec.decode(reply.data) as CoordinatorSnapshot);
    } catch (err) {
      console.error(`[cluster] no copy of the shared counts from the leader (${err instanceof Error ? err.message : String(err)}): this member starts without them`);
    }
  }
  copying = false;

  const send = (subject: string, env: Envelope) => nc.publish(`${PREFIX}.msg.${subject}`, codec.encode(env));

  return {
    memberId: self.id,
    transport: 'nats',
    publish: (subject, data) => send(subject, { from: self.id, data }),
    subscribe(subject, handler) {
      let set = handlers.get(subject);
      if (!set) handlers.set(subject, (set = new Set()));
      set.add(handler);
      return () => set.delete(handler);
    },
    async broadcast(subject, data, timeoutMs) {
      const expected = live().length;
      if (expected === 0) return { acked: 0, expected: 0 };
      const inbox = `${PREFIX}.ack.${self.id}.${randomUUID()}`;
      const acked = new Set<string>();
      const sub = nc.subscribe(inbox);
      await nc.flush();
      send(subject, { from: self.id, data, ack: inbox });
      const timer = setTimeout(() => sub.unsubscribe(), timeoutMs);
      for await (const m of sub) {
        acked.add(codec.decode(m.data) as string);
        if (acked.size >= expected) break;
      }
      clearTimeout(timer);
      sub.unsubscribe();
      return { acked: Math.min(acked.size, expected), expected };
    },
    async ask(subject, data, timeoutMs) {
      // the leader answers its own questions without a round trip
      if (isLeader()) return coordinator.answer(subject, data);
      let reply: Msg;
      try {
        reply = await nc.request(`${PREFIX}.ask`, codec.encode({ subject, data }), { timeout: timeoutMs });
      } catch (err) {
        // nobody leads (the leader died and is not forgotten yet): this member's copy of the
        // counts decides. A sign-in always has it decide (with three members a dead leader is a
        // timeout, the others hear the question but do not answer); a slot for a costly read
        // after a timeout would wait a second time, so there the caller goes without one
        if ((err as { code?: string }).code === NO_RESPONDERS || subject.startsWith('limit.')) return coordinator.answer(subject, data);
        throw err;
      }
      const r = codec.decode(reply.data) as { answer?: unknown; error?: string };
      if (r.error) throw new Error(r.error);
      return r.answer;
    },
    isLeader,
    members: () => live().length + 1,
    async close() {
      clearInterval(beat);
      coordinator.close();
      if (nc.isClosed()) return;
      announce('presence.leave');
      await nc.drain().catch(() => undefined);
    },
  };
}
