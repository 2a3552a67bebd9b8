// Flag parsing with node:util's parseArgs, read the way cobra/pflag read PocketBase 0.22's flags:
// `--name value` or `--name=value` for strings, `--name` or `--name=false` for booleans (Go's
// strconv.ParseBool spellings), comma-separated and repeatable string slices (`--origins`).
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliCommand, GlobalFlags } from './command';

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** A flag's description for --help: its value's name ('' for a boolean) and the help line. */
interface FlagDoc {
  value: string;
  help: string;
}

/** The root command's persistent flags (0.22's pocketbase.go and examples/base/main.go). */
const GLOBAL_OPTIONS: OptionSpecs = {
  dir: { type: 'string' },
  encryptionEnv: { type: 'string' },
  dev: { type: 'boolean' },
  publicDir: { type: 'string' },
  indexFallback: { type: 'boolean' },
  migrationsDir: { type: 'string' },
  automigrate: { type: 'boolean' },
  queryTimeout: { type: 'string' },
  hooksDir: { type: 'string' },
  hooksWatch: { type: 'boolean' },
  hooksPool: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

export const GLOBAL_DOCS: Record<string, FlagDoc> = {
  automigrate: { value: '', help: 'enable/disable auto migrations (default true)' },
  dev: { value: '', help: 'enable dev mode, aka. printing logs and sql statements to the console' },
  dir: { value: 'string', help: 'the PocketBase data directory (default "./pb_data")' },
  encryptionEnv: { value: 'string', help: 'the env variable whose value of 32 characters will be used\nas encryption key for the app settings (default none)' },
  help: { value: '', help: 'help for this command' },
  hooksDir: { value: 'string', help: 'the directory with the JS app hooks (default "<dir>/../pb_hooks")' },
  hooksPool: { value: 'int', help: 'the total prewarm goja.Runtime instances for the JS app hooks execution (default 25)' },
  hooksWatch: { value: '', help: 'auto restart the app on pb_hooks file change (default true)' },
  indexFallback: { value: '', help: 'fallback the request to index.html on missing static path (eg. when pretty urls are used with SPA) (default true)' },
  migrationsDir: { value: 'string', help: 'the directory with the user defined migrations (default "<dir>/../pb_migrations")' },
  publicDir: { value: 'string', help: 'the directory to serve static files (default "./pb_public")' },
  queryTimeout: { value: 'int', help: 'the default SELECT queries timeout in seconds (default 30)' },
};

/** Flags 0.22 has and Outpost does not implement yet: named, then refused with a clear message (none today). */
export const UNSUPPORTED: Record<string, string> = {};

export class UsageError extends Error {}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** The first word that is not a flag or a flag's value: the command's name ('' for none). */
export function commandName(argv: string[], commands: readonly CliCommand[]): string {
  const options: OptionSpecs = { ...GLOBAL_OPTIONS };
  for (const c of commands) Object.assign(options, c.options);
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const first = tokens.find((t) => t.kind === 'positional' || t.kind === 'option-terminator');
  return first?.kind === 'positional' ? first.value : '';
}

export interface Parsed {
  /** Words after the command's name. */
  args: string[];
  flags: GlobalFlags;
  own: Record<string, string | boolean | string[] | boolean[] | undefined>;
  help: boolean;
  version: boolean;
}

/** Parses `argv` for `command` (null: the root); throws UsageError with a message for the user. */
export function parseCommandLine(argv: string[], command: CliCommand | null): Parsed {
  const options: OptionSpecs = { ...GLOBAL_OPTIONS, ...command?.options };
  const { args, booleans } = splitBooleanValues(argv, options);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(describeParseError(err));
  }
  const values = { ...parsed.values, ...booleans } as Record<string, string | boolean | string[] | boolean[] | undefined>;
  const given = Object.keys(values).filter((k) => values[k] !== undefined);
  const unsupported = given.find((k) => k in UNSUPPORTED);
  if (unsupported) throw new UsageError(`--${unsupported} is not supported yet: ${UNSUPPORTED[unsupported]}`);

  const positionals = parsed.positionals;
  // the first word is the command's own name
  if (command) positionals.shift();
  const own: Parsed['own'] = {};
  for (const name of Object.keys(command?.options ?? {})) own[name] = values[name];
  return {
    args: positionals,
    flags: globalFlags(values),
    own,
    help: values.help === true,
    version: values.version === true,
  };
}

