// A child process of the read pool (read-pool.ts): one read-only connection, one statement batch at
// a time. The parent kills this process when a batch outlives its budget.
import { openReadOnlyDatabase, runBatch, type DB, type WorkerReply, type WorkerRequest } from './database';
import { streamRunner, type StreamControl, type StreamReply, type StreamRequest } from './read-stream';

// A stop signal sent to every process of the server (systemd's control group) is the parent's to
// handle: it lets the reads under way end, then closes this child (it forks it in a process group
// of its own, out of reach of a terminal's Ctrl-C).
process.on('SIGTERM', () => undefined);
process.on('SIGINT', () => undefined);

const file = process.env.OUTPOST_READ_DB;
if (!file || !process.send) process.exit(1);

let db: DB | null = null;
// prepared statements by SQL text: the same list queries come back again and again
const statements = new Map<string, ReturnType<DB['prepare']>>();
const MAX_STATEMENTS = 500;

function prepare(sql: string) {
  let stmt = statements.get(sql);
  if (!stmt) {
    stmt = db!.prepare(sql);
    if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    statements.set(sql, stmt);
  }
  return stmt;
}

/** Sends to the parent; a closed channel means the parent is gone (exit follows). */
function send(msg: WorkerReply | StreamReply | 'ready'): void {
  process.send!(msg, undefined, undefined, () => {});
}

// ReadPool.stream: a statement's rows in chunks (read-stream.ts)
const streams = streamRunner(() => db!, send);

process.on('message', (msg: WorkerRequest | StreamRequest | StreamControl) => {
  if ('stream' in msg) return streams.start(msg);
  if ('control' in msg) return streams.control(msg);
  let reply: WorkerReply;
  const start = process.cpuUsage();
  const cpuMs = () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  try {
    const results = runBatch(db!, msg.queries, msg.pending, prepare);
    reply = { id: msg.id, ok: true, results, cpuMs: cpuMs() };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    reply = { id: msg.id, ok: false, message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined, cpuMs: cpuMs() };
  }
  send(reply);
});

db = openReadOnlyDatabase(file!);
send('ready');

// the parent is gone: nothing left to answer
process.on('disconnect', () => process.exit(0));
