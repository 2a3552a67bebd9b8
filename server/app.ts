// The app factory: one call builds a server around a data directory, so every test can start
// its own on a temp dir and a free port, and the CLI is a thin wrapper around it.
import fs from 'node:fs';
import http from 'node:http';
import type https from 'node:https';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { openDatabase, type DB } from './db/database';
import { createReadPool } from './db/read-pool';
import { initDataLayout } from './db/layout';
import { initLogsLayout } from './db/logs-layout';
import { createSettingsStore, readStoredSettings } from './services/settings-store';
import { settingsEncryption } from './services/settings-crypto';
import { getCollections } from './collections/store';
import { refusedViews } from './collections/view-secrets';
import type { AppContext, AppOptions, RestartPlan } from './context';
import { registerCore } from './http/core';
import { clientErrorHandler, frameworkErrors, MAX_HEADER_BYTES } from './http/client-errors';
import { registerAuth } from './http/auth';
import { registerReadClients } from './http/read-clients';
import { registerRequestLog } from './http/request-log';
import { registerAudit, registerAuditActor } from './http/audit';
import { startAuditTrail } from './audit/retention';
import { printStatement, registerDevLog } from './http/dev-log';
import { registerAdmins } from './http/admins';
import { registerPermissions } from './http/permissions';
import { registerRoles } from './http/roles';
import { registerSettings } from './http/settings';
import { registerHealth } from './http/health';
import { registerLogs } from './http/logs';
import { registerDashboard } from './http/dashboard';
import { registerPublicDir } from './http/public-dir';
import { registerCollections } from './http/collections';
import { registerRecords } from './http/records';
import { registerRecordsIo } from './http/records-io';
import { registerFindRecord } from './http/find-record';
import { registerMigrations } from './http/migrations';
import { registerHooksInfo } from './http/hooks-info';
import { registerSqlConsole } from './http/sql-console';
import { startMigrations } from './migrations/start';
import { loadHooks, prepareHookFiles, startHooks, type HookGeneration } from './hooks/host';
import { watchHooks } from './hooks/watch';
import { fireAfterBootstrap, fireBeforeBootstrap, fireTerminate, registerHookRoutes } from './http/hook-routes';
import { createStores } from './stores';
import { registerRecordAuth } from './http/record-auth';
import { registerFiles } from './http/files';
import { registerRealtime } from './http/realtime';
import { registerBackups } from './http/backups';
import { registerBackupMigrations } from './http/backup-migrations';
import { startAutoBackups } from './services/backups/cron';
import { databaseSnapshot } from './services/backups/create';
import { recoverDataDir } from './services/backups/swap';
import { sweepTempFiles } from './services/blob-file';
import { localStorageRoot } from './services/storage';
import { registerCors } from './http/cors';
import { registerSecurityHeaders } from './http/security-headers';
import { registerCompression } from './http/compression';
import { endEventStream, refuseWhileStopping, SHUTDOWN_GRACE_MS } from './http/shutdown';
import { registerClusterAcks } from './http/cluster-acks';
import { createClusterSync, type ClusterSync } from './cluster/app-sync';
import { costlyReadLeases } from './cluster/read-leases';
import { currentAuditActor, withoutAuditActor } from './audit/actor';

