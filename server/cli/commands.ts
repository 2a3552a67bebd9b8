// The CLI's commands, one module each, in the order `outpost --help` lists them.
//
// To add a command: write server/cli/<name>.ts exporting a `CliCommand` (./command.ts) and list it
// here. Shape (for the migrate module, server/cli/migrate.ts):
//   export const migrateCommand: CliCommand = {
//     name: 'migrate', summary: '…', help: 'Usage: outpost migrate …',
//     async run({ args, flags }) { … return exitCode; },   // args: ['up'] / ['down', '2'] / …
//   };
// `flags` holds every root flag already parsed and checked (dir, encryptionEnv, dev, migrationsDir,
// automigrate, queryTimeout, publicDir, indexFallback); `flags.migrationsDir` is '' when not given
// (0.22's default then applies: <dir>/../pb_migrations). Print errors to stderr, return the code.
// The bundle allows no dynamic import(): modules are imported statically here.
import type { CliCommand } from './command';
import { serveCommand } from './serve';
import { adminCommand } from './admin';
import { migrateCommand } from './migrate';

export const COMMANDS: readonly CliCommand[] = [adminCommand, migrateCommand, serveCommand];
