// What an app instance does with pb_migrations when it opens (server/app.ts): apply the pending
// files (a failure stops the start, as 0.22's serve exits; the caller closes what it opened),
// then, with automigrate, follow the collection changes made through the API.
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { startAutomigrate } from './automigrate';
import { migrationsDirOf } from './files';
import { migrateUp } from './runner';

/** Returns the folder in use. `db`: the write connection the JS migrations' runtime works on. */
export function startMigrations(ctx: AppContext, db: DB): string {
  const dir = migrationsDirOf(ctx.options, ctx.dataDir);
  const applied = migrateUp(ctx, db, { dir });
  if (applied.length && ctx.options.consoleLog) for (const file of applied) console.log(`Applied ${file}`);
  if (ctx.options.automigrate) ctx.onClose.push(startAutomigrate(ctx, dir));
  return dir;
}