export interface App {
  fastify: FastifyInstance;
  ctx: AppContext;
  /** The current instance's write connections (for tests, benches and the CLI: modules get stores). */
  db: DB;
  logsDb: DB;
  /** Starts listening; resolves to the base URL, e.g. http://127.0.0.1:8090 */
  listen(host: string, port: number): Promise<string>;
  /** The request listener of every server of the app (serve --https builds its TLS server on it). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** A server of the caller's (the TLS listeners) stopped and closed with the app. */
  adopt(server: http.Server | https.Server): void;
  /**
   * A graceful stop (SIGTERM): no new connection is accepted and a request arriving on an open one
   * is answered 503; the requests under way end (at most `graceMs`), event streams end with a retry
   * hint, then the app closes (hooks' onTerminate, the databases). Resolves to what was cut.
   */
  shutdown(graceMs?: number): Promise<{ inFlight: number; cut: number; streams: number }>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 << 20;

/** How long a hooks reload lets the requests under way end (0.22's graceful shutdown before its restart: 3 s). */
const HOOKS_RELOAD_DRAIN_MS = 3000;

/** A hooks reload: the instance a restart opens takes this generation (null: no hooks) instead of loading the files. */
interface HooksSwap {
  generation: HookGeneration | null;
}

const NO_CHANGE: RestartPlan = { apply: async () => undefined, revert: async () => undefined };

/** The realtime event stream: a reload ends it at once (its client reconnects), as a restart does. */
const isEventStream = (res: http.ServerResponse) => res.req?.method === 'GET' && /^\/api\/realtime(\?|$)/.test(res.req.url ?? '');

const noRouteSchemas = (): never => {
  throw new Error('Routes declare no Fastify schemas: validate with the files in schemas/ (src/lib/schema/ajv.ts).');
};

/** One running application on a data dir: what a restart replaces. */
interface Instance {
  fastify: FastifyInstance;
  ctx: AppContext;
  db: DB;
  logsDb: DB;
  /** Fastify's request handler (the shared HTTP server dispatches to the current instance). */
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** Closes it (`restart`: another instance opens next, for the hooks' onTerminate). */
  close(restart?: boolean): Promise<void>;
}

export async function createApp(options: AppOptions): Promise<App> {
  const dataDir = path.resolve(options.dataDir);
  // finish or roll back a restore a crash interrupted, before any database opens
  recoverDataDir(dataDir);

  let current: Instance;
  let gate: Promise<void> | null = null;
  // The listening server outlives application restarts: requests go to the current instance,
  // and wait while a restart is under way.
  // Responses each instance still has open (event streams): ended when a restart replaces it,
  // as a process restart would, so their clients reconnect to the new instance.
  const responses = new WeakMap<Instance, Set<http.ServerResponse>>();
  const dispatch = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const instance = current;
    let set = responses.get(instance);
    if (!set) responses.set(instance, (set = new Set()));
    const mine = set;
    mine.add(res);
    res.once('close', () => mine.delete(res));
    instance.handler(req, res);
  };
  let stopping = false;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (stopping) refuseWhileStopping(res);
    else if (gate) void gate.then(() => dispatch(req, res));
    else dispatch(req, res);
  };
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handle);
  // malformed requests and oversized headers answered in PocketBase's envelope
  server.on('clientError', clientErrorHandler);
  // every listening server of the app (the TLS listeners of serve --https too)
  const servers: Array<http.Server | https.Server> = [server];

  /** The requests `instance` is answering (event streams aside). */
  const underWay = (instance: Instance) => [...(responses.get(instance) ?? [])].filter((res) => !res.writableFinished && !isEventStream(res));

  /** Waits (up to `ms`) for the requests `instance` is answering to end; event streams are not waited for. */
  async function drain(instance: Instance, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (underWay(instance).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  // --workers / --natsUrl: the other members pause around a restore and reload on changes
  let sync: ClusterSync | null = null;
  const open = async (hooks?: HooksSwap): Promise<Instance> => {
    const instance = await openInstance(options, dataDir, restart, hooks);
    if (sync) instance.ctx.onClose.push(sync.watch(instance.ctx));
    return instance;
  };

  /** `remote`: another member's restore paused this one (it pauses nobody itself). */
  async function restart(plan: RestartPlan, after?: Promise<void>, hooks?: HooksSwap, remote = false): Promise<void> {
    // a restore's request starts it: the new instance (its cron jobs, its hooks' bootstrap) is not that request's
    if (currentAuditActor()) return withoutAuditActor(() => restart(plan, after, hooks, remote));
    if (gate) throw new Error('A restart is already under way.');
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    try {
      await after;
      const previous = current;
      // a hooks reload lets the requests under way end first (new ones wait at the gate)
      if (hooks) await drain(previous, HOOKS_RELOAD_DRAIN_MS);
      // a restore swaps the data dir under every member: they close theirs first
      const resumeOthers = sync && !hooks && !remote ? await sync.pauseOthers() : null;
      try {
        await previous.close(true);
        for (const res of responses.get(previous) ?? []) if (!res.writableFinished) res.destroy();
        try {
          await plan.apply();
          current = await open(hooks);
        } catch (err) {
          await plan.revert();
          current = await open();
          throw err;
        }
      } finally {
        resumeOthers?.();
      }
      await plan.done?.();
    } finally {
      gate = null;
      release();
    }
  }

  if (options.cluster) sync = createClusterSync(options.cluster, () => current.ctx, restart);
  current = await open();
  copyTimeouts(current.fastify, server);

  let closed = false;

  // --hooksWatch: changed hook files are loaded as a new generation while the current one serves;
  // if it loads (and its onAfterBootstrap passes), the app restarts in-process with it (routes
  // change too); if not, the current one keeps serving and the error is logged
  const hooksDir = options.hooksDir;
  const reloadHooks = async (changed: string): Promise<void> => {
    while (gate) await gate;
    const t0 = performance.now();
    const what = path.relative(hooksDir!, changed) || path.basename(changed);
    let generation: HookGeneration | null = null;
    try {
      generation = await loadHooks(current.ctx, current.db, { hooksDir: hooksDir!, pool: options.hooksPool ?? 25, dev: options.dev });
      if (generation) {
        await fireBeforeBootstrap(generation.host);
        await fireAfterBootstrap(generation.host);
      }
    } catch (err) {
      await generation?.host.close();
      console.error(`[pb_hooks] ${what} changed, but the hooks did not load; the previous ones keep running.\n${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const t1 = performance.now();
    try {
      if (closed) return void (await generation?.host.close());
      await restart(NO_CHANGE, undefined, { generation });
    } catch (err) {
      await generation?.host.close();
      console.error(`[pb_hooks] ${what} changed, but the reload failed: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const loaded = generation ? `reloaded ${generation.host.manifest.files.length} hook file(s)` : 'no hook file left, the hooks stopped';
    console.log(`[pb_hooks] ${what} changed: ${loaded} (loaded in ${Math.round(t1 - t0)} ms, requests held ${Math.round(performance.now() - t1)} ms)`);
  };
  const watcher =
    hooksDir && options.hooksWatch ? watchHooks({ dir: hooksDir, reload: reloadHooks, beforeCompare: () => void prepareHookFiles(hooksDir, dataDir) }) : null;

  return {
    get fastify() {
      return current.fastify;
    },
    get ctx() {
      return current.ctx;
    },
    get db() {
      return current.db;
    },
    get logsDb() {
      return current.logsDb;
    },
    async listen(host, port) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host, port }, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const addr = server.address();
      const actualPort = typeof addr === 'object' && addr ? addr.port : port;
      return `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
    },
    handle,
    adopt(other) {
      copyTimeouts(current.fastify, other);
      servers.push(other);
    },
    async shutdown(graceMs = SHUTDOWN_GRACE_MS) {
      if (closed || stopping) return { inFlight: 0, cut: 0, streams: 0 };
      stopping = true;
      for (const s of servers) {
        s.close();
        s.closeIdleConnections();
      }
      while (gate) await gate;
      const instance = current;
      const inFlight = underWay(instance);
      // their connections close once answered
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      await drain(instance, graceMs);
      const streams = [...(responses.get(instance) ?? [])].filter((res) => isEventStream(res) && !res.writableEnded);
      for (const res of streams) endEventStream(res);
      const cut = underWay(instance).length;
      await (this as App).close();
      return { inFlight: inFlight.length, cut, streams: streams.length };
    },
    async close() {
      if (closed) return;
      closed = true;
      watcher?.close();
      await watcher?.reloading;
      await gate;
      sync?.close();
      // close() must not wait for idle keep-alive sockets (tests start and stop many servers).
      for (const s of servers) {
        s.close();
        s.closeAllConnections();
      }
      await current.close();
    },
  };
}

/** The HTTP server takes Fastify's connection timeouts (the instance's own server never listens). */
function copyTimeouts(fastify: FastifyInstance, server: http.Server): void {
  const cfg = fastify.initialConfig as { connectionTimeout?: number; keepAliveTimeout?: number; requestTimeout?: number };
  if (cfg.connectionTimeout) server.setTimeout(cfg.connectionTimeout);
  if (cfg.keepAliveTimeout) server.keepAliveTimeout = cfg.keepAliveTimeout;
  if (cfg.requestTimeout !== undefined) server.requestTimeout = cfg.requestTimeout;
}

async function openInstance(options: AppOptions, dataDir: string, restart: AppContext['restart'], hooks?: HooksSwap): Promise<Instance> {
  fs.mkdirSync(path.join(dataDir, 'storage'), { recursive: true });

  const encryption = settingsEncryption(options.encryptionEnv);
  const db = openDatabase(path.join(dataDir, 'data.db'), options.dev ? printStatement : undefined);
  try {
    // settings the key cannot read stop the start before anything is written (0.22 bootstraps so)
    readStoredSettings(db, encryption);
  } catch (err) {
    db.close();
    throw err;
  }
  initDataLayout(db);
  const logsDb = openDatabase(path.join(dataDir, 'logs.db'));
  initLogsLayout(logsDb);

  const ctx: AppContext = {
    options,
    dataDir,
    ...createStores(db, logsDb),
    reads: createReadPool(path.join(dataDir, 'data.db'), { budgetMs: options.queryTimeoutMs, leases: options.cluster && costlyReadLeases(options.cluster) }),
    logReads: createReadPool(path.join(dataDir, 'logs.db'), { budgetMs: options.queryTimeoutMs, maxSize: 2 }),
    settings: createSettingsStore(db, encryption),
    onClose: [],
    restart,
    hooks: null,
  };

  // pb_migrations applied before anything is served (0.22's serve); a failure stops the start
  let migrationsDir: string;
  try {
    migrationsDir = startMigrations(ctx, db);
  } catch (err) {
    await Promise.all([ctx.reads.close(), ctx.logReads.close()]);
    db.close();
    logsDb.close();
    throw err;
  }

  // pb_hooks loaded before anything is served (0.22 loads them before it bootstraps); a file that
  // fails to load stops the start with its name and line. A reload brings its generation loaded.
  if (options.hooksDir) {
    try {
      ctx.hooks = hooks
        ? (hooks.generation?.start(ctx, db) ?? null)
        : await startHooks(ctx, db, { hooksDir: options.hooksDir, pool: options.hooksPool ?? 25, dev: options.dev });
      // (a reloaded generation fired it before it was swapped in)
      if (ctx.hooks && !hooks) await fireBeforeBootstrap(ctx.hooks);
    } catch (err) {
      await ctx.hooks?.close();
      await Promise.all([ctx.reads.close(), ctx.logReads.close()]);
      db.close();
      logsDb.close();
      throw err;
    }
  }

  let handler: Instance['handler'] = () => undefined;
  // existing views that read secrets are refused now, with a log line (see view-secrets.ts)
  refusedViews(db, getCollections(ctx));

  const fastify = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // the app's listening server lives in createApp (it survives restarts); this one never
    // listens, so the header limit and client errors are set on that one too
    serverFactory: (h) => {
      handler = h;
      return http.createServer();
    },
    clientErrorHandler,
    frameworkErrors,
    // Routes declare no Fastify schemas: requests are validated with schemas/ through our own ajv
    // (the one source of validation rules). Fastify's default compilers would load a second ajv
    // set-up and fast-json-stringify on every start for nothing; a route schema added by mistake
    // fails at start-up instead.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
  });

  registerSecurityHeaders(fastify);
  registerCors(fastify, options.allowedOrigins);
  await registerCompression(fastify);
  registerCore(fastify, ctx);
  registerAuth(fastify, ctx);
  // before every route: each gets its permission for scoped admins (roles)
  registerPermissions(fastify, ctx);
  if (options.cluster) registerClusterAcks(fastify, options.cluster);
  registerReadClients(fastify, ctx);
  registerRequestLog(fastify, ctx);
  registerAuditActor(fastify, ctx);
  if (options.dev) registerDevLog(fastify);
  registerAdmins(fastify, ctx);
  registerRoles(fastify, ctx);
  registerCollections(fastify, ctx);
  registerRecords(fastify, ctx);
  registerRecordsIo(fastify, ctx);
  registerFindRecord(fastify, ctx);
  registerMigrations(fastify, ctx, migrationsDir);
  registerHooksInfo(fastify, ctx);
  registerSqlConsole(fastify, ctx);
  registerRecordAuth(fastify, ctx);
  registerFiles(fastify, ctx);
  registerRealtime(fastify, ctx);
  registerSettings(fastify, ctx);
  registerHealth(fastify, ctx);
  registerLogs(fastify, ctx);
  registerAudit(fastify, ctx);
  startAuditTrail(ctx);
  // backups copy the open databases: the one module besides the stores that gets the connections
  const snapshot = databaseSnapshot(db, logsDb);
  registerBackups(fastify, ctx, snapshot);
  registerBackupMigrations(fastify, ctx, migrationsDir);
  // the hook files' routes come after the built-in ones and before the public folder (0.22's order)
  registerHookRoutes(fastify, ctx);
  registerDashboard(fastify, ctx);
  registerPublicDir(fastify, ctx);
  startAutoBackups(ctx, snapshot);
  // temporaries a crash or a full disk left beside the records' files
  void sweepTempFiles(localStorageRoot(ctx.dataDir)).then((n) => n && console.log(`[storage] removed ${n} unfinished temporary file(s)`));

  await fastify.ready();
  // (a reloaded generation fired it before it was swapped in)
  if (ctx.hooks && !hooks) await fireAfterBootstrap(ctx.hooks);
  let closed = false;
  return {
    fastify,
    ctx,
    db,
    logsDb,
    handler,
    async close(restart = false) {
      if (closed) return;
      closed = true;
      await fastify.close();
      if (ctx.hooks) await fireTerminate(ctx.hooks, restart);
      await ctx.hooks?.close();
      for (const fn of ctx.onClose) await fn();
      await Promise.all([ctx.reads.close(), ctx.logReads.close()]);
      db.close();
      logsDb.close();
    },
  };
}
