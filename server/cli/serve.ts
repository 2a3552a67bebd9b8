// `outpost serve`: PocketBase 0.22's serve command (cmd/serve.go) over createApp, with the root
// flags of its prebuilt executable (public folder, migrations, encryption, dev, query timeout).
import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../app';
import { PROJECT_ROOT } from '../paths';
import { installerHint } from '../services/installer';
import { refreshTypesFile } from '../hooks/types-file';
import type { CliCommand } from './command';

/** `--origins` as cobra's StringSlice reads it: repeatable, comma-separated. */
function origins(values: unknown): string[] {
  const list = (Array.isArray(values) ? values : []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  return list.length ? list : ['*'];
}

/** host:port of `--http` (`:8090` listens on every interface, as Go's net package reads it). */
function listenAddress(value: string): { host: string; port: number } | null {
  const idx = value.lastIndexOf(':');
  if (idx < 0) return null;
  const host = value.slice(0, idx).replace(/^\[(.*)\]$/, '$1') || '0.0.0.0';
  const port = Number(value.slice(idx + 1));
  return Number.isInteger(port) && port >= 0 && port < 65536 && value.slice(idx + 1) !== '' ? { host, port } : null;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Starts the web server (default to 127.0.0.1:8090)',
  help: 'Usage:\n  outpost serve [flags]\n\nExample:\n  outpost serve --http=0.0.0.0:8090 --dir=./pb_data --origins=https://app.example.com',
  options: {
    http: { type: 'string' },
    https: { type: 'string' },
    origins: { type: 'string', multiple: true },
  },
  flagHelp: {
    http: 'TCP address to listen for the HTTP server (default "127.0.0.1:8090")',
    origins: 'CORS allowed domain origins list (comma-separated, or the flag repeated) (default [*])',
  },
  async run({ args, flags, own }) {
    if (args.length) {
      console.error(
        `Error: serve with domain arguments (${args.join(' ')}) is not supported yet: it asks for TLS certificates, and Outpost ` +
          'serves plain HTTP only; put a TLS-terminating proxy in front of it and use --http.',
      );
      return 2;
    }
    const http = typeof own.http === 'string' && own.http !== '' ? own.http : '127.0.0.1:8090';
    const address = listenAddress(http);
    if (!address) {
      console.error(`Error: invalid --http address "${http}": use host:port, e.g. 127.0.0.1:8090`);
      return 2;
    }
    const dataDir = path.resolve(flags.dir);
    const publicDir = path.resolve(flags.publicDir);

    let app;
    try {
      app = await createApp({
        dataDir,
        dashboardDir: path.join(PROJECT_ROOT, 'dist'),
        consoleLog: true,
        allowedOrigins: origins(own.origins),
        queryTimeoutMs: flags.queryTimeout * 1000,
        migrationsDir: flags.migrationsDir || undefined,
        automigrate: flags.automigrate,
        publicDir,
        indexFallback: flags.indexFallback,
        encryptionEnv: flags.encryptionEnv,
        dev: flags.dev,
        hooksDir: flags.hooksDir || path.join(dataDir, '..', 'pb_hooks'),
        hooksPool: flags.hooksPool,
        hooksWatch: flags.hooksWatch,
      });
    } catch (err) {
      console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    // pb_data/types.d.ts for the hook and migration files' editors, as 0.22 writes it once bootstrapped
    refreshTypesFile(dataDir);
    let url: string;
    try {
      url = await app.listen(address.host, address.port);
    } catch (err) {
      await app.close();
      console.error(`Error: cannot listen on ${http}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    console.log(`Outpost (speaks the PocketBase 0.22 API) is running`);
    console.log(`├─ REST API:  ${url}/api/`);
    console.log(`├─ Dashboard: ${url}/_/`);
    console.log(`└─ Public:    ${fs.existsSync(publicDir) ? publicDir : `${publicDir} (missing: / sends to the dashboard)`}`);
    const hint = installerHint(app.ctx, url);
    if (hint) console.log(`\nNo admin exists yet. Create the first one at:\n  ${hint}\n`);

    const stop = async () => {
      await app.close();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // serves until a signal stops the process
    return new Promise<number>(() => undefined);
  },
};
