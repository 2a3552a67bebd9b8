// `outpost serve [domain(s)]`: PocketBase 0.22's serve command (cmd/serve.go) over createApp, with
// the root flags of its prebuilt executable (public folder, migrations, encryption, dev, query
// timeout); with domains or --https it serves TLS itself (server/http/tls-listeners.ts). SIGTERM
// and SIGINT stop it gracefully (app.shutdown).
import cluster from 'node:cluster';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createApp } from '../app';
import { PROJECT_ROOT } from '../paths';
import { installerHint } from '../services/installer';
import { refreshTypesFile } from '../hooks/types-file';
import { listenTls } from '../http/tls-listeners';
import { SHUTDOWN_GRACE_MS } from '../http/shutdown';
import { LETS_ENCRYPT_DIRECTORY } from '../tls/acme-order';
import type { Certificates } from '../tls/certificates';
import type { CliCommand } from './command';
import { listenAddress, serveAddresses, type ServeAddresses } from './serve-addresses';
import type { ClusterChannel } from '../cluster/channel';
import { createIpcChannel } from '../cluster/ipc-channel';
import { runPrimary } from '../cluster/ipc-primary';
import { connectNatsChannel } from '../cluster/nats-channel';
import { setLeaderSource } from '../cluster/role';

/** More workers than this is a typo (a 2-core machine gains nothing past 2). */
const MAX_WORKERS = 64;
/** Set in the environment of the first worker: it prints the banner. */
const FIRST_WORKER_ENV = 'OUTPOST_FIRST_WORKER';

