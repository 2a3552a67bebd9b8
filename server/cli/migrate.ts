// `outpost migrate up | down [n] | create NAME | collections | history-sync`: PocketBase 0.22's
// plugins/migratecmd with JS templates, against --dir and --migrationsDir. As in 0.22 a refused
// command prints "Error: …" on stderr and exits 0 (0.22 ignores a command's error); a file that
// cannot even be evaluated (syntax error) stops with exit 2, as 0.22's loader panics at start.
// create, collections and down ask for a confirmation on stdin ("y" to go on; none: cancelled).
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { snakecase } from '../records/files';
import { migrationsDirOf, newMigrationName } from '../migrations/files';
import { blankTemplate, snapshotTemplate } from '../migrations/templates';
import { historySync, migrateDown, migrateUp, MigrationError, toRevert } from '../migrations/runner';
import type { CliCommand, GlobalFlags } from './command';
import { commandContext, openDataDir } from './data-dir';
import { refreshTypesFile } from '../hooks/types-file';
import { prepareHookFiles } from '../hooks/host';

const color = (code: number, text: string) => (process.stdout.isTTY ? `\x1b[${code}m${text}\x1b[0m` : text);
const green = (text: string) => console.log(color(32, text));

/** A refusal 0.22 prints as cobra prints a command's error (exit 0). */
class Refused extends Error {}

async function confirm(question: string): Promise<boolean> {
  process.stdout.write(`? ${question} (y/N) `);
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const answer = await new Promise<string>((resolve) => {
    rl.once('line', resolve);
    rl.once('close', () => resolve(''));
  });
  rl.close();
  process.stdout.write('\n');
  return /^y(es)?$/i.test(answer.trim());
}

interface Session {
  ctx: AppContext;
  /** The write connection the runner's transactions and the JS migrations' raw SQL use. */
  db: DB;
  dir: string;
  close(): void;
}

function open(flags: GlobalFlags): Session {
  const data = openDataDir(flags);
  const ctx = commandContext(data, { dataDir: data.dataDir, migrationsDir: flags.migrationsDir || undefined });
  return { ctx, db: data.db, dir: migrationsDirOf(ctx.options, data.dataDir), close: data.close };
}

async function createFile(dir: string, suffix: string, content: string): Promise<void> {
  const name = newMigrationName(dir, suffix);
  const target = path.join(dir, name);
  if (!(await confirm(`Do you really want to create migration ${JSON.stringify(target)}?`))) {
    console.log('The command has been cancelled');
    return;
  }
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(target, content, { flag: 'wx' });
  } catch (err) {
    throw new Refused(`Failed to save migration file ${JSON.stringify(target)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  console.log(`Successfully created file ${JSON.stringify(target)}`);
}

async function down(s: Session, args: string[]): Promise<void> {
  let count = 1;
  if (args.length > 1) {
    const n = Number.parseInt(args[1], 10);
    count = Number.isNaN(n) ? 0 : n;
  }
  const names = toRevert(s.db, count);
  const shown = count < 0 ? names.length : count;
  if (!(await confirm(`\n${names.join('\n')}\nDo you really want to revert the last ${shown} applied migration(s)?`))) {
    console.log('The command has been cancelled');
    return;
  }
  const reverted = migrateDown(s.ctx, s.db, { dir: s.dir }, count);
  if (!reverted.length) green('No migrations to revert.');
  for (const file of reverted) green(`Reverted ${file}`);
}

async function run(s: Session, args: string[]): Promise<void> {
  const cmd = args[0] ?? 'up';
  switch (cmd) {
    case 'create':
      if (args.length < 2) throw new Refused('Missing migration file name');
      return createFile(s.dir, snakecase(args[1]), blankTemplate());
    case 'collections': {
      // 0.22 orders the snapshot by creation time
      const all = s.ctx.collections.readAll().sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
      return createFile(s.dir, 'collections_snapshot', snapshotTemplate(all));
    }
    case 'up': {
      const applied = migrateUp(s.ctx, s.db, { dir: s.dir });
      if (!applied.length) green('No new migrations to apply.');
      for (const file of applied) green(`Applied ${file}`);
      return;
    }
    case 'down':
      return down(s, args);
    case 'history-sync':
      historySync(s.db, { dir: s.dir });
      green('The _migrations table was synced with the available migrations.');
      return;
    default:
      throw new Refused(`Unsupported command: ${JSON.stringify(cmd)}\n`);
  }
}

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'Executes app DB migration scripts',
  help: `Usage: outpost migrate [command]

Supported arguments are:
- up            - runs all available migrations
- down [number] - reverts the last [number] applied migrations
- create name   - creates new blank migration template file
- collections   - creates new migration file with snapshot of the local collections configuration
- history-sync  - ensures that the _migrations history table doesn't have references to deleted migration files

create, collections and down ask for a confirmation: answer "y" on stdin (echo y | outpost migrate down).`,
  async run({ args, flags }) {
    let session: Session;
    try {
      session = open(flags);
    } catch (err) {
      console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    // as 0.22 bootstraps every command: pb_data/types.d.ts (the migration files reference it), and
    // the reference line in an empty hook file
    refreshTypesFile(session.ctx.dataDir);
    prepareHookFiles(flags.hooksDir || path.join(session.ctx.dataDir, '..', 'pb_hooks'), session.ctx.dataDir);
    try {
      await run(session, args);
      return 0;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`Error: ${message}`);
      // a file that cannot be evaluated stops 0.22 before any command runs (its loader panics)
      return err instanceof MigrationError && /^failed to run migration /.test(message) ? 2 : 0;
    } finally {
      session.close();
    }
  },
};
