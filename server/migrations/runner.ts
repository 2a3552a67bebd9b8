// `migrate up / down / history-sync` over pb_migrations, as 0.22's tools/migrate runner does them:
// every pending file applied in name order inside ONE transaction (a failure anywhere rolls the
// whole run back, so pb_data is left as it was), each recorded in `_migrations` with its
// microsecond time; down reverts the latest applied first. Every file a run needs is evaluated
// before anything is written, so a syntax error in one of them changes nothing.
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { invalidateCollections } from '../collections/store';
import { listMigrationFiles } from './files';
import { removeRecordFiles } from '../records/delete';
import { appliedRows, ensureMigrationsTable, isApplied, isGoMigration, lastApplied, recordApplied, recordReverted, removeMissing, type MigrationHistory } from './history';
import { callMigration, loadMigrations, MigrationError, type LoadedMigration, type RuntimeState } from './js-runtime';

export { MigrationError };

/** Each evaluation and each up/down call: 5 minutes unless OUTPOST_MIGRATION_TIMEOUT_MS says otherwise. */
function defaultBudgetMs(): number {
  const env = Number(process.env.OUTPOST_MIGRATION_TIMEOUT_MS);
  return env > 0 ? env : 300_000;
}

export interface RunnerOptions {
  /** The pb_migrations folder. */
  dir: string;
  budgetMs?: number;
}

/**
 * Evaluates the files `wanted` picks (the pending ones for up, the ones to revert for down): an
 * applied file is not evaluated again at every start (0.22 evaluates them all; a large folder
 * would cost a context per file on each start).
 */
function load(db: DB, opts: RunnerOptions, wanted: (file: string) => boolean): { list: LoadedMigration[]; state: RuntimeState; budget: number } {
  ensureMigrationsTable(db);
  const budget = opts.budgetMs ?? defaultBudgetMs();
  return { ...loadMigrations(listMigrationFiles(opts.dir).filter((f) => wanted(f.file)), budget), budget };
}

/** Runs `work` in one IMMEDIATE transaction with the runtime bound to `ctx`; rolls everything back on error. */
function inTransaction(ctx: AppContext, db: DB, state: RuntimeState, work: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  state.run = { ctx, db };
  try {
    work();
    db.exec('COMMIT');
    void removeRecordFiles(ctx, state.deletedRecords.splice(0));
  } catch (err) {
    state.deletedRecords.length = 0;
    if (db.inTransaction) db.exec('ROLLBACK');
    // (a settings document a migration saved stays in the store's memory: a failed run ends the
    // command or the start, and nothing reads that store again)
    throw err;
  } finally {
    state.run = null;
    invalidateCollections(ctx);
  }
}

/** Applies every pending file; returns their names (empty: nothing to apply). */
export function migrateUp(ctx: AppContext, db: DB, opts: RunnerOptions): string[] {
  ensureMigrationsTable(db);
  const { list: pending, state, budget } = load(db, opts, (file) => !isApplied(db, file));
  if (!pending.length) return [];
  inTransaction(ctx, db, state, () => {
    for (const m of pending) {
      if (m.up) callMigration(m, m.up, state, budget, 'apply');
      recordApplied(db, m.file);
    }
  });
  return pending.map((m) => m.file);
}

/**
 * The files `migrate down <count>` would revert, latest first. count < 0: every applied JS
 * migration (0.22 would revert its own Go ones too, which Outpost refuses).
 */
export function toRevert(db: DB, count: number): string[] {
  ensureMigrationsTable(db);
  if (count < 0) return lastApplied(db, appliedRows(db).length).filter((file) => !isGoMigration(file));
  return count > 0 ? lastApplied(db, count) : [];
}

/** Reverts the last `count` applied migrations; every one must have its file and a down. */
export function migrateDown(ctx: AppContext, db: DB, opts: RunnerOptions, count: number): string[] {
  const names = toRevert(db, count);
  if (!names.length) return [];
  const { list, state, budget } = load(db, opts, (file) => names.includes(file));
  const byName = new Map(list.map((m) => [m.file, m]));
  const steps = names.map((name) => {
    if (isGoMigration(name)) throw new MigrationError(`Failed to revert migration ${name}: it is one of PocketBase's own (Go) migrations, which Outpost does not revert`);
    const m = byName.get(name);
    if (!m) throw new MigrationError(`Failed to revert migration ${name}: the file is not in ${opts.dir} (run "migrate history-sync" to forget it)`);
    if (!m.down) throw new MigrationError(`Failed to revert migration ${name}: it has no down function (migrate(up, down))`);
    return { m, down: m.down };
  });
  inTransaction(ctx, db, state, () => {
    for (const { m, down } of steps) {
      callMigration(m, down, state, budget, 'revert');
      recordReverted(db, m.file);
    }
  });
  return names;
}

/** Forgets applied files that no longer exist (PocketBase's own Go migrations stay). */
export function historySync(db: DB, opts: RunnerOptions): number {
  ensureMigrationsTable(db);
  return removeMissing(db, listMigrationFiles(opts.dir).map((f) => f.file));
}

export interface MigrationEntry {
  file: string;
  /** When it was applied (ISO time), or null while pending. */
  applied: string | null;
  /** Applied, but the file is no longer in the folder. */
  missing: boolean;
}

/** The folder's files and the applied JS migrations, in name order, without running anything. */
export function migrationsStatus(history: MigrationHistory, dir: string): MigrationEntry[] {
  const rows = new Map(history.applied().filter((r) => !isGoMigration(r.file)).map((r) => [r.file, r.applied]));
  const files = new Set(listMigrationFiles(dir).map((f) => f.file));
  const names = [...new Set([...files, ...rows.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((file) => {
    const applied = rows.get(file);
    return { file, applied: applied === undefined ? null : appliedTime(applied), missing: !files.has(file) };
  });
}

/** `applied` is microseconds (older PocketBase versions wrote seconds). */
function appliedTime(value: number): string {
  const n = Number(value);
  const ms = n > 1e14 ? n / 1000 : n > 1e11 ? n : n * 1000;
  return new Date(ms).toISOString();
}
