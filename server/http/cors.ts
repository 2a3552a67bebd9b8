// CORS as PocketBase 0.22 configures echo's CORS middleware: origins from `serve --origins`
// (default "*"), methods GET,HEAD,PUT,PATCH,POST,DELETE, the preflight's requested headers echoed
// back, and every OPTIONS answered 204 before routing (preflights carry no auth, so they must never
// reach a guard). An origin entry may hold `*` / `?` wildcards (e.g. https://*.example.com).
import type { FastifyInstance } from 'fastify';
import { setResponseHeader } from './response-headers';

export const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** echo caps the origin length before trying wildcard patterns (253 domain + scheme + port). */
const MAX_PATTERN_ORIGIN = 253 + 3 + 5;

type OriginMatcher = (origin: string) => string | null;

/** What Access-Control-Allow-Origin to answer for a request Origin (null: not allowed). */
function originMatcher(allowed: readonly string[]): OriginMatcher {
  const list = allowed.length ? allowed : ['*'];
  const patterns = list
    .filter((o) => o.includes('*') || o.includes('?'))
    .map((o) => new RegExp(`^${o.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`));
  return (origin) => {
    for (const o of list) {
      if (o === '*') return '*';
      if (o === origin) return o;
    }
    if (origin.length > MAX_PATTERN_ORIGIN || !origin.includes('://')) return null;
    return patterns.some((re) => re.test(origin)) ? origin : null;
  };
}

export function registerCors(app: FastifyInstance, allowedOrigins: readonly string[] = ['*']): void {
  const match = originMatcher(allowedOrigins);
  const wildcard = allowedOrigins.length === 0 || allowedOrigins.includes('*');

  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS';
    setResponseHeader(reply, 'Vary', 'Origin');
    const allow = typeof origin === 'string' && origin !== '' ? match(origin) : wildcard ? '*' : null;
    // Departure from echo: with the default "*" the header is also sent when the request has no
    // Origin (harmless, and what clients that only look at the header expect).
    if (allow) setResponseHeader(reply, 'Access-Control-Allow-Origin', allow);
    if (!preflight) return done();

    if (allow && origin) {
      void reply.header('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      void reply.header('Access-Control-Allow-Methods', CORS_METHODS);
      const requested = req.headers['access-control-request-headers'];
      if (typeof requested === 'string' && requested !== '') void reply.header('Access-Control-Allow-Headers', requested);
    }
    void reply.status(204).send();
  });
}
