// The HTTP side of pb_hooks: the routes hook files add with routerAdd (after the built-in ones, as
// 0.22 adds them), $apis' middlewares checked here as 0.22 checks them, the request snapshot a
// handler's `c` reads, the response it wrote, and errors mapped as 0.22's API maps them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError, badRequest, forbidden, unauthorized } from '../core/errors';
import { findCollection } from '../collections/store';
import { collectionRef } from '../hooks/record-wire';
import type { HookHost } from '../hooks/host';
import { STATIC_RESPONSE_HEADER, type InvocationResult, type MiddlewareRef, type RecordWire, type RequestSnapshot, type RequestWire, type StaticRoute } from '../hooks/protocol';
import { apiErrorOf, invokeSafely } from '../hooks/errors';
import { serveFromFolder, staticFolder, type StaticFolder } from './public-dir';
import { clientAddress } from './client-address';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** The auth record of a request as a hook handler gets it (its collection included). */
function authRecordOf(ctx: AppContext, req: FastifyRequest): RecordWire | null {
  if (req.auth?.kind !== 'authRecord' || !req.auth.record) return null;
  const collection = req.auth.collectionId ? findCollection(ctx, req.auth.collectionId) : undefined;
  return { collection: null, collectionRef: collection ? collectionRef(collection) : undefined, data: { ...req.auth.record }, isNew: false };
}

/**
 * The request as handlers see it, taken once per request and body: a flow's hooks (before, after)
 * see the same request, as 0.22's share one echo context (each executor gets its own copy of the
 * snapshot; none writes to this one). Taken again once the body or the auth state is another
 * (a route that parses its body itself, after routerUse's middlewares saw none).
 */
const snapshots = new WeakMap<FastifyRequest, { body: unknown; auth: unknown; snapshot: RequestWire }>();

export function requestSnapshot(ctx: AppContext, req: FastifyRequest): RequestWire {
  const taken = snapshots.get(req);
  if (taken && taken.body === req.body && taken.auth === req.auth) return taken.snapshot;
  const snapshot = JSON.stringify(takeSnapshot(ctx, req));
  snapshots.set(req, { body: req.body, auth: req.auth, snapshot });
  return snapshot;
}

function takeSnapshot(ctx: AppContext, req: FastifyRequest): RequestSnapshot {
  const query: Record<string, string[]> = {};
  for (const [k, v] of Object.entries((req.query as Record<string, unknown>) ?? {})) query[k] = (Array.isArray(v) ? v : [v]).map(String);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  // (a body the records API could not parse is a marker symbol: none for the handlers, as in 0.22)
  const body = req.body === undefined || typeof req.body === 'symbol' ? null : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : req.body;
  return {
    method: req.method,
    url: req.url,
    path: req.url.split('?')[0],
    params: { ...((req.params as Record<string, string>) ?? {}) },
    query,
    headers,
    body,
    remoteIp: req.ip,
    realIp: clientAddress(ctx, req),
    admin: req.auth?.kind === 'admin' ? (req.auth.admin ?? null) : null,
    authRecord: authRecordOf(ctx, req),
  };
}

/** Sends what a handler wrote; a handler that wrote nothing answers 200 with no body (as echo does). */
export function sendWritten(reply: FastifyReply, result: InvocationResult): FastifyReply {
  const res = result.response;
  if (!res) return reply.status(200).send('');
  reply.status(res.status);
  for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
  if (!res.body) return reply.send('');
  if ('json' in res.body) return reply.type('application/json').send(res.body.json);
  if ('text' in res.body) return reply.send(res.body.text);
  return reply.send(Buffer.from(res.body.bytes));
}

