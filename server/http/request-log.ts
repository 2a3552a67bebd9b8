// Logs every request to logs.db as PocketBase 0.22 does (apis/middlewares.go logRequest). The
// entry is built in onResponse, after the reply went out, and only queued: the batch writer
// does the database work later, so logging can neither slow nor fail a request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { LOG_LEVELS, newLogId, startRequestLogs } from '../services/request-log';
import { clientAddress, socketAddress } from './client-address';

export function registerRequestLog(app: FastifyInstance, ctx: AppContext): void {
  const writer = startRequestLogs(ctx);
  // the log entry's id is the request's id from its start (the audit trail names it)
  app.addHook('onRequest', (req, _reply, done) => {
    req.logId = newLogId();
    done();
  });
  app.addHook('onResponse', async (req, reply) => {
    try {
      const entry = buildRequestLogEntry(ctx, req, reply);
      if (entry) writer.add(entry);
    } catch (err) {
      console.error('[logs] failed to build a request log entry:', err);
    }
  });
}

/** Successful requests to these are not logged (PocketBase's SkipSuccessActivityLog routes). */
function isQuietOnSuccess(method: string, path: string): boolean {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const under = (prefix: string) => p === prefix || p.startsWith(prefix + '/');
  return (
    under('/api/logs') ||
    under('/api/health') ||
    (method === 'GET' && under('/api/realtime')) ||
    under('/api/oauth2-redirect') ||
    under('/_')
  );
}

function buildRequestLogEntry(ctx: AppContext, req: FastifyRequest, reply: FastifyReply) {
  const method = req.method.toUpperCase();
  const url = req.url;
  const path = url.split('?')[0];
  const status = reply.statusCode;
  const failure = req.failure ?? (status >= 400 ? { message: '' } : undefined);
  if (!failure && (req.quietOnSuccess || isQuietOnSuccess(method, path))) return null;

  const data: Record<string, unknown> = {
    type: 'request',
    // ms with nanosecond precision at most, like 0.22's float64(duration)/float64(time.Millisecond)
    execTime: Math.round(reply.elapsedTime * 1e6) / 1e6,
    url,
    method,
    status,
    auth: req.auth?.kind ?? 'guest',
    referer: header(req, 'referer'),
    userAgent: header(req, 'user-agent'),
  };
  if (failure) {
    data.error = failure.message;
    data.details = failure.details ?? null;
  }
  if (ctx.settings.get().logs.logIp) {
    // 0.22's pair: the socket's peer, and the client as resolved (trusted proxy headers only)
    data.userIp = clientAddress(ctx, req);
    data.remoteIp = socketAddress(req);
  }
  return {
    id: req.logId,
    level: failure ? LOG_LEVELS.error : LOG_LEVELS.info,
    message: `${method} ${unescapePath(url)}`,
    data,
  };
}

function header(req: FastifyRequest, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

/** Go's url.PathUnescape: %XX decoded (a malformed escape keeps the raw text). */
function unescapePath(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
