// The synchronous channel from a hook executor (a worker thread) to the main thread, which owns
// the database: 0.22's hook API is synchronous (`$app.dao().saveRecord(r)` returns when saved), so
// the worker posts its call and blocks on a shared flag until the main thread has answered
// (Atomics.wait + receiveMessageOnPort). The main thread answers from its event loop and never
// waits on a worker, except inside `runInTransaction`, where it serves that one worker's calls
// synchronously until the transaction ends (a bounded wait: SQLite's write lock is held then).
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** signal[0]: 1 once the reply is posted; signal[1]: 1 once a call is posted (read in a transaction). */
export const SIGNAL_BYTES = 8;

export interface RpcCall {
  method: string;
  args: unknown[];
}

type RpcReply = { ok: true; value: unknown } | { ok: false; error: { message: string; api?: { status: number; message: string; data: unknown } } };

class RpcTimeoutError extends Error {}

/** The worker's side: call(method, args) returns the main thread's answer or throws its error. */
export function rpcClient(port: MessagePort, signal: Int32Array, timeoutMs: number): (method: string, args: unknown[]) => unknown {
  return (method, args) => {
    Atomics.store(signal, 0, 0);
    port.postMessage({ method, args } satisfies RpcCall);
    Atomics.store(signal, 1, 1);
    Atomics.notify(signal, 1);
    if (Atomics.wait(signal, 0, 0, timeoutMs) === 'timed-out') throw new RpcTimeoutError(`${method}: no answer from the server within ${timeoutMs} ms`);
    const received = receiveMessageOnPort(port);
    if (!received) throw new Error(`${method}: the answer was lost`);
    const reply = received.message as RpcReply;
    if (reply.ok) return reply.value;
    const err = new Error(reply.error.message) as Error & { api?: unknown };
    if (reply.error.api) err.api = reply.error.api;
    throw err;
  };
}

export type RpcHandler = (call: RpcCall, serve: RpcServer) => unknown;

export interface RpcServer {
  /** Runs `fn` once the current call's answer is posted (a transaction's begin, then its calls). */
  afterReply(fn: () => void): void;
  /**
   * Serves this worker's calls synchronously (the main thread blocks) until `done` says the
   * exchange is over or `timeoutMs` passes; used while a transaction is open on the worker's behalf.
   */
  serveUntil(done: () => boolean, timeoutMs: number): void;
}

function replyOf(handler: RpcHandler, call: RpcCall, server: RpcServer): RpcReply {
  try {
    return { ok: true, value: handler(call, server) };
  } catch (err) {
    const e = err as { message?: unknown; status?: unknown; data?: unknown };
    const api = typeof e?.status === 'number' ? { status: e.status, message: String(e.message), data: e.data ?? {} } : undefined;
    return { ok: false, error: { message: err instanceof Error ? err.message : String(err), api } };
  }
}

/** The main thread's side: answers the worker's calls with `handler`. */
export function serveRpc(port: MessagePort, signal: Int32Array, handler: RpcHandler): RpcServer {
  const answer = (reply: RpcReply) => {
    port.postMessage(reply);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  let after: (() => void) | null = null;
  const handle = (call: RpcCall) => {
    after = null;
    answer(replyOf(handler, call, server));
    const next = after as (() => void) | null;
    after = null;
    next?.();
  };
  const server: RpcServer = {
    afterReply(fn) {
      after = fn;
    },
    serveUntil(done, timeoutMs) {
      const end = Date.now() + timeoutMs;
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
    },
  };
  port.on('message', handle);
  return server;
}
