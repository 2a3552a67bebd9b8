// The shape every CLI command module has (server/cli/commands.ts lists them). Flags are
// PocketBase 0.22's: the persistent ones of its root command (valid before or after any command)
// plus a command's own (`serve --http`).
import type { ParseArgsConfig } from 'node:util';

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** The root command's flags, as PocketBase 0.22's prebuilt executable declares them. */
export interface GlobalFlags {
  /** --dir: the pb_data folder, as given (relative to the working directory). */
  dir: string;
  /** --encryptionEnv: the name of the environment variable holding the 32-character settings key ('' = none). */
  encryptionEnv: string;
  /** --dev: SQL statements and logs printed to the console. */
  dev: boolean;
  /** --publicDir: the folder served at / (default ./pb_public). */
  publicDir: string;
  /** --indexFallback: index.html for a missing path under / (SPA routes). */
  indexFallback: boolean;
  /** --migrationsDir: '' = 0.22's default, <dir>/../pb_migrations. */
  migrationsDir: string;
  /** --automigrate: write a migration file for every collection change. */
  automigrate: boolean;
  /** --queryTimeout: seconds allowed to each SELECT an API request starts. */
  queryTimeout: number;
  /** --hooksDir: '' = 0.22's default, <dir>/../pb_hooks. */
  hooksDir: string;
  /** --hooksWatch: reload the hooks when their files change. */
  hooksWatch: boolean;
  /** --hooksPool: at most this many hook executors. */
  hooksPool: number;
}

interface CommandInput {
  /** The words after the command's name (`migrate down 2` → ['down', '2']). */
  args: string[];
  flags: GlobalFlags;
  /** The command's own flags (its `options`), as util.parseArgs returns them. */
  own: Record<string, string | boolean | string[] | boolean[] | undefined>;
}

export interface CliCommand {
  /** The word that selects it: `outpost <name> ...`. */
  name: string;
  /** One line for `outpost --help`. */
  summary: string;
  /** What `outpost <name> --help` prints above the flags (usage line, sub-commands, examples). */
  help: string;
  /** Flags only this command takes (util.parseArgs option specs); described in `flagHelp`. */
  options?: OptionSpecs;
  /** `--name` → its help line, for the command's own options. */
  flagHelp?: Record<string, string>;
  /** Runs the command; resolves to the process exit code. A long-running command (serve) may never resolve. */
  run(input: CommandInput): Promise<number>;
}