function globalFlags(values: Record<string, unknown>): GlobalFlags {
  const str = (name: string, fallback: string) => {
    const v = values[name];
    return typeof v === 'string' && v !== '' ? v : fallback;
  };
  const bool = (name: string, fallback: boolean) => (typeof values[name] === 'boolean' ? (values[name] as boolean) : fallback);
  const timeout = str('queryTimeout', '30');
  const queryTimeout = Number(timeout);
  // 0.22's flag is a whole number; fractions are accepted (tests use sub-second budgets)
  if (!/^\s*[\d.]+\s*$/.test(timeout) || !(queryTimeout > 0)) {
    throw new UsageError(`invalid value "${timeout}" for --queryTimeout: a positive number of seconds`);
  }
  const pool = str('hooksPool', '25');
  if (!/^\s*\d+\s*$/.test(pool) || Number(pool) < 1) throw new UsageError(`invalid value "${pool}" for --hooksPool: a positive whole number`);
  return {
    dir: str('dir', './pb_data'),
    hooksDir: values.hooksDir ? path.resolve(str('hooksDir', '')) : '',
    hooksWatch: bool('hooksWatch', true),
    hooksPool: Number(pool),
    encryptionEnv: str('encryptionEnv', ''),
    dev: bool('dev', false),
    publicDir: str('publicDir', './pb_public'),
    indexFallback: bool('indexFallback', true),
    migrationsDir: values.migrationsDir ? path.resolve(str('migrationsDir', '')) : '',
    automigrate: bool('automigrate', true),
    queryTimeout,
  };
}

/**
 * parseArgs refuses `--flag=value` for a boolean: those are taken out here and read as Go's
 * ParseBool reads them (`--dev=false`), so `--automigrate=false` works as in 0.22.
 */
function splitBooleanValues(argv: string[], options: OptionSpecs): { args: string[]; booleans: Record<string, boolean> } {
  const args: string[] = [];
  const booleans: Record<string, boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      args.push(...argv.slice(i));
      break;
    }
    const m = /^--([^=]+)=(.*)$/s.exec(a);
    if (!m || options[m[1]]?.type !== 'boolean') {
      args.push(a);
      continue;
    }
    const [, name, value] = m;
    if (TRUE.has(value)) booleans[name] = true;
    else if (FALSE.has(value)) booleans[name] = false;
    else throw new UsageError(`invalid value "${value}" for --${name}: use true or false`);
  }
  return { args, booleans };
}

function describeParseError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(message)?.[1] ?? '';
    return `unknown flag: ${flag}`;
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    return flag ? `flag needs an argument: ${flag}` : message;
  }
  return message;
}

/** The `Flags:` block of a help page, in cobra's layout. */
export function flagLines(docs: Record<string, FlagDoc>): string {
  const entries = Object.entries(docs).sort(([a], [b]) => a.localeCompare(b));
  const heads = entries.map(([name, d]) => `${name === 'help' ? '  -h, ' : '      '}--${name}${d.value ? ` ${d.value}` : ''}`);
  const width = Math.max(...heads.map((h) => h.length)) + 3;
  return entries
    .map(([, d], i) => {
      const [first, ...rest] = d.help.split('\n');
      return [heads[i].padEnd(width) + first, ...rest.map((l) => ' '.repeat(width) + l)].join('\n');
    })
    .join('\n');
}
