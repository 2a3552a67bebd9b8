// `$apis.staticDirectoryHandler(dir, indexFallback)`: 0.22's handler serving a folder's files for a
// route (`routerAdd("GET", "/assets/*", $apis.staticDirectoryHandler(`${__hooks}/assets`, false))`).
// The files are served by the main thread with pb_public's code (../../http/public-dir.ts): the
// registration carries the folder (registry.ts), so a route without JS middlewares never reaches
// an executor; called from a handler or behind a JS middleware, the handler answers with a marked
// empty response the main thread replaces with the file.
import { STATIC_RESPONSE_HEADER, type StaticRoute } from '../protocol';

const STATIC = Symbol('staticDirectoryHandler');

type Handler = ((c: unknown) => null) & { [STATIC]: StaticRoute };

export function staticDirectoryHandler(dir: unknown, indexFallback: unknown): Handler {
  const route: StaticRoute = { dir: String(dir ?? ''), indexFallback: Boolean(indexFallback) };
  const handler = ((c: unknown) => {
    const ctx = c as { response(): { header(): { set(k: string, v: string): void } }; noContent(status: number): null };
    ctx.response().header().set(STATIC_RESPONSE_HEADER, JSON.stringify(route));
    return ctx.noContent(200);
  }) as Handler;
  handler[STATIC] = route;
  return handler;
}

/** The folder of a staticDirectoryHandler given as a route's handler, else null. */
export const staticRouteOf = (handler: unknown): StaticRoute | null => (typeof handler === 'function' && (handler as Partial<Handler>)[STATIC]) || null;
