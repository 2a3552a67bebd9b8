// CLI: `serve --http=127.0.0.1:8090 --dir=./pb_data --origins=https://a.example,https://b.example`
// (PocketBase's flags). Runs from the sources (tsx) and as the built bundle (dist-server/main.mjs).
import path from 'node:path';
import { createApp } from './app';
import { PROJECT_ROOT } from './paths';
import { installerHint } from './services/installer';

function flag(args: string[], name: string, fallback: string): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === `--${name}` && args[i + 1]) return args[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return fallback;
}

/** A string-slice flag as cobra reads it: comma-separated, and the flag may repeat. */
function listFlag(args: string[], name: string): string[] | undefined {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === `--${name}` && args[i + 1] !== undefined) values.push(args[++i]);
    else if (a.startsWith(`--${name}=`)) values.push(a.slice(name.length + 3));
  }
  if (!values.length) return undefined;
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

async function main() {
  const args = process.argv.slice(2);
  const command = args[0] && !args[0].startsWith('--') ? args[0] : 'serve';
  if (command !== 'serve') {
    console.error(`Unknown command "${command}". Usage: serve [--http=127.0.0.1:8090] [--dir=./pb_data] [--origins=*]`);
    process.exit(2);
  }
  const http = flag(args, 'http', '127.0.0.1:8090');
  const dir = flag(args, 'dir', './pb_data');
  const idx = http.lastIndexOf(':');
  const host = idx > 0 ? http.slice(0, idx) : '127.0.0.1';
  const port = Number(idx >= 0 ? http.slice(idx + 1) : http);

  const allowedOrigins = listFlag(args, 'origins') ?? ['*'];

  const app = await createApp({ dataDir: dir, dashboardDir: path.join(PROJECT_ROOT, 'dist'), consoleLog: true, allowedOrigins });
  const url = await app.listen(host, port);
  console.log(`Outpost (speaks the PocketBase 0.22 API) is running`);
  console.log(`├─ REST API:  ${url}/api/`);
  console.log(`└─ Dashboard: ${url}/_/`);
  const hint = installerHint(app.ctx, url);
  if (hint) console.log(`\nNo admin exists yet. Create the first one at:\n  ${hint}\n`);

  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// A background task that throws must never take the server down.
process.on('unhandledRejection', (reason) => console.error('[unhandledRejection]', reason));

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
