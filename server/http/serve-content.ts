// Go's http.ServeContent, which PocketBase 0.22's filesystem.Serve answers record files and
// backups with: Last-Modified and the RFC 7232 preconditions, Range as Go parses it (one range →
// 206 with Content-Range; several → one multipart/byteranges body; ranges adding up to more than
// the file → the whole file; none overlapping → 416 with `bytes */size`), and Content-Length.
// The caller sets the other headers (disposition, type, CSP, cache) first, as Serve does.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseByteRanges, type ByteRange } from './byte-ranges';

export interface ServedContent {
  size: number;
  /** null when unknown: no Last-Modified and no date preconditions. */
  modified: Date | null;
  /** The response's Content-Type, also named by every part of a multipart answer. */
  contentType: string;
  /** The bytes of `range` (inclusive), or all of them. */
  open(range?: ByteRange): Promise<NodeJS.ReadableStream> | NodeJS.ReadableStream;
}

/**
 * `disposition; filename=name` unquoted, as 0.22 writes it. Go sends the name's UTF-8 bytes as
 * they are; Node writes header strings as latin1, so the bytes are handed over as latin1
 * characters. A byte Node refuses in a header (DEL) becomes '_' instead of failing the answer.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const bytes = Buffer.from(name, 'utf8').toString('latin1');
  return `${disposition}; filename=${bytes.replace(/[^\t\x20-\x7e\x80-\xff]/g, '_')}`;
}

export async function serveContent(req: FastifyRequest, reply: FastifyReply, content: ServedContent): Promise<FastifyReply> {
  const modified = content.modified && content.modified.getTime() > 0 ? content.modified : null;
  if (modified) void reply.header('Last-Modified', modified.toUTCString());
  void reply.header('Content-Type', content.contentType);

  const precondition = checkPreconditions(req, modified);
  if (precondition === 412) return reply.status(412).send();
  if (precondition === 304) {
    reply.removeHeader('Content-Type');
    reply.removeHeader('Content-Length');
    return reply.status(304).send();
  }
  const head = req.method === 'HEAD';

  let ranges = parseByteRanges(precondition.range, content.size);
  if (ranges === 'invalid') return rangeError(reply, 'invalid range');
  if (ranges === 'unsatisfiable') {
    // an empty file ignores the range (clients that always send one get the empty 200)
    if (content.size > 0) {
      void reply.header('Content-Range', `bytes */${content.size}`);
      return rangeError(reply, 'invalid range: failed to overlap');
    }
    ranges = [];
  }
  // more bytes asked than the file has: an attack or a confused client, so the whole file
  if (ranges.reduce((sum, r) => sum + r.end - r.start + 1, 0) > content.size) ranges = [];

  void reply.header('Accept-Ranges', 'bytes');
  if (ranges.length === 1) {
    const [range] = ranges;
    void reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${content.size}`)
      .header('Content-Length', String(range.end - range.start + 1));
    return reply.send(head ? undefined : await content.open(range));
  }
  if (ranges.length > 1) {
    const body = multipartBody(content, ranges);
    void reply.status(206).header('Content-Type', body.contentType).header('Content-Length', String(body.length));
    return reply.send(head ? undefined : body.stream);
  }
  void reply.status(200).header('Content-Length', String(content.size));
  if (head) return reply.send();
  return reply.send(content.size === 0 ? '' : await content.open());
}

/** Go's http.Error: a plain-text line. */
function rangeError(reply: FastifyReply, message: string): FastifyReply {
  reply.removeHeader('Content-Length');
  return reply.status(416).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/**
 * The parts as Go's mime/multipart writer lays them out (a 60-hex-digit random boundary; each
 * part's headers in sorted order), with its exact length computed up front for Content-Length.
 */
function multipartBody(content: ServedContent, ranges: ByteRange[]): { contentType: string; length: number; stream: Readable } {
  const boundary = randomBytes(30).toString('hex');
  const heads = ranges.map(
    (r, i) =>
      `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Range: bytes ${r.start}-${r.end}/${content.size}\r\n` +
      `Content-Type: ${content.contentType}\r\n\r\n`,
  );
  const tail = `\r\n--${boundary}--\r\n`;
  const length = [...heads, tail].reduce((n, s) => n + Buffer.byteLength(s), 0) + ranges.reduce((n, r) => n + r.end - r.start + 1, 0);
  async function* parts() {
    for (const [i, range] of ranges.entries()) {
      yield Buffer.from(heads[i]);
      // one range at a time: a client that goes away stops the reads with the generator
      for await (const chunk of await content.open(range)) yield chunk as Buffer;
    }
    yield Buffer.from(tail);
  }
  return { contentType: `multipart/byteranges; boundary=${boundary}`, length, stream: Readable.from(parts(), { objectMode: false }) };
}

// ---------------------------------------------------------------------------------------------
// preconditions (RFC 7232 section 6, in Go's order). No ETag is ever sent, so an entity tag in a
// request never matches; only '*' does.

function checkPreconditions(req: FastifyRequest, modified: Date | null): 304 | 412 | { range: string } {
  const getOrHead = req.method === 'GET' || req.method === 'HEAD';
  let condition = etagCondition(header(req, 'if-match'), 'match');
  if (condition === null) condition = dateCondition(header(req, 'if-unmodified-since'), modified, (m, t) => m <= t);
  if (condition === false) return 412;
  const noneMatch = etagCondition(header(req, 'if-none-match'), 'noneMatch');
  if (noneMatch === false) return getOrHead ? 304 : 412;
  if (noneMatch === null && getOrHead && dateCondition(header(req, 'if-modified-since'), modified, (m, t) => m > t) === false) return 304;

  let range = header(req, 'range');
  if (range && getOrHead && header(req, 'if-range') && !ifRangeHolds(header(req, 'if-range'), modified)) range = '';
  return { range };
}

function header(req: FastifyRequest, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? '';
}

/**
 * If-Match / If-None-Match against a resource without an ETag: null when absent; '*' (reached
 * before a malformed entry) makes If-Match hold and If-None-Match fail; anything else the reverse.
 */
function etagCondition(value: string, kind: 'match' | 'noneMatch'): boolean | null {
  if (!value) return null;
  let rest = value;
  for (;;) {
    rest = rest.trim();
    if (rest === '') break;
    if (rest[0] === ',') {
      rest = rest.slice(1);
      continue;
    }
    if (rest[0] === '*') return kind === 'match';
    const tag = /^(?:W\/)?"[\x21\x23-\x7e\x80-\uffff]*"/.exec(rest);
    if (!tag) break;
    rest = rest.slice(tag[0].length);
  }
  return kind !== 'match';
}

/** A date precondition: null when absent, unparsable or the time unknown; else `holds`. */
function dateCondition(value: string, modified: Date | null, holds: (modifiedSec: number, sinceSec: number) => boolean): boolean | null {
  if (!value || !modified) return null;
  const since = Date.parse(value);
  if (!Number.isFinite(since)) return null;
  // Last-Modified has whole seconds, so the file's time is truncated the same way
  return holds(Math.floor(modified.getTime() / 1000), Math.floor(since / 1000));
}

/** If-Range: a date equal (to the second) to the file's; an entity tag never matches. */
function ifRangeHolds(value: string, modified: Date | null): boolean {
  if (/^(?:W\/)?"/.test(value) || !modified) return false;
  const at = Date.parse(value);
  return Number.isFinite(at) && Math.floor(at / 1000) === Math.floor(modified.getTime() / 1000);
}
