// `$app` for hook code running in an executor: the Dao, the db builder, the store and the settings
// are the main thread's, reached through the synchronous channel (../rpc.ts). A Dao method's model
// arguments cross as snapshots and come back updated (a saved record gets its id and dates).
import { fromWire, toWire, updateFromWire } from '../models-wire';
import { logger, rootCommand } from './compat';
import { strict, unsupported } from '../../migrations/js-unsupported';
import { expressionsToWire } from './namespaces/dbx';
import { mailClient } from './namespaces/mail';
import type { BlockingIo } from './sync-io';

export type Call = (method: string, args: unknown[]) => unknown;

const TEMPLATE = Symbol.for('outpost.arrayOf');

/** `arrayOf(model)` in an executor: a list that remembers its item shape across the channel. */
export function arrayOf(model: unknown): unknown[] {
  const list: unknown[] = [];
  Object.defineProperty(list, TEMPLATE, { value: model });
  return list;
}

/** `db.newQuery(sql).bind({...}).execute() / one(model) / all(list)`, run by the main thread. */
function dbBuilder(call: Call): object {
  const newQuery = (sql: unknown) => {
    let params: Record<string, unknown> = {};
    const run = (op: string, target?: unknown) => call('db', [op, String(sql), params, toWire(target ?? null), toWire((target as { [TEMPLATE]?: unknown })?.[TEMPLATE] ?? null)]);
    const query = {
      bind(p: unknown) {
        params = { ...params, ...(typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {}) };
        return proxy;
      },
      execute() {
        const r = run('execute') as { rowsAffected: number; lastInsertId: number };
        return { rowsAffected: () => r.rowsAffected, lastInsertId: () => r.lastInsertId };
      },
      one(target: unknown) {
        const row = run('one', target);
        if (typeof target === 'object' && target !== null) Object.assign(target, row);
        return target;
      },
      all(target: unknown) {
        const rows = run('all', target) as unknown[];
        if (!Array.isArray(target)) return rows;
        target.length = 0;
        target.push(...rows);
        return target;
      },
    };
    const proxy = strict('db.newQuery(...)', query);
    return proxy;
  };
  return strict('db', { newQuery });
}

/** The Dao: every method is the main thread's; runInTransaction holds its write lock meanwhile. */
export function daoProxy(call: Call): object {
  const db = dbBuilder(call);
  const dao: object = new Proxy(
    {},
    {
      get(_, prop) {
        if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return undefined;
        if (prop === 'db' || prop === 'concurrentDB' || prop === 'nonconcurrentDB') return () => db;
        if (prop === 'withoutHooks' || prop === 'clone') return () => dao;
        if (prop === 'runInTransaction') {
          return (fn: unknown) => {
            if (typeof fn !== 'function') throw new Error('runInTransaction expects a function');
            call('tx.begin', []);
            let result: unknown;
            try {
              result = fn(dao);
            } catch (err) {
              call('tx.end', [false]);
              throw err;
            }
            if (result && typeof (result as { then?: unknown }).then === 'function') {
              call('tx.end', [false]);
              unsupported('an async function in runInTransaction (a transaction cannot wait)');
            }
            call('tx.end', [true]);
            return result;
          };
        }
        return (...args: unknown[]) => {
          // $dbx expressions (findRecordsByExpr) cross as {sql, params}, bound by the main thread
          const reply = call('dao', [prop, toWire(expressionsToWire(args))]) as { value: unknown; args: unknown[] };
          args.forEach((arg, i) => updateFromWire(arg, reply.args[i]));
          return fromWire(reply.value);
        };
      },
    },
  );
  return dao;
}

/** `$app.store()`: one map for every executor, kept by the main thread. */
function storeProxy(call: Call): object {
  const op = (name: string) => (...args: unknown[]) => call('store', [name, ...args]);
  return strict('$app.store()', {
    get: op('get'),
    set: op('set'),
    has: op('has'),
    remove: op('remove'),
    removeAll: op('removeAll'),
    reset: op('reset'),
    getAll: op('getAll'),
    length: op('length'),
    setIfLessThanLimit: op('setIfLessThanLimit'),
  });
}

export function appObject(call: Call, info: { dataDir: string; dev: boolean; io: BlockingIo }): object {
  const dao = daoProxy(call);
  const store = storeProxy(call);
  return strict('$app', {
    newMailClient: () => mailClient(info.io, call),
    dao: () => dao,
    db: () => (dao as { db: () => object }).db(),
    store: () => store,
    cache: () => store,
    settings: () => call('settings', []),
    dataDir: () => info.dataDir,
    isDev: () => info.dev,
    isDebug: () => info.dev,
    isBootstrapped: () => true,
    encryptionEnv: () => '',
    logger: () => logger(call),
    rootCmd: rootCommand((name) => console.warn(`[pb_hooks] the custom command "${name}" is registered, but Outpost's CLI does not run custom commands yet`)),
  });
}
