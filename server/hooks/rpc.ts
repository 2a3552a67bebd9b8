// The synchronous channel from a hook executor (a worker thread) to the main thread, which owns
// the database: 0.22's hook API is synchronous (`$app.dao().saveRecord(r)` returns when saved), so
// the worker posts its call and blocks on a shared flag until the main thread has answered
// (Atomics.wait + receiveMessageOnPort). The main thread answers from its event loop and never
// waits on a worker, except inside `runInTransaction`, where it serves that one worker's calls
// synchronously until the transaction ends (a bounded wait: SQLite's write lock is held then).
// A call whose work is asynchronous on the main thread (sending a mail) returns a promise: it is
// answered when the promise settles, the main thread serving meanwhile; inside runInTransaction
// such a call cannot be waited for and fails. Calls and answers carry an id, so the late answer of
// a call the worker gave up on is never taken for the next one's.
// While a call is open the main thread may ask the calling worker to run hook handlers first (the
// model hooks of a write its Dao makes, as 0.22's Dao fires them): the worker runs them where it
// waits, in the same thread and transaction, and posts their result as a call of its own
// (NESTED_RESULT) before it goes on waiting for its answer.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** signal[0]: 1 once the reply is posted; signal[1]: 1 once a call is posted (read in a transaction). */
export const SIGNAL_BYTES = 8;
/** How long a transaction's loop waits for nested handlers (within the transaction's own budget). */
const NESTED_SYNC_TIMEOUT_MS = 10_000;

export interface RpcCall {
  method: string;
  args: unknown[];
  /** Set by the worker: the answer carries it back. */
  id?: number;
}

type RpcReply = { id?: number } & ({ ok: true; value: unknown } | { ok: false; error: { message: string; api?: { status: number; message: string; data: unknown } } } | { nested: unknown });

/** The method of the call that carries a nested request's result back. */
const NESTED_RESULT = '__nested';

class RpcTimeoutError extends Error {}

/** The worker's side: call(method, args) returns the main thread's answer or throws its error. */
export function rpcClient(port: MessagePort, signal: Int32Array, timeoutMs: number, runNested: (request: unknown) => unknown): (method: string, args: unknown[]) => unknown {
  let nextId = 1;
  const post = (msg: RpcCall) => {
    port.postMessage(msg);
    Atomics.store(signal, 1, 1);
    Atomics.notify(signal, 1);
  };
  return (method, args) => {
    const id = nextId++;
    Atomics.store(signal, 0, 0);
    post({ method, args, id });
    const end = Date.now() + timeoutMs;
    for (;;) {
      const received = receiveMessageOnPort(port);
      if (received) {
        const reply = received.message as RpcReply;
        if (reply.id !== undefined && reply.id !== id) continue; // the late answer of a call given up on
        if ('nested' in reply) {
          // handlers to run before the answer (they may call in again: their calls nest)
          post({ method: NESTED_RESULT, args: [runNested(reply.nested)], id });
          continue;
        }
        if (reply.ok) return reply.value;
        const err = new Error(reply.error.message) as Error & { api?: unknown };
        if (reply.error.api) err.api = reply.error.api;
        throw err;
      }
      const left = end - Date.now();
      if (left <= 0 || Atomics.wait(signal, 0, 0, left) === 'timed-out') throw new RpcTimeoutError(`${method}: no answer from the server within ${timeoutMs} ms`);
      Atomics.store(signal, 0, 0);
    }
  };
}

export type RpcHandler = (call: RpcCall, serve: RpcServer) => unknown;

