// The app factory: one call builds a server around a data directory, so every test can start
// its own on a temp dir and a free port, and the CLI is a thin wrapper around it.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { openDatabase } from './db/database';
import { initDataLayout } from './db/layout';
import { initLogsLayout } from './db/logs-layout';
import { createSettingsStore } from './services/settings';
import type { AppContext, AppOptions } from './context';
import { registerCore } from './http/core';
import { registerAuth } from './http/auth';
import { registerRequestLog } from './http/request-log';
import { registerAdmins } from './http/admins';
import { registerSettings } from './http/settings';
import { registerHealth } from './http/health';
import { registerLogs } from './http/logs';
import { registerDashboard } from './http/dashboard';
import { registerCollections } from './http/collections';
import { registerRecords } from './http/records';
import { registerRecordAuth } from './http/record-auth';
import { registerFiles } from './http/files';
import { registerRealtime } from './http/realtime';

export interface App {
  fastify: FastifyInstance;
  ctx: AppContext;
  /** Starts listening; resolves to the base URL, e.g. http://127.0.0.1:8090 */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 32 << 20;

export async function createApp(options: AppOptions): Promise<App> {
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(path.join(dataDir, 'storage'), { recursive: true });

  const db = openDatabase(path.join(dataDir, 'data.db'));
  initDataLayout(db);
  const logsDb = openDatabase(path.join(dataDir, 'logs.db'));
  initLogsLayout(logsDb);

  const ctx: AppContext = {
    options,
    dataDir,
    db,
    logsDb,
    settings: createSettingsStore(db),
    onClose: [],
  };

  const fastify = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    // close() must not wait for idle keep-alive sockets (tests start and stop many servers).
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
  });

  registerCore(fastify, ctx);
  registerAuth(fastify, ctx);
  registerRequestLog(fastify, ctx);
  registerAdmins(fastify, ctx);
  registerCollections(fastify, ctx);
  registerRecords(fastify, ctx);
  registerRecordAuth(fastify, ctx);
  registerFiles(fastify, ctx);
  registerRealtime(fastify, ctx);
  registerSettings(fastify, ctx);
  registerHealth(fastify, ctx);
  registerLogs(fastify, ctx);
  registerDashboard(fastify, ctx);

  let closed = false;
  return {
    fastify,
    ctx,
    async listen(host, port) {
      await fastify.listen({ host, port });
      const addr = fastify.server.address();
      const actualPort = typeof addr === 'object' && addr ? addr.port : port;
      return `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await fastify.close();
      for (const fn of ctx.onClose) await fn();
      db.close();
      logsDb.close();
    },
  };
}
