// `$app` for hook code running in an executor: the Dao, the db builder, the store and the settings
// are the main thread's, reached through the synchronous channel (../rpc.ts). A Dao method's model
// arguments cross as snapshots and come back updated (a saved record gets its id and dates).
import { fromWire, toWire, updateFromWire } from '../models-wire';
import { holdsFile } from '../hook-file';
import { logger, rootCommand, type Command } from './compat';
import { strict, unsupported } from '../../migrations/js-unsupported';
import { Collection, JsRecord } from '../../migrations/js-models';
import { fillRecords, recordSelect, SelectQuery, wantsRecords } from '../../migrations/js-select';
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

/** One raw query run by the main thread: `one(model)` / `all(list)` fill their target as dbx does. */
function runQuery(call: Call, op: 'one' | 'all', sql: string, params: Record<string, unknown>, target: unknown): unknown {
  const result = call('db', [op, sql, params, toWire(target ?? null), toWire((target as { [TEMPLATE]?: unknown })?.[TEMPLATE] ?? null)]);
  if (op === 'one') {
    if (typeof target === 'object' && target !== null) Object.assign(target, result);
    return target;
  }
  if (!Array.isArray(target)) return result;
  target.length = 0;
  target.push(...(result as unknown[]));
  return target;
}

/** `db.newQuery(sql).bind({...}).execute() / one(model) / all(list)` and `db.select(...)`, run by the main thread. */
function dbBuilder(call: Call): object {
  const newQuery = (sql: unknown) => {
    let params: Record<string, unknown> = {};
    const query = {
      bind(p: unknown) {
        params = { ...params, ...(typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {}) };
        return proxy;
      },
      execute() {
        const r = call('db', ['execute', String(sql), params, null, null]) as { rowsAffected: number; lastInsertId: number };
        return { rowsAffected: () => r.rowsAffected, lastInsertId: () => r.lastInsertId };
      },
      one: (target: unknown) => runQuery(call, 'one', String(sql), params, target),
      all: (target: unknown) => runQuery(call, 'all', String(sql), params, target),
    };
    const proxy = strict('db.newQuery(...)', query);
    return proxy;
  };
  const select = (...cols: unknown[]) => new SelectQuery((op, q, target) => runQuery(call, op, q.sql, q.params, target)).select(...cols);
  return strict('db', { newQuery, select });
}

/** `Dao.recordQuery(collection)`: one(record) / all(list of records) get Records; other targets rows. */
function recordQuery(call: Call, dao: object, collection: unknown): SelectQuery {
  const ref = collection instanceof Collection ? collection.id || collection.name : String(collection ?? '');
  // dbx quotes the collection's name (for an id, the server's collection names it)
  let name: string | null = collection instanceof Collection ? collection.name : null;
  if (name === null) {
    try {
      name = ((dao as { findCollectionByNameOrId(n: string): Collection }).findCollectionByNameOrId(ref)).name;
    } catch {
      // 0.22 builds the query anyway and fails it when it runs
    }
  }
  return recordSelect(name, (op, q, target) => {
    if (!wantsRecords(target, (target as { [TEMPLATE]?: unknown } | null)?.[TEMPLATE])) return runQuery(call, op, q.sql, q.params, target);
    return fillRecords(op, fromWire(call('recordQuery', [ref, q.sql, q.params])) as JsRecord[], target);
  });
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
        if (prop === 'recordQuery') return (collection: unknown) => recordQuery(call, dao, collection);
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
          // a record holding $filesystem files is stored as an API upload is (../dao-files.ts)
          const method = (prop === 'saveRecord' || prop === 'save') && args[0] instanceof JsRecord && Object.values(args[0].data()).some(holdsFile) ? 'saveRecordFiles' : 'dao';
          // $dbx expressions (findRecordsByExpr) cross as {sql, params}, bound by the main thread
          const reply = call(method, [prop, toWire(expressionsToWire(args))]) as { value: unknown; args: unknown[] };
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

export function appObject(call: Call, info: { dataDir: string; dev: boolean; io: BlockingIo; addCommand: (cmd: Command) => void }): object {
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
    rootCmd: rootCommand(info.addCommand),
  });
}
