// `outpost <name> [args]` for a command a hook file adds (`$app.rootCmd.addCommand(new Command({use,
// run}))`), as 0.22 runs one: the hooks load (every command loads them in 0.22), onAfterBootstrap
// fires, then the command's run(cmd, args) runs in an executor, as long as it takes, against the
// --dir data. Its console output is the command's. A name no hook file adds stays an unknown command.
import fs from 'node:fs';
import path from 'node:path';
import { loadHooks, type HookHost } from '../hooks/host';
import type { CliCommand } from './command';
import { commandContext, openDataDir } from './data-dir';
import { parseCommandLine, UsageError } from './flags';

/** Whether the hooks folder has any hook file (no need to start an executor otherwise). */
const hasHookFiles = (dir: string) => {
  try {
    return fs.readdirSync(dir).some((n) => /\.pb\.(js|ts)$/.test(n));
  } catch {
    return false;
  }
};

/** Lets the executors' console lines reach stdout before they stop (a worker's output is asynchronous). */
const drain = () => new Promise((r) => setTimeout(r, 50));

/**
 * Runs the hook command `name` of `argv`; null when no hook file adds one by that name (the caller
 * reports an unknown command). Resolves to the exit code: 1 when its run throws.
 */
export async function runHookCommand(name: string, argv: string[]): Promise<number | null> {
  const pseudo: CliCommand = { name, summary: '', help: '', run: () => Promise.resolve(0) };
  let parsed;
  try {
    parsed = parseCommandLine(argv, pseudo);
  } catch (err) {
    if (err instanceof UsageError) return null;
    throw err;
  }
  const { flags } = parsed;
  const dataDir = path.resolve(flags.dir);
  const hooksDir = flags.hooksDir || path.join(dataDir, '..', 'pb_hooks');
  if (!hasHookFiles(hooksDir)) return null;

  const data = openDataDir(flags);
  const ctx = commandContext(data, { dataDir: data.dataDir, migrationsDir: flags.migrationsDir || undefined, dev: flags.dev });
  let host: HookHost | null = null;
  try {
    const generation = await loadHooks(ctx, data.db, { hooksDir, pool: flags.hooksPool, dev: flags.dev });
    host = generation?.start(ctx, data.db) ?? null;
    const command = host?.manifest.registrations.find((r) => r.kind === 'command' && r.name === name);
    if (!host || !command) return null;
    ctx.hooks = host;
    if (host.has('onAfterBootstrap')) {
      const boot = await host.trigger('onAfterBootstrap', [], {});
      if (boot.outcome === 'error') throw new Error(`onAfterBootstrap failed: ${boot.error?.message}`);
    }
    const result = await host.command(command.id, parsed.args);
    await drain();
    if (result.outcome === 'error') {
      console.error(`Error: ${result.error?.message ?? 'the command failed'}`);
      return 1;
    }
    return 0;
  } finally {
    await host?.close();
    for (const fn of ctx.onClose) await fn();
    data.close();
  }
}
