// `$http.send({url, method = "GET", body, headers, timeout = 120, data})` as 0.22's binds.go has it:
// synchronous for the handler (the exchange runs in the executor's helper thread, ../sync-io.ts),
// an error thrown on a network failure or the timeout but not on a 4xx/5xx answer, and the answer
// as `{statusCode, headers: {Canonical-Key: [values]}, cookies: {name: Cookie}, raw, json}`.
// As Go's default client: redirects followed (at most 10), `content-type: application/json` unless
// one is given (a FormData body sets its multipart type over the caller's), a User-Agent of
// "Go-http-client/1.1", and a gzip answer decompressed when the client asked for it.
import zlib from 'node:zlib';
import { namespace } from '../../../migrations/js-unsupported';
import type { BlockingIo, HttpAnswer } from '../sync-io';
import { Cookie, parseSetCookies } from './cookie';
import { castToString, FormData } from './form-data';
import { goJson } from './go-json';

const MAX_REDIRECTS = 10;
const DEFAULT_TIMEOUT_S = 120;

/** Go's textproto.CanonicalMIMEHeaderKey ("content-type" → "Content-Type"). */
function canonicalHeaderKey(key: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(key)) return key;
  return key.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => dash + ch.toUpperCase());
}

class Headers {
  readonly map = new Map<string, string[]>();

  add(key: string, value: string): void {
    const k = canonicalHeaderKey(key);
    this.map.set(k, [...(this.map.get(k) ?? []), value]);
  }
  set(key: string, value: string): void {
    this.map.set(canonicalHeaderKey(key), [value]);
  }
  get(key: string): string {
    return this.map.get(canonicalHeaderKey(key))?.[0] ?? '';
  }
  del(key: string): void {
    this.map.delete(canonicalHeaderKey(key));
  }
  list(): Array<[string, string]> {
    return [...this.map].flatMap(([k, values]) => values.map((v): [string, string] => [k, v]));
  }
}

interface Request {
  method: string;
  url: string;
  headers: Headers;
  body: Buffer | null;
}

/** The request 0.22 builds from the send() parameters. */
function requestOf(params: Record<string, unknown>): Request {
  const method = (params.method === undefined ? 'GET' : castToString(params.method)).toUpperCase() || 'GET';
  const url = castToString(params.url);
  let body: Buffer | null = null;
  let contentType = '';
  const data = params.data;
  if (data && typeof data === 'object' && Object.keys(data).length) body = Buffer.from(goJson(data));
  else if (params.body instanceof FormData) {
    const mp = params.body.toMultipart();
    body = mp.body;
    contentType = mp.contentType;
  } else body = Buffer.from(castToString(params.body));
  const headers = new Headers();
  if (params.headers && typeof params.headers === 'object') {
    for (const [k, v] of Object.entries(params.headers)) headers.add(k, castToString(v));
  }
  if (contentType) headers.set('content-type', contentType);
  if (!headers.get('content-type')) headers.set('content-type', 'application/json');
  return { method, url, headers, body: body.length ? body : null };
}

/** Go's url.Error text: `Get "url": reason`. */
const urlError = (method: string, url: string, reason: string) => new Error(`${method.charAt(0)}${method.slice(1).toLowerCase()} ${JSON.stringify(url)}: ${reason}`);

