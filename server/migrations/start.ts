// What an app instance does with pb_migrations when it opens (server/app.ts): apply the pending
// files (a failure closes what the instance opened and stops the start, as 0.22's serve exits),
// then, with automigrate, follow the collection changes made through the API.
import type { AppContext } from '../context';
import { startAutomigrate } from './automigrate';
import { migrationsDirOf } from './files';
import { migrateUp } from './runner';

/** Returns the folder in use. */
export async function startMigrations(ctx: AppContext): Promise<string> {
  const dir = migrationsDirOf(ctx.options, ctx.dataDir);
  try {
    const applied = migrateUp(ctx, { dir });
    if (applied.length && ctx.options.consoleLog) for (const file of applied) console.log(`Applied ${file}`);
  } catch (err) {
    await Promise.all([ctx.reads.close(), ctx.logReads.close()]);
    ctx.db.close();
    ctx.logsDb.close();
    throw err;
  }
  if (ctx.options.automigrate) ctx.onClose.push(startAutomigrate(ctx, dir));
  return dir;
}