export interface RpcServer {
  /** True while the main thread serves this worker synchronously (inside runInTransaction): a call cannot wait then. */
  readonly synchronous: boolean;
  /** Runs `fn` once the current call's answer is posted (a transaction's begin, then its calls). */
  afterReply(fn: () => void): void;
  /**
   * Serves this worker's calls synchronously (the main thread blocks) until `done` says the
   * exchange is over or `timeoutMs` passes; used while a transaction is open on the worker's behalf.
   */
  serveUntil(done: () => boolean, timeoutMs: number): void;
  /**
   * Asks the worker whose call is being handled (`callId`) to run `request` (its runNested) and
   * gives its result: at once while serving synchronously, else as a promise.
   */
  nested(callId: number | undefined, request: unknown): unknown;
}

function errorReply(err: unknown): RpcReply {
  const e = err as { message?: unknown; status?: unknown; data?: unknown };
  const api = typeof e?.status === 'number' ? { status: e.status, message: String(e.message), data: e.data ?? {} } : undefined;
  return { ok: false, error: { message: err instanceof Error ? err.message : String(err), api } };
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';

/** The main thread's side: answers the worker's calls with `handler`. */
export function serveRpc(port: MessagePort, signal: Int32Array, handler: RpcHandler): RpcServer {
  const answer = (id: number | undefined, reply: RpcReply) => {
    port.postMessage({ ...reply, id });
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  let after: (() => void) | null = null;
  let serving = 0;
  /** Nested requests waiting for their result, by the id of the call they belong to. */
  const waiting = new Map<number | undefined, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nestedResult: { id: number | undefined; value: unknown } | null = null;
  const handle = (call: RpcCall) => {
    if (call.method === NESTED_RESULT) {
      const w = waiting.get(call.id);
      if (w) {
        waiting.delete(call.id);
        w.resolve(call.args[0]);
      } else nestedResult = { id: call.id, value: call.args[0] };
      return;
    }
    after = null;
    let value: unknown;
    try {
      value = handler(call, server);
    } catch (err) {
      answer(call.id, errorReply(err));
      return;
    }
    if (isThenable(value)) {
      if (serving) {
        // the main thread is blocked in the transaction's loop: the promise could never settle in time
        value.then(undefined, () => undefined);
        answer(call.id, errorReply(new Error(`${call.method}: this call waits for the network and cannot be made inside runInTransaction`)));
        return;
      }
      value.then(
        (v) => answer(call.id, { ok: true, value: v }),
        (err: unknown) => answer(call.id, errorReply(err)),
      );
      return;
    }
    answer(call.id, { ok: true, value });
    const next = after as (() => void) | null;
    after = null;
    next?.();
  };
  const server: RpcServer = {
    get synchronous() {
      return serving > 0;
    },
    afterReply(fn) {
      after = fn;
    },
    nested(callId, request) {
      port.postMessage({ id: callId, nested: request } satisfies RpcReply);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
      if (!serving) return new Promise((resolve, reject) => waiting.set(callId, { resolve, reject }));
      // the main thread is blocked in a transaction's loop: serve the worker until the result comes
      let value: unknown;
      server.serveUntil(() => {
        const result = nestedResult as { id: number | undefined; value: unknown } | null;
        if (!result || result.id !== callId) return false;
        value = result.value;
        nestedResult = null;
        return true;
      }, NESTED_SYNC_TIMEOUT_MS);
      return value;
    },
    serveUntil(done, timeoutMs) {
      const end = Date.now() + timeoutMs;
      serving++;
      try {
        while (!done()) {
          Atomics.store(signal, 1, 0);
          const received = receiveMessageOnPort(port);
          if (!received) {
            const left = end - Date.now();
            if (left <= 0) throw new RpcTimeoutError(`the transaction was not finished within ${timeoutMs} ms`);
            Atomics.wait(signal, 1, 0, left);
            continue;
          }
          handle(received.message as RpcCall);
        }
      } finally {
        serving--;
      }
    },
  };
  port.on('message', handle);
  // a worker that is gone (stopped at its budget) will not answer
  port.on('close', () => {
    for (const w of waiting.values()) w.reject(new Error('the hooks executor stopped before its handlers answered'));
    waiting.clear();
  });
  return server;
}
