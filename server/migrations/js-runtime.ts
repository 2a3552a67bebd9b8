// Runs pb_migrations files in node:vm, each in a context of its own (0.22 gives each file its own
// goja VM) holding 0.22's JS API for migrations. vm is no security boundary: a migration is the
// project's own code, as in 0.22; every evaluation and every up/down call runs under a time budget.
import fs from 'node:fs';
import vm from 'node:vm';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import type { RecordModel } from '../records/model';
import { randomString } from '../services/passwords';
import { Admin, Collection, JsRecord, Schema, SchemaField, unmarshal } from './js-models';
import { createDao } from './js-dao';
import { arrayOf, createDbBuilder, DynamicModel } from './js-db';
import { namespace, strict, unsupportedFunction } from './js-unsupported';
import type { MigrationFile } from './files';

type MigrationFn = (db: unknown) => unknown;

export interface LoadedMigration {
  file: string;
  up: MigrationFn | null;
  down: MigrationFn | null;
  /** migrate() was called (a file without the call is no migration, as in 0.22). */
  registered: boolean;
  context: vm.Context;
}

/** What the globals of every context act on: the run's app context, its connection and its call log. */
export interface RuntimeState {
  /** Set while a run is under way: the app and the write connection (raw SQL is part of the API). */
  run: { ctx: AppContext; db: DB } | null;
  /** Records a migration deleted: their files go once the run committed (kept when it rolls back). */
  deletedRecords: RecordModel[];
}

export class MigrationError extends Error {}

/** 0.22 globals a migration might use that Outpost does not offer: named when touched. */
const UNSUPPORTED_NAMESPACES = ['$dbx', '$tokens', '$filepath', '$filesystem', '$http', '$mails', '$apis', '$template'];
const UNSUPPORTED_FUNCTIONS = ['sleep', 'readerToString', 'routerAdd', 'routerUse', 'routerPre', 'cronAdd', 'cronRemove'];
const UNSUPPORTED_CLASSES = ['MailerMessage', 'Command', 'RequestInfo', 'DateTime', 'ValidationError', 'Cookie', 'SubscriptionMessage'];

function currentRun(state: RuntimeState): { ctx: AppContext; db: DB } {
  if (!state.run) throw new Error('the database is only available while a migration runs (inside up or down)');
  return state.run;
}

function globalsFor(state: RuntimeState, register: (up: unknown, down: unknown) => void): object {
  // callable with and without `new`, as the templates use both (`Dao(db)` and `new Dao(db)`)
  function Dao() {
    const { ctx, db } = currentRun(state);
    return createDao(ctx, db, state.deletedRecords);
  }
  const app = strict(
    '$app',
    {
      dao: () => Dao(),
      db: () => createDbBuilder(currentRun(state).ctx, currentRun(state).db),
      dataDir: () => currentRun(state).ctx.dataDir,
      settings: () => JSON.parse(JSON.stringify(currentRun(state).ctx.settings.get())) as unknown,
    },
  );
  const globals: { [key: string]: unknown } = {
    console,
    migrate: register,
    Dao,
    Collection,
    Record: JsRecord,
    Admin,
    Schema,
    SchemaField,
    DynamicModel,
    arrayOf,
    unmarshal,
    $app: app,
    $os: namespace('$os', { getenv: (name: string) => process.env[String(name)] ?? '' }),
    $security: namespace('$security', {
      randomString: (n: number) => randomString(Number(n)),
      randomStringWithAlphabet: (n: number, alphabet: string) => randomString(Number(n), String(alphabet)),
      pseudorandomString: (n: number) => randomString(Number(n)),
      pseudorandomStringWithAlphabet: (n: number, alphabet: string) => randomString(Number(n), String(alphabet)),
    }),
  };
  for (const name of UNSUPPORTED_NAMESPACES) globals[name] ??= namespace(name);
  for (const name of [...UNSUPPORTED_FUNCTIONS, ...UNSUPPORTED_CLASSES]) globals[name] = unsupportedFunction(name);
  return globals;
}