/** $apis' middlewares, with 0.22's answers (apis/middlewares.go). */
function checkBuiltin(ctx: AppContext, req: FastifyRequest, mw: { builtin: string; args: unknown[] }): void {
  const auth = req.auth;
  const collections = mw.args.filter((a): a is string => typeof a === 'string');
  const recordCollection = () => (auth.collectionId ? findCollection(ctx, auth.collectionId)?.name : undefined) ?? '';
  switch (mw.builtin) {
    case 'requireGuestOnly':
      if (auth.kind !== 'guest') throw badRequest('The request can be accessed only by guests.');
      return;
    case 'requireRecordAuth':
      if (auth.kind !== 'authRecord') throw unauthorized('The request requires valid record authorization token to be set.');
      if (collections.length && !collections.includes(recordCollection())) throw forbidden('The authorized record model is not allowed to perform this action.');
      return;
    case 'requireAdminAuth':
      if (auth.kind !== 'admin') throw unauthorized('The request requires valid admin authorization token to be set.');
      return;
    case 'requireAdminAuthOnlyIfAny':
      if (auth.kind !== 'admin' && ctx.admins.count() > 0) throw unauthorized('The request requires valid admin authorization token to be set.');
      return;
    case 'requireAdminOrRecordAuth':
      if (auth.kind === 'guest') throw unauthorized('The request requires admin or record authorization token to be set.');
      if (auth.kind === 'authRecord' && collections.length && !collections.includes(recordCollection())) {
        throw forbidden('The authorized record model is not allowed to perform this action.');
      }
      return;
    case 'requireAdminOrOwnerAuth': {
      if (auth.kind === 'admin') return;
      if (auth.kind !== 'authRecord') throw unauthorized('The request requires admin or record authorization token to be set.');
      const param = collections[0] || 'id';
      if (String(auth.record?.id ?? '') !== (req.params as Record<string, string>)[param]) throw forbidden('You are not allowed to perform this request.');
      return;
    }
    case 'activityLogger':
      req.quietOnSuccess = false;
      return;
    // compression and body limits apply to every route already
    case 'gzip':
    case 'bodyLimit':
      return;
  }
}

/** `$apis.staticDirectoryHandler`'s folder: the file the route's wildcard (`*`) names, served as pb_public serves. */
async function serveStatic(req: FastifyRequest, reply: FastifyReply, folder: StaticFolder): Promise<FastifyReply> {
  const served = await serveFromFolder(req, reply, folder, (req.params as Record<string, string | undefined>)['*'] ?? '');
  if (!served) throw new ApiError(404, 'Not Found.');
  return served;
}

/** echo adds the leading slash 0.22 hook files often leave out (`routerAdd("GET", "hello", ...)`). */
const routePath = (p: string) => (p.startsWith('/') || p.startsWith('*') ? p : `/${p}`);

