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
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** signal[0]: 1 once the reply is posted; signal[1]: 1 once a call is posted (read in a transaction). */
export const SIGNAL_BYTES = 8;

export interface RpcCall {
  method: string;
  args: unknown[];
  /** Set by the worker: the answer carries it back. */
  id?: number;
}

type RpcReply = { id?: number } & ({ ok: true; value: unknown } | { ok: false; error: { message: string; api?: { status: number; message: string; data: unknown } } });

class RpcTimeoutError extends Error {}

/** The worker's side: call(method, args) returns the main thread's answer or throws its error. */
export function rpcClient(port: MessagePort, signal: Int32Array, timeoutMs: number): (method: string, args: unknown[]) => unknown {
  let nextId = 1;
  return (method, args) => {
    const id = nextId++;
    Atomics.store(signal, 0, 0);
    port.postMessage({ method, args, id } satisfies RpcCall);
    Atomics.store(signal, 1, 1);
    Atomics.notify(signal, 1);
    const end = Date.now() + timeoutMs;
    for (;;) {
      const received = receiveMessageOnPort(port);
      if (received) {
        const reply = received.message as RpcReply;
        if (reply.id !== undefined && reply.id !== id) continue; // the late answer of a call given up on
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
  const handle = (call: RpcCall) => {
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
  return server;
}