/** `--origins` as cobra's StringSlice reads it: repeatable, comma-separated. */
function origins(values: unknown): string[] {
  const list = (Array.isArray(values) ? values : []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  return list.length ? list : ['*'];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Starts the web server (default to 127.0.0.1:8090 if no domain is specified)',
  help:
    'Usage:\n  outpost serve [domain(s)] [flags]\n\nExamples:\n  outpost serve --http=0.0.0.0:8090 --dir=./pb_data --origins=https://app.example.com\n' +
    '  outpost serve example.com www.example.com   (TLS with certificates from Let\'s Encrypt, HTTP redirected to HTTPS)',
  options: {
    http: { type: 'string' },
    https: { type: 'string' },
    origins: { type: 'string', multiple: true },
    acmeDirectory: { type: 'string' },
    workers: { type: 'string' },
    natsUrl: { type: 'string' },
  },
  flagHelp: {
    http: 'TCP address to listen for the HTTP server\n(if domain args are specified - default to 0.0.0.0:80, otherwise - default to 127.0.0.1:8090)',
    https:
      'TCP address to listen for the HTTPS server\n(if domain args are specified - default to 0.0.0.0:443, otherwise - default to empty string, aka. no TLS)\n' +
      'The incoming HTTP traffic also will be auto redirected to the HTTPS version',
    origins: 'CORS allowed domain origins list (comma-separated, or the flag repeated) (default [*])',
    acmeDirectory: `the ACME directory the TLS certificates are asked from (default "${LETS_ENCRYPT_DIRECTORY}")`,
    workers:
      'the number of processes serving the same pb_data on the same address, e.g. one per core (default 1);\n' +
      'realtime, settings and collection changes, sign-in limits and cron jobs work across them',
    natsUrl:
      'a NATS server (e.g. nats://127.0.0.1:4222) through which several Outpost instances on the same pb_data\n' +
      'share realtime events, cache invalidation, limits and the leader that runs cron jobs',
  },
  async run({ args, flags, own }) {
    let addresses: ServeAddresses;
    try {
      addresses = serveAddresses(args, str(own.http), str(own.https));
    } catch (err) {
      console.error(`Error: ${(err as Error).message}`);
      return 2;
    }
    const { http } = addresses;
    const address = listenAddress(http);
    if (!address) {
      console.error(`Error: invalid --http address "${http}": use host:port, e.g. 127.0.0.1:8090`);
      return 2;
    }
    const tlsAddress = addresses.https ? listenAddress(addresses.https) : null;
    if (addresses.https && !tlsAddress) {
      console.error(`Error: invalid --https address "${addresses.https}": use host:port, e.g. 0.0.0.0:443`);
      return 2;
    }
    const directoryUrl = str(own.acmeDirectory) || LETS_ENCRYPT_DIRECTORY;
    if (!/^https?:\/\/\S+$/.test(directoryUrl)) {
      console.error(`Error: invalid --acmeDirectory "${directoryUrl}": an ACME directory URL, e.g. ${LETS_ENCRYPT_DIRECTORY}`);
      return 2;
    }
    const workers = own.workers === undefined ? 1 : Number(own.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
      console.error(`Error: invalid --workers "${String(own.workers)}": a whole number from 1 to ${MAX_WORKERS}`);
      return 2;
    }
    if (workers > 1 && tlsAddress) {
      console.error('Error: --workers with TLS (a domain or --https) is not supported yet: run the workers behind a proxy that terminates TLS.');
      return 2;
    }
    const natsUrl = str(own.natsUrl);
    if (natsUrl && !/^(nats|tls|wss?):\/\/\S+$/.test(natsUrl)) {
      console.error(`Error: invalid --natsUrl "${natsUrl}": a NATS server URL, e.g. nats://127.0.0.1:4222`);
      return 2;
    }
    if (workers > 1 && cluster.isPrimary) {
      return runPrimary({
        workers,
        firstEnv: { [FIRST_WORKER_ENV]: '1' },
        onReady: (pids) => console.log(`└─ Workers:   ${workers} processes (pids ${pids.join(', ')})${natsUrl ? `, with other instances through ${natsUrl}` : ''}`),
      });
    }
    // a worker prints the banner when it is the first; the others only their errors
    const quiet = cluster.isWorker && !process.env[FIRST_WORKER_ENV];
    let channel: ClusterChannel | undefined;
    try {
      channel = natsUrl ? await connectNatsChannel(natsUrl, flags.dir) : cluster.isWorker ? createIpcChannel() : undefined;
    } catch (err) {
      console.error(`Error: cannot join the cluster through the NATS server at ${natsUrl}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    if (channel) setLeaderSource(() => channel.isLeader());
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
        cluster: channel,
      });
    } catch (err) {
      await channel?.close();
      console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    // pb_data/types.d.ts for the hook and migration files' editors, as 0.22 writes it once bootstrapped
    refreshTypesFile(dataDir);
    let url: string;
    let certificates: Certificates | null = null;
    const cacheDir = path.join(dataDir, '.autocert_cache');
    try {
      if (tlsAddress) {
        certificates = await listenTls(app, {
          https: tlsAddress,
          http: address,
          hostNames: addresses.hostNames,
          wwwRedirects: addresses.wwwRedirects,
          cacheDir,
          directoryUrl,
        });
        url = addresses.bannerUrl;
      } else {
        url = await app.listen(address.host, address.port);
      }
    } catch (err) {
      await app.close();
      console.error(`Error: cannot listen on ${tlsAddress ? `${http} and ${addresses.https}` : http}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    const log = quiet ? () => undefined : (line: string) => console.log(line);
    log(`Outpost (speaks the PocketBase 0.22 API) is running`);
    log(`├─ REST API:  ${url}/api/`);
    log(`├─ Dashboard: ${url}/_/`);
    if (tlsAddress) {
      log(`├─ HTTPS:     ${addresses.https}, certificates for ${addresses.hostNames.join(', ')} from ${directoryUrl} (kept in ${cacheDir})`);
      log(`├─ HTTP:      ${http} answers the CA's HTTP-01 challenges and redirects to HTTPS`);
    }
    log(`${cluster.isWorker ? '├─' : '└─'} Public:    ${fs.existsSync(publicDir) ? publicDir : `${publicDir} (missing: / sends to the dashboard)`}`);
    if (tlsAddress && !args.length && (net.isIP(tlsAddress.host) || tlsAddress.host === 'localhost')) {
      console.log(
        `\nWarning: --https without a domain asks certificates for "${addresses.hostNames[0]}" only, which no CA issues: ` +
          'name the domains, e.g. `outpost serve example.com --https=0.0.0.0:443`.',
      );
    }
    const hint = installerHint(app.ctx, url);
    if (hint && !quiet) console.log(`\nNo admin exists yet. Create the first one at:\n  ${hint}\n`);

    let stopping = false;
    const stop = async (signal: NodeJS.Signals) => {
      if (stopping) {
        // (a worker gets the group's SIGTERM and its primary's: the second one is no hurry)
        if (cluster.isWorker) return;
        console.error(`${signal} again: stopping at once.`);
        process.exit(1);
      }
      stopping = true;
      console.log(`${signal}: stopping (the requests under way have up to ${SHUTDOWN_GRACE_MS / 1000} s to end)…`);
      try {
        const { inFlight, cut, streams } = await app.shutdown(SHUTDOWN_GRACE_MS);
        certificates?.close();
        await channel?.close();
        console.log(
          `Stopped: ${inFlight} request(s) were under way${cut ? ` (${cut} still running after ${SHUTDOWN_GRACE_MS / 1000} s, cut)` : ''}, ` +
            `${streams} realtime connection(s) ended with a retry hint, the databases closed.`,
        );
        process.exit(0);
      } catch (err) {
        console.error(`Error while stopping: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      }
    };
    // a worker stops on its primary's SIGTERM (a terminal's Ctrl-C reaches it through the primary)
    process.on('SIGINT', cluster.isWorker ? () => undefined : stop);
    process.on('SIGTERM', stop);
    // serves until a signal stops the process
    return new Promise<number>(() => undefined);
  },
};