export function registerHookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hooks = ctx.hooks;
  if (!hooks) return;
  // routerUse: its $apis middlewares are checked for every route; its JS ones run in an executor
  const uses = hooks.manifest.registrations.flatMap((r) => (r.kind === 'use' ? r.middlewares : []));
  const useBuiltins = uses.filter((m): m is { builtin: string; args: unknown[] } => 'builtin' in m);
  const useJs = uses.some((m) => 'js' in m);
  const hookRoutes = new Set<string>();
  // staticDirectoryHandler folders, one per (folder, fallback): each reports a link pointing out once
  const folders = new Map<string, StaticFolder>();
  const folderOf = (route: StaticRoute) => {
    const key = JSON.stringify([route.dir, route.indexFallback]);
    let folder = folders.get(key);
    if (!folder) folders.set(key, (folder = staticFolder(route.dir, route.indexFallback, 'pb_hooks')));
    return folder;
  };

  const methodsOf = (method: string) => (method === '*' ? METHODS : [method]);
  const declared = new Set(hooks.manifest.registrations.flatMap((r) => (r.kind === 'route' ? methodsOf(r.method).map((m) => `${m} ${routePath(r.path)}`) : [])));

  for (const r of hooks.manifest.registrations) {
    if (r.kind !== 'route') continue;
    const methods = methodsOf(r.method);
    const url = routePath(r.path);
    // a staticDirectoryHandler route is served here, unless JS middlewares must run first
    const direct = r.static && !useJs && !r.middlewares.some((m) => 'js' in m) ? folderOf(r.static) : null;
    for (const method of methods) {
      if (!METHODS.includes(method)) {
        console.warn(`[pb_hooks] ${r.file}: routerAdd("${r.method}", "${r.path}") is skipped: unknown method`);
        continue;
      }
      if (app.hasRoute({ method: method as 'GET', url })) {
        console.warn(`[pb_hooks] ${r.file}: routerAdd("${method}", "${r.path}") is skipped: Outpost already serves that route`);
        continue;
      }
      // echo's `/assets/*` also takes `/assets/` (an empty `*`), which the router here, ignoring
      // trailing slashes, sends to `/assets`: that route is added too when free
      const prefix = url.endsWith('/*') && url.length > 2 ? url.slice(0, -2) : null;
      const urls = prefix && !declared.has(`${method} ${prefix}`) && !app.hasRoute({ method: method as 'GET', url: prefix }) ? [url, prefix] : [url];
      for (const u of urls) hookRoutes.add(`${method} ${u}`);
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        // 0.22 logs a custom route's successes only behind $apis.activityLogger (errors always)
        req.quietOnSuccess = true;
        for (const mw of useBuiltins) checkBuiltin(ctx, req, mw);
        for (const mw of r.middlewares as MiddlewareRef[]) if ('builtin' in mw) checkBuiltin(ctx, req, mw);
        if (direct) return serveStatic(req, reply, direct);
        const result = await invokeSafely(() => hooks.route(r.id, requestSnapshot(ctx, req)), `${method} ${r.path}`);
        if (result.outcome === 'error') throw apiErrorOf(result.error);
        const marked = result.response?.headers[STATIC_RESPONSE_HEADER];
        if (marked) {
          // a staticDirectoryHandler the handler (or behind its middlewares) called: its folder's file
          for (const [k, v] of Object.entries(result.response!.headers)) if (k !== STATIC_RESPONSE_HEADER) reply.header(k, v);
          return serveStatic(req, reply, folderOf(JSON.parse(marked) as StaticRoute));
        }
        return sendWritten(reply, result);
      };
      // a pb_hooks route is the project's code, not the dashboard's: full admins only among admins
      for (const u of urls) app.route({ method: method as 'GET', url: u, handler, config: { permission: { full: true } } });
    }
  }

  if (!uses.length) return;
  // every other route: routerUse's middlewares first (one executor call per request when JS ones exist)
  app.addHook('preHandler', async (req, reply) => {
    if (hookRoutes.has(`${req.method} ${req.routeOptions.url ?? ''}`)) return;
    for (const mw of useBuiltins) checkBuiltin(ctx, req, mw);
    if (!useJs) return;
    const result = await invokeSafely(() => hooks.use(requestSnapshot(ctx, req)), 'routerUse');
    if (result.outcome === 'error') throw apiErrorOf(result.error);
    if (!result.proceed) return sendWritten(reply, result);
  });
}

/** onBeforeBootstrap, once the hooks are loaded and before the app is set up; an error stops the start, as in 0.22. */
export const fireBeforeBootstrap = (hooks: HookHost): Promise<void> => fireBootstrap(hooks, 'onBeforeBootstrap');

/** onAfterBootstrap, once the app is ready; an error stops the start, as in 0.22. */
export const fireAfterBootstrap = (hooks: HookHost): Promise<void> => fireBootstrap(hooks, 'onAfterBootstrap');

async function fireBootstrap(hooks: HookHost, name: 'onBeforeBootstrap' | 'onAfterBootstrap'): Promise<void> {
  if (!hooks.has(name)) return;
  const result = await hooks.trigger(name, [], {});
  if (result.outcome === 'error') {
    // the hook file's place, from the stack (as a load error names it)
    const at = /([^\s/()]+\.pb\.[jt]s):(\d+)/.exec(result.error?.stack ?? '');
    throw new Error(`${name} failed${at ? ` (${at[1]}:${at[2]})` : ''}: ${result.error?.message}`);
  }
}

/** onTerminate, as the instance closes (0.22: on a stop signal, and before a restart with isRestart); an error is only printed. */
export async function fireTerminate(hooks: HookHost, isRestart: boolean): Promise<void> {
  if (!hooks.has('onTerminate')) return;
  const result = await invokeSafely(() => hooks.trigger('onTerminate', [], { fields: { isRestart } }), 'onTerminate');
  if (result.outcome === 'error') console.error(`[pb_hooks] onTerminate failed: ${result.error?.message}`);
}
