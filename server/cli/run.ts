// `outpost <command> [flags]`: finds the command, parses its flags, prints help, runs it.
// Errors are printed as cobra prints them ("Error: …") and end with a non-zero exit code.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths';
import type { CliCommand } from './command';
import { COMMANDS } from './commands';
import { runHookCommand } from './hook-command';
import { commandName, flagLines, GLOBAL_DOCS, parseCommandLine, UNSUPPORTED, UsageError } from './flags';

/** Exit code of a command line that could not be understood. */
const USAGE_EXIT = 2;

function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '(unknown)';
  }
}

function rootHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'Outpost CLI: a server that speaks the PocketBase 0.22 API, run as `pocketbase` is.',
    '',
    'Usage:',
    '  outpost [command] [flags]',
    '',
    'Available Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Flags:',
    flagLines({ ...GLOBAL_DOCS, version: { value: '', help: 'version for outpost' } }),
    '',
    `${unsupportedNote()}Use "outpost [command] --help" for more information about a command.`,
  ].join('\n');
}

function commandHelp(c: CliCommand): string {
  const own = Object.fromEntries(Object.entries(c.flagHelp ?? {}).map(([name, help]) => [name, { value: c.options?.[name]?.type === 'string' ? 'string' : '', help }]));
  const { help: _help, ...globals } = GLOBAL_DOCS;
  return [
    c.summary,
    '',
    c.help,
    '',
    'Flags:',
    flagLines({ ...own, help: { value: '', help: `help for ${c.name}` } }),
    '',
    'Global Flags:',
    flagLines(globals),
    ...(unsupportedNote() ? ['', unsupportedNote().trimEnd()] : []),
  ].join('\n');
}

function unsupportedNote(): string {
  const names = Object.keys(UNSUPPORTED);
  return names.length ? `Not supported yet (refused with a message): ${names.map((n) => `--${n}`).join(', ')}\n` : '';
}

/** Runs the command line `argv` (process.argv.slice(2)); resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const name = commandName(argv, COMMANDS);
  const command = name ? COMMANDS.find((c) => c.name === name) : null;
  if (name === 'help') {
    const target = COMMANDS.find((c) => c.name === argv[argv.indexOf('help') + 1]);
    console.log(target ? commandHelp(target) : rootHelp());
    return 0;
  }
  if (name && !command) {
    // a command a hook file adds ($app.rootCmd.addCommand)
    const code = await runHookCommand(name, argv);
    if (code !== null) return code;
    console.error(`Error: unknown command "${name}" for "outpost"\nRun 'outpost --help' for usage.`);
    return USAGE_EXIT;
  }
  let parsed;
  try {
    parsed = parseCommandLine(argv, command ?? null);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`Error: ${err.message}\nRun '${command ? `outpost ${command.name}` : 'outpost'} --help' for usage.`);
    return USAGE_EXIT;
  }
  if (parsed.help) {
    console.log(command ? commandHelp(command) : rootHelp());
    return 0;
  }
  if (parsed.version && !command) {
    console.log(`outpost version ${version()}`);
    return 0;
  }
  if (!command) {
    console.log(rootHelp());
    return 0;
  }
  return command.run({ args: parsed.args, flags: parsed.flags, own: parsed.own });
}
