// `c`, the route context a 0.22 route handler and `e.httpContext` get (echo's Context): the
// request as the main thread saw it, the auth state under "admin" and "authRecord", and the
// methods that write the response, which the main thread then sends.
import type { RequestSnapshot, ResponseSnapshot } from '../protocol';
import { recordFromWire } from '../models-wire';
import { Admin } from '../../migrations/js-models';

type Data = Record<string, unknown>;

export interface RouteContext {
  [key: string]: unknown;
  /** The response a handler wrote (null: none yet). */
  readonly written: () => ResponseSnapshot | null;
}

function header(headers: Record<string, string>) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    get: (name: string) => lower[String(name).toLowerCase()] ?? '',
    values: (name: string) => (lower[String(name).toLowerCase()] === undefined ? [] : [lower[String(name).toLowerCase()]]),
  };
}

const SNAPSHOT = Symbol('request snapshot');

/**
 * `$apis.requestInfo(c)`: 0.22's RequestInfo of the request (headers with lower-case, snake_case
 * names; data: the parsed body; the signed-in admin or record).
 */
export function requestInfoOf(c: unknown): Record<string, unknown> {
  const ctx = c as RouteContext & { [SNAPSHOT]?: RequestSnapshot };
  const req = ctx?.[SNAPSHOT];
  if (!req) throw new Error('requestInfo expects the route context (c)');
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase().replace(/-/g, '_'), v]));
  const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, v[0] ?? '']));
  const data = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
  const get = ctx.get as (key: string) => unknown;
  return { context: 'default', query, data, headers, method: req.method, authRecord: get('authRecord'), admin: get('admin') };
}

export function routeContext(req: RequestSnapshot): RouteContext {
  let written: ResponseSnapshot | null = null;
  /** The status of a body written piece by piece (c.response().writeHeader). */
  let rawStatus = 200;
  const responseHeaders: Record<string, string> = {};
  const store = new Map<string, unknown>();
  if (req.admin) {
    const admin = new Admin(req.admin);
    admin.markAsNotNew();
    store.set('admin', admin);
  }
  if (req.authRecord) store.set('authRecord', recordFromWire(req.authRecord));

  const write = (status: unknown, body: ResponseSnapshot['body'], type?: string): null => {
    if (written) throw new Error('the response was already written');
    const headers = { ...responseHeaders };
    if (type && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = type;
    written = { status: Number(status) || 200, headers, body };
    return null;
  };
  const query = req.query;
  const first = (name: string) => query[String(name)]?.[0] ?? '';
  const url = new URL(req.url, 'http://localhost');

  const request = {
    method: req.method,
    url: { path: req.path, rawQuery: url.search.slice(1), query: () => ({ get: first, has: (k: string) => String(k) in query }), string: () => req.url },
    header: header(req.headers),
    host: req.headers.host ?? '',
    remoteAddr: req.remoteIp,
    body: typeof req.body === 'string' ? req.body : req.body === null || req.body === undefined ? '' : JSON.stringify(req.body),
  };

  const c: RouteContext & { [SNAPSHOT]: RequestSnapshot } = {
    [SNAPSHOT]: req,
    written: () => written,
    request: () => request,
    response: () => ({
      header: () => ({
        set: (k: string, v: unknown) => void (responseHeaders[String(k)] = String(v)),
        get: (k: string) => responseHeaders[String(k)] ?? '',
        add: (k: string, v: unknown) => void (responseHeaders[String(k)] = String(v)),
        del: (k: string) => void delete responseHeaders[String(k)],
      }),
      get committed() {
        return written !== null;
      },
      // echo's Response as an io.Writer: the status first (200 unless writeHeader said otherwise),
      // then every write appended to the body
      writeHeader: (code: unknown) => {
        if (!written) rawStatus = Number(code) || 200;
      },
      write: (data: unknown) => {
        const chunk = data instanceof Uint8Array ? data : Array.isArray(data) ? Uint8Array.from(data as number[]) : new TextEncoder().encode(String(data ?? ''));
        if (!written) written = { status: rawStatus, headers: { ...responseHeaders }, body: { bytes: new Uint8Array(0) } };
        const body = written.body as { bytes?: Uint8Array } | null;
        if (!body?.bytes) throw new Error('the response was already written');
        const merged = new Uint8Array(body.bytes.length + chunk.length);
        merged.set(body.bytes);
        merged.set(chunk, body.bytes.length);
        body.bytes = merged;
        return chunk.length;
      },
    }),
    path: () => req.path,
    pathParam: (name: string) => req.params[String(name)] ?? '',
    pathParamDefault: (name: string, fallback: string) => req.params[String(name)] || fallback,
    pathParams: () => ({ ...req.params }),
    queryParam: (name: string) => first(name),
    queryParamDefault: (name: string, fallback: string) => first(name) || fallback,
    queryParams: () => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [...v]])),
    queryString: () => url.search.slice(1),
    formValue: (name: string) => {
      const body = req.body;
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        const v = (body as Data)[String(name)];
        return Array.isArray(v) ? String(v[0] ?? '') : v === undefined || v === null ? '' : String(v);
      }
      return '';
    },
    realIP: () => req.realIp,
    scheme: () => 'http',
    get: (key: string) => store.get(String(key)) ?? null,
    set: (key: string, value: unknown) => void store.set(String(key), value),
    /** Fills `target` from the JSON or form body (0.22's c.bind into a DynamicModel or object). */
    bind(target: unknown) {
      if (typeof target !== 'object' || target === null) throw new Error('bind expects an object');
      const body = req.body;
      if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(target, body);
      return null;
    },
    json: (status: unknown, value: unknown) => write(status, { json: value === undefined ? null : JSON.parse(JSON.stringify(value)) }, 'application/json'),
    jsonPretty: (status: unknown, value: unknown) => write(status, { json: value === undefined ? null : JSON.parse(JSON.stringify(value)) }, 'application/json'),
    string: (status: unknown, text: unknown) => write(status, { text: String(text ?? '') }, 'text/plain; charset=UTF-8'),
    html: (status: unknown, text: unknown) => write(status, { text: String(text ?? '') }, 'text/html; charset=UTF-8'),
    blob: (status: unknown, type: unknown, bytes: unknown) =>
      write(status, { bytes: bytes instanceof Uint8Array ? bytes : Uint8Array.from(Array.isArray(bytes) ? (bytes as number[]) : Buffer.from(String(bytes ?? ''))) }, String(type)),
    noContent: (status: unknown) => write(status ?? 204, null),
    redirect: (status: unknown, location: unknown) => {
      responseHeaders.location = String(location ?? '');
      return write(status, null);
    },
  };
  return c;
}