function parseUrl(req: Request): URL {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new Error(`parse ${JSON.stringify(req.url)}: invalid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw urlError(req.method, req.url, `unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))}`);
  return url;
}

/** Node's network errors in Go's words where they are common. */
function reasonOf(message: string, url: URL): string {
  const hostPort = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
  if (message.includes('ECONNREFUSED')) return `dial tcp ${hostPort}: connect: connection refused`;
  if (message.includes('ENOTFOUND')) return `dial tcp: lookup ${url.hostname}: no such host`;
  if (message.includes('ECONNRESET') || message === 'socket hang up') return 'EOF';
  return message;
}

function exchange(io: BlockingIo, req: Request, url: URL, deadline: number): HttpAnswer {
  const headers = req.headers.list();
  const length = req.body?.length ?? 0;
  if (length > 0 || ['POST', 'PUT', 'PATCH'].includes(req.method)) headers.push(['Content-Length', String(length)]);
  try {
    return io.http({ kind: 'http', url: url.href, method: req.method, headers, body: req.body, deadline });
  } catch (err) {
    throw urlError(req.method, req.url, reasonOf(err instanceof Error ? err.message : String(err), url));
  }
}

function send(io: BlockingIo, raw: unknown): object {
  const params = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const timeout = Math.trunc(Number(params.timeout)) || 0;
  const deadline = Date.now() + (timeout > 0 ? timeout : DEFAULT_TIMEOUT_S) * 1000;
  const { status, headers, body } = goClientDo(io, requestOf(params), deadline);
  const cookies: Record<string, Cookie> = {};
  for (const c of parseSetCookies(headers['Set-Cookie'] ?? [])) cookies[c.name] = c;
  const text = body.toString('utf8');
  return { statusCode: status, headers, cookies, raw: text, json: jsonOf(text) };
}

/** A GET as Go's default client sends it (`$filesystem.fileFromUrl`): the answer's status and bytes. */
export function goGet(io: BlockingIo, url: string, deadline: number): { status: number; body: Buffer } {
  const { status, body } = goClientDo(io, { method: 'GET', url, headers: new Headers(), body: null }, deadline);
  return { status, body };
}

/** Go's http.Client.Do: its User-Agent, redirects followed, a gzip answer it asked for decompressed. */
function goClientDo(io: BlockingIo, req: Request, deadline: number): { status: number; headers: Record<string, string[]>; body: Buffer } {
  if (!req.headers.get('user-agent')) req.headers.set('User-Agent', 'Go-http-client/1.1');
  const gzip = !req.headers.get('accept-encoding') && !req.headers.get('range') && req.method !== 'HEAD';
  if (gzip) req.headers.set('Accept-Encoding', 'gzip');

  let answer: HttpAnswer;
  let host = parseUrl(req).host;
  for (let redirects = 0; ; redirects++) {
    const url = parseUrl(req);
    answer = exchange(io, req, url, deadline);
    const location = [301, 302, 303, 307, 308].includes(answer.status) ? locationOf(answer) : '';
    if (!location) break;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw urlError(req.method, req.url, `failed to parse Location header ${JSON.stringify(location)}`);
    }
    if (redirects + 1 >= MAX_REDIRECTS) throw urlError(req.method, next.href, `stopped after ${MAX_REDIRECTS} redirects`);
    if (answer.status <= 303 && req.method !== 'GET' && req.method !== 'HEAD') req.method = 'GET';
    if (answer.status <= 303) req.body = null;
    if (next.host !== host) for (const h of ['Authorization', 'Www-Authenticate', 'Cookie', 'Cookie2']) req.headers.del(h);
    host = next.host;
    req.url = next.href;
  }

  const headers: Record<string, string[]> = {};
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
    const k = canonicalHeaderKey(answer.rawHeaders[i]);
    (headers[k] ??= []).push(answer.rawHeaders[i + 1]);
  }
  let body = Buffer.from(answer.body);
  if (gzip && headers['Content-Encoding']?.[0]?.toLowerCase() === 'gzip') {
    try {
      body = zlib.gunzipSync(body);
    } catch {
      /* a body that is not gzip after all: kept as received (Go: io.ReadAll's error is ignored) */
    }
    delete headers['Content-Encoding'];
    delete headers['Content-Length'];
  }
  return { status: answer.status, headers, body };
}

function locationOf(answer: HttpAnswer): string {
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) if (answer.rawHeaders[i].toLowerCase() === 'location') return answer.rawHeaders[i + 1];
  return '';
}

/** 0.22 tries the body as an object, then as an array; anything else is null. */
function jsonOf(text: string): unknown {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

export function httpNamespace(io: BlockingIo): object {
  return namespace('$http', { send: (params: unknown) => send(io, params) });
}
