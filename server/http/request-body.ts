// The app-wide body parsers. PocketBase 0.22 reads a body only when a handler binds its form, so
// nothing here answers an error: a body that cannot be read becomes an UnreadableBody and the
// handler that reads it answers its own 0.22 "load" message (form-bind.ts), while a handler that
// reads no body ignores it, as 0.22 does. Every parser buffers through Fastify's bodyLimit, so
// JSON, url-encoded, multipart and any other type share one size limit (413 beyond it).
// The records and backups-upload scopes register @fastify/multipart for their files; its
// 'multipart/form-data' parser is found before the pattern registered here, so they keep theirs.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseJsonBody } from '../core/json';
import { multipartBoundary, readMultipartValues } from './multipart-values';
import { FormDecodeError, parseUrlEncoded } from './urlencoded';

/** A form body's text values by name, in Go's request.Form order (see formValues). */
export class FormBody {
  constructor(readonly values: ReadonlyMap<string, readonly string[]>) {}
}

/** A body that could not be read; `reason` goes to the request log only. */
export class UnreadableBody {
  constructor(readonly reason: string) {}
}

/** Go's ParseForm refuses a url-encoded body over 10 MB (before the general limit). */
const MAX_URLENCODED_BYTES = 10 << 20;

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) => {
    const raw = typeof body === 'string' ? body : body.toString('utf8');
    if (raw.trim() === '') req.emptyJsonBody = true;
    try {
      done(null, parseJsonBody(raw));
    } catch (err) {
      done(null, new UnreadableBody(`invalid JSON: ${(err as Error).message}`));
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (req, body, done) => {
    done(null, formBody(req, body as Buffer, 'urlencoded'));
  });
  // a pattern, so that a scope's own 'multipart/form-data' parser (records, backups) wins
  app.addContentTypeParser(/^multipart\/form-data(?:$|[\s;])/i, { parseAs: 'buffer' }, (req, body, done) => {
    done(null, formBody(req, body as Buffer, 'multipart'));
  });
  // 0.22 answers a type it cannot bind only where a form is read (its binder's 400)
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    done(null, (body as Buffer).length === 0 ? undefined : new UnreadableBody(`unsupported Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')}`));
  });
}

/**
 * The values Go's request.Form holds: the body's and the URL query's (url-encoded: the body's
 * first; multipart: the query's first, as ParseMultipartForm appends to what ParseForm read).
 * An empty body binds nothing (0.22 skips binding when Content-Length is 0).
 */
function formBody(req: FastifyRequest, body: Buffer, kind: 'urlencoded' | 'multipart'): FormBody | UnreadableBody | undefined {
  if (body.length === 0) return undefined;
  try {
    const query = req.url.includes('?') ? parseUrlEncoded(req.url.slice(req.url.indexOf('?') + 1)) : [];
    let fromBody: [string, string][];
    if (kind === 'urlencoded') {
      if (body.length > MAX_URLENCODED_BYTES) throw new FormDecodeError('http: POST too large');
      fromBody = parseUrlEncoded(body.toString('utf8'));
    } else {
      fromBody = readMultipartValues(body, multipartBoundary(String(req.headers['content-type'] ?? '')));
    }
    const values = new Map<string, string[]>();
    for (const [key, value] of kind === 'urlencoded' ? [...fromBody, ...query] : [...query, ...fromBody]) {
      const list = values.get(key);
      if (list) list.push(value);
      else values.set(key, [value]);
    }
    return new FormBody(values);
  } catch (err) {
    if (err instanceof FormDecodeError) return new UnreadableBody(err.message);
    throw err;
  }
}
