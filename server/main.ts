// The `outpost` executable: PocketBase 0.22's commands and flags (server/cli/). Runs from the
// sources (tsx server/main.ts serve) and as the built bundle (dist-server/main.mjs).
import { runCli } from './cli/run';

// A background task that throws must never take the server down.
process.on('unhandledRejection', (reason) => console.error('[unhandledRejection]', reason));

runCli(process.argv.slice(2)).then(
  (code) => {
    // let stdout drain (a pipe is written asynchronously); stop anyway if a handle lingers
    process.exitCode = code;
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (err: unknown) => {
    console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