/** A thrown value as one line, with the place in the migration file when the stack has it. */
function thrownMessage(err: unknown, file: string): string {
  const e = err as { message?: unknown; name?: unknown; stack?: unknown } | null;
  const message = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(err);
  const stack = e && typeof e === 'object' && typeof e.stack === 'string' ? e.stack : '';
  const at = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`).exec(stack);
  return at ? `${message} (${file}:${at[1]})` : message;
}

function evaluate(file: MigrationFile, state: RuntimeState, budgetMs: number): LoadedMigration {
  const loaded: LoadedMigration = { file: file.file, up: null, down: null, registered: false, context: {} as vm.Context };
  let calls = 0;
  const register = (up: unknown, down: unknown) => {
    calls++;
    loaded.registered = true;
    loaded.up = typeof up === 'function' ? (up as MigrationFn) : null;
    loaded.down = typeof down === 'function' ? (down as MigrationFn) : null;
  };
  loaded.context = vm.createContext(globalsFor(state, register));
  let script: vm.Script;
  try {
    script = new vm.Script(fs.readFileSync(file.path, 'utf8'), { filename: file.file });
  } catch (err) {
    const line = /:(\d+)\n/.exec(String((err as Error).stack ?? ''))?.[1];
    throw new MigrationError(`failed to run migration ${file.file}: ${(err as Error).name}: ${(err as Error).message}${line ? ` (${file.file}:${line})` : ''}`);
  }
  try {
    script.runInContext(loaded.context, { timeout: budgetMs });
  } catch (err) {
    throw new MigrationError(`failed to run migration ${file.file}: ${thrownMessage(err, file.file)}`);
  }
  if (calls > 1) throw new MigrationError(`failed to run migration ${file.file}: migrate() is called ${calls} times; a file holds one migration`);
  return loaded;
}

/** Evaluates every file (a file that never calls migrate() is left out, as in 0.22). */
export function loadMigrations(files: readonly MigrationFile[], budgetMs: number): { list: LoadedMigration[]; state: RuntimeState } {
  const state: RuntimeState = { run: null, deletedRecords: [] };
  const list: LoadedMigration[] = [];
  for (const file of files) {
    const loaded = evaluate(file, state, budgetMs);
    if (loaded.registered) list.push(loaded);
  }
  return { list, state };
}

const CALL = new vm.Script('globalThis.__outpost_fn(globalThis.__outpost_db)', { filename: 'outpost:migration-call' });

/** Calls up or down with the run's db under the budget; throws a MigrationError naming the file. */
export function callMigration(m: LoadedMigration, fn: MigrationFn, state: RuntimeState, budgetMs: number, verb: 'apply' | 'revert'): void {
  const { ctx, db } = currentRun(state);
  const context = m.context as { __outpost_fn?: unknown; __outpost_db?: unknown };
  context.__outpost_fn = fn;
  context.__outpost_db = createDbBuilder(ctx, db);
  let result: unknown;
  try {
    result = CALL.runInContext(m.context, { timeout: budgetMs });
  } catch (err) {
    const reason = thrownMessage(err, m.file);
    const timedOut = (err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    throw new MigrationError(`Failed to ${verb} migration ${m.file}: ${timedOut ? `it ran longer than its budget of ${budgetMs} ms` : reason}`);
  } finally {
    delete context.__outpost_fn;
    delete context.__outpost_db;
  }
  if (result && typeof (result as { then?: unknown }).then === 'function') {
    throw new MigrationError(`Failed to ${verb} migration ${m.file}: it returned a promise; migrations run synchronously (as in PocketBase 0.22)`);
  }
  if (result && Object.prototype.toString.call(result) === '[object Error]') {
    throw new MigrationError(`Failed to ${verb} migration ${m.file}: ${thrownMessage(result, m.file)}`);
  }
}
