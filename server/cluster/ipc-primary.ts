// `serve --workers N`: the node:cluster primary. It serves no request itself: it starts the
// workers (the first alone, so migrations and the first start's writes happen once, then the
// others), relays what they publish, counts the acks of a broadcast, answers the coordinator's
// questions (shared counters), names the leader (the oldest worker alive) and replaces a worker
// that dies. SIGTERM or SIGINT stops every worker gracefully, then itself.
import cluster, { type Worker } from 'node:cluster';
import { createCoordinator } from './coordinator';
import { isWire, type ToPrimary, type ToWorker } from './ipc-wire';

interface Pending {
  from: Worker;
  id: number;
  waiting: Set<number>;
  expected: number;
  timer: NodeJS.Timeout;
}

export interface PrimaryOptions {
  workers: number;
  /** Environment of the first worker only (it prints the banner). */
  firstEnv?: Record<string, string>;
  /** Called once every worker listens. */
  onReady?(pids: number[]): void;
}

/** Runs the primary until a signal stops it; resolves to the exit code. */
export function runPrimary(opts: PrimaryOptions): Promise<number> {
  const coordinator = createCoordinator();
  const live = new Set<Worker>();
  const pending = new Map<number, Pending>();
  let nextAck = 1;
  let stopping = false;
  let ready = false;
  let leader: Worker | null = null;

  const send = (w: Worker, m: ToWorker) => {
    if (w.isConnected()) w.send(m);
  };
  const assignRoles = () => {
    const oldest = [...live].sort((a, b) => a.id - b.id)[0] ?? null;
    leader = oldest;
    for (const w of live) send(w, { outpost: 'role', leader: w === leader, members: live.size });
  };
  const finish = (ack: number) => {
    const p = pending.get(ack);
    if (!p) return;
    pending.delete(ack);
    clearTimeout(p.timer);
    send(p.from, { outpost: 'done', id: p.id, acked: p.expected - p.waiting.size, expected: p.expected });
  };

  const onMessage = (from: Worker, m: unknown) => {
    if (!isWire(m)) return;
    const msg = m as ToPrimary;
    switch (msg.outpost) {
      case 'pub':
        for (const w of live) if (w !== from) send(w, { outpost: 'msg', subject: msg.subject, data: msg.data });
        break;
      case 'bcast': {
        const ack = nextAck++;
        const others = [...live].filter((w) => w !== from);
        const p: Pending = { from, id: msg.id, waiting: new Set(others.map((w) => w.id)), expected: others.length, timer: setTimeout(() => finish(ack), msg.timeoutMs) };
        pending.set(ack, p);
        for (const w of others) send(w, { outpost: 'msg', subject: msg.subject, data: msg.data, ack });
        if (others.length === 0) finish(ack);
        break;
      }
      case 'ack': {
        const p = pending.get(msg.ack);
        p?.waiting.delete(from.id);
        if (p && p.waiting.size === 0) finish(msg.ack);
        break;
      }
      case 'ask':
        coordinator.answer(msg.subject, msg.data).then(
          (data) => send(from, { outpost: 'answer', id: msg.id, data }),
          (err: unknown) => send(from, { outpost: 'answer', id: msg.id, error: err instanceof Error ? err.message : String(err) }),
        );
        break;
    }
  };

  return new Promise<number>((resolve) => {
    const fork = (env?: Record<string, string>) => {
      const w = cluster.fork(env);
      w.on('message', (m) => onMessage(w, m));
      w.once('listening', () => {
        live.add(w);
        assignRoles();
        if (!ready && live.size === opts.workers) {
          ready = true;
          opts.onReady?.([...live].map((x) => x.process.pid ?? 0));
        } else if (!ready) fork();
      });
      w.once('exit', (code, signal) => {
        live.delete(w);
        // a dead worker acks nothing more: its broadcasts finish without it
        for (const [ack, p] of pending) {
          if (p.waiting.delete(w.id) && p.waiting.size === 0) finish(ack);
        }
        if (stopping) {
          if (live.size === 0 && Object.keys(cluster.workers ?? {}).length === 0) {
            coordinator.close();
            resolve(0);
          }
          return;
        }
        if (!ready) {
          // a worker that cannot start (a bad flag value, a locked port) stops the whole start
          stopping = true;
          for (const other of live) other.process.kill('SIGTERM');
          coordinator.close();
          resolve(typeof code === 'number' && code !== 0 ? code : 1);
          return;
        }
        console.error(`[workers] worker ${w.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
        assignRoles();
        fork();
      });
    };
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: stopping ${live.size} worker(s)…`);
      const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
      if (all.length === 0) resolve(0);
      // (workers ignore SIGINT: a terminal's Ctrl-C reaches them through this SIGTERM only)
      for (const w of all) w.process.kill('SIGTERM');
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    fork(opts.firstEnv);
  });
}
