// A hook executor: a worker thread that loads every pb_hooks file and runs its handlers when the
// main thread asks (./pool.ts). Handlers may block (sleep, bcrypt, a slow call): only this thread
// waits. Data is the main thread's, reached through the synchronous channel (./rpc.ts).
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { setRuntimeName } from '../migrations/js-unsupported';
import { fetchCollectionsWith } from './models-wire';
import type { FromExecutor, HookEventWire, Invocation, InvocationResult, ToExecutor } from './protocol';
import { rpcClient } from './rpc';
import { errorWire, eventOf, eventResult, isThenable, requestOf, runHandler } from './worker/event';
import { installGlobals } from './worker/globals';
import { evaluateFile, placeOf } from './worker/load';
import { HookRegistry, type Handler } from './worker/registry';
import { routeContext } from './worker/route-context';

const { port, signal, rpcTimeoutMs } = workerData as { port: MessagePort; signal: SharedArrayBuffer; rpcTimeoutMs: number };
const call = rpcClient(port, new Int32Array(signal), rpcTimeoutMs, (request) => runNested(request));
const registry = new HookRegistry();
fetchCollectionsWith((id, version) => call('collection', [id, version]) as Record<string, unknown> | null);
let files: string[] = [];
setRuntimeName("Outpost's pb_hooks");

const send = (msg: FromExecutor) => parentPort!.postMessage(msg);

/** The middlewares around `last` (0.22's (next) => (c) => ...); $apis' ones are checked by the main thread. */
function chain(middlewares: ReadonlyArray<unknown>, last: Handler): Handler {
  let handler = last;
  for (const mw of [...middlewares].reverse()) if (typeof mw === 'function') handler = (mw as Handler)(handler) as Handler;
  return handler;
}


/**
 * Handlers the main thread asks for while one of this executor's calls is open (the model hooks
 * of a write its Dao makes): run here and now, synchronously, as 0.22 runs them inside the save.
 * A handler that returns a promise goes on in the background (its result cannot be waited for
 * inside the call); its error is printed.
 */
function runNested(request: unknown): InvocationResult {
  const { name, tags, event } = request as { name: string; tags: string[]; event: HookEventWire };
  const built = eventOf(event);
  let outcome: InvocationResult['outcome'] = 'continue';
  try {
    for (const fn of registry.handlersFor(name, tags)) {
      const r = fn(built.e);
      if (isThenable(r)) {
        r.then(undefined, (err: unknown) => console.error(`[pb_hooks] ${name} (async, inside a Dao call):`, err));
        continue;
      }
      if (r instanceof Error) throw r;
      if (r === false) {
        outcome = 'stop';
        break;
      }
    }
  } catch (err) {
    return { outcome: 'error', error: errorWire(err) };
  }
  return eventResult(built, outcome);
}

async function invoke(inv: Invocation): Promise<InvocationResult> {
  if (inv.kind === 'hook') {
    const built = eventOf(inv.event);
    const { e } = built;
    let outcome: InvocationResult['outcome'] = 'continue';
    try {
      for (const fn of registry.handlersFor(inv.name, inv.tags)) {
        if ((await runHandler(fn, e)) === 'stop') {
          outcome = 'stop';
          break;
        }
      }
    } catch (err) {
      return { outcome: 'error', error: errorWire(err), response: built.ctx()?.written() ?? null };
    }
    return eventResult(built, outcome);
  }
  if (inv.kind === 'use') {
    // routerUse's middlewares ahead of a built-in route: the route itself runs on the main thread
    // once they call next() (what they put in c does not reach it)
    const c = routeContext(requestOf(inv.request));
    let proceed = false;
    const next: Handler = () => {
      proceed = true;
      return undefined;
    };
    try {
      let r = chain(registry.uses, next)(c);
      if (isThenable(r)) r = await r;
      if (r instanceof Error) throw r;
    } catch (err) {
      return { outcome: 'error', error: errorWire(err), response: c.written() };
    }
    return { outcome: 'continue', response: c.written(), proceed: proceed && !c.written() };
  }
  if (inv.kind === 'route') {
    const route = registry.routes.get(inv.id);
    if (!route) return { outcome: 'error', error: { message: `no route ${inv.id}` } };
    const c = routeContext(requestOf(inv.request));
    // routerUse's middlewares first, then the route's own (0.22's (next) => (c) => ...)
    const handler = chain([...registry.uses, ...route.middlewares], route.handler);
    try {
      let r = handler(c);
      if (isThenable(r)) r = await r;
      if (r instanceof Error) throw r;
    } catch (err) {
      return { outcome: 'error', error: errorWire(err), response: c.written() };
    }
    return { outcome: 'continue', response: c.written() };
  }
  if (inv.kind === 'command') {
    const command = registry.commands.get(inv.id);
    if (!command) return { outcome: 'error', error: { message: `no command ${inv.id}` } };
    try {
      let r = command.run?.(command.cmd, [...inv.args]);
      if (isThenable(r)) r = await r;
      if (r instanceof Error) throw r;
    } catch (err) {
      return { outcome: 'error', error: errorWire(err) };
    }
    return { outcome: 'continue' };
  }
  const job = registry.crons.get(inv.id);
  if (!job) return { outcome: 'error', error: { message: `no cron job ${inv.id}` } };
  try {
    await runHandler(job, undefined);
  } catch (err) {
    return { outcome: 'error', error: errorWire(err) };
  }
  return { outcome: 'continue' };
}

parentPort!.on('message', (msg: ToExecutor) => {
  if (msg.type === 'load') {
    files = msg.files;
    installGlobals(globalThis as unknown as Record<string, unknown>, { call, registry, hooksDir: msg.hooksDir, dataDir: msg.dataDir, dev: msg.dev });
    for (const file of files) {
      registry.file = file;
      try {
        evaluateFile(file, msg.cwd, msg.sources[files.indexOf(file)] ?? '');
      } catch (err) {
        const at = placeOf(err, [file]);
        const wire = errorWire(err);
        send({ type: 'loadFailed', error: { ...wire, message: `Failed to execute ${at || file}: ${wire.message}` } });
        return;
      }
    }
    registry.file = null;
    send({ type: 'loaded', manifest: { files, registrations: registry.registrations } });
    return;
  }
  void invoke(msg.invocation).then(
    (result) => send({ type: 'result', id: msg.id, result }),
    (err: unknown) => send({ type: 'result', id: msg.id, result: { outcome: 'error', error: errorWire(err) } }),
  );
});
