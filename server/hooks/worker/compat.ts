// What goja lets 0.22 hook code do that V8 does not, and small members 0.22's hook code uses:
// constructors callable without `new`, `$app.logger()` (lines into the Logs page), custom CLI
// commands (registered while the files load; `outpost <use> args` runs one, server/cli/hook-command.ts),
// and `$apis.requestInfo(c)`.

type Ctor = new (...args: unknown[]) => object;

/** A class that can also be called without `new` (goja's constructors can): `Record(c)` = `new Record(c)`. */
export function callable<T extends Ctor>(Class: T): T {
  return new Proxy(Class, {
    apply: (target, _self, args: unknown[]) => new target(...args),
  });
}

type Call = (method: string, args: unknown[]) => unknown;

/** slog's key/value pairs (a trailing key without a value gets !BADKEY, as slog writes it). */
function attrsOf(kv: unknown[], into: Record<string, unknown>): Record<string, unknown> {
  for (let i = 0; i < kv.length; i += 2) {
    if (i + 1 >= kv.length) into['!BADKEY'] = kv[i];
    else into[String(kv[i])] = kv[i + 1];
  }
  return into;
}

/** `$app.logger()`: slog's debug/info/warn/error(msg, ...kv), with(...kv), withGroup(name); levels -4, 0, 4, 8. */
export function logger(call: Call, base: Record<string, unknown> = {}, group = ''): object {
  const write = (level: number) => (message: unknown, ...kv: unknown[]) => {
    const fresh = attrsOf(kv, {});
    const data = group ? { ...base, [group]: fresh } : { ...base, ...fresh };
    call('log', [level, String(message ?? ''), JSON.parse(JSON.stringify(data)) as unknown]);
  };
  return {
    debug: write(-4),
    info: write(0),
    warn: write(4),
    error: write(8),
    with: (...kv: unknown[]) => logger(call, group ? { ...base, [group]: attrsOf(kv, {}) } : attrsOf(kv, { ...base }), group),
    withGroup: (name: unknown) => logger(call, base, String(name)),
  };
}

/** `new Command({use, short, long, run(cmd, args)})`: 0.22's cobra.Command, as far as `rootCmd.addCommand` uses it. */
export class Command {
  use = '';
  short = '';
  long = '';
  /** `run(cmd, args)`: what `outpost <use> args...` runs. */
  run: ((cmd: Command, args: string[]) => unknown) | null = null;

  constructor(options?: unknown) {
    const o = (options ?? {}) as Record<string, unknown>;
    for (const key of ['use', 'short', 'long'] as const) if (typeof o[key] === 'string') this[key] = o[key] as string;
    if (typeof o.run === 'function') this.run = o.run as Command['run'];
  }
}

/** `$app.rootCmd`: `addCommand(...)` registers custom commands (only while the hook files load). */
export function rootCommand(add: (cmd: Command) => void): object {
  return {
    addCommand: (...cmds: unknown[]) => {
      for (const cmd of cmds) {
        if (!(cmd instanceof Command)) throw new TypeError('addCommand expects a Command');
        add(cmd);
      }
    },
  };
}
