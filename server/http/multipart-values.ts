// The text values of a multipart/form-data body, read with the rules of Go's mime/multipart
// (what PocketBase 0.22's form binding sees): a preamble before the first boundary and an
// epilogue after the last are skipped, bare-LF line endings are accepted when the first boundary
// line uses them, a part without a form-data name is skipped, a part with a filename is a file
// (left out: no form endpoint outside records and backups takes files), at most 1000 parts and
// 10000 part headers. Anything Go refuses throws FormDecodeError (the caller answers its 400).
// Quoted-printable parts are not decoded (Go would); browsers and SDKs never send them.
import { FormDecodeError } from './urlencoded';

const MAX_PARTS = 1000;
const MAX_HEADERS = 10_000;

/** The boundary parameter of a multipart Content-Type (quoted or not). */
export function multipartBoundary(contentType: string): string {
  const params = parseHeaderParams(contentType);
  const boundary = params?.params.get('boundary');
  if (!params || params.value !== 'multipart/form-data') throw new FormDecodeError('request Content-Type isn\'t multipart/form-data');
  if (!boundary) throw new FormDecodeError('no multipart boundary param in Content-Type');
  return boundary;
}

/** Every text part as [name, value], in body order. */
export function readMultipartValues(body: Buffer, boundary: string): [string, string][] {
  const dash = Buffer.from(`--${boundary}`);
  let nl = Buffer.from('\r\n');
  let pos = 0;
  let partsRead = 0;
  let headerBudget = MAX_HEADERS;
  const values: [string, string][] = [];

  const isFinal = (line: Buffer) => {
    if (!startsWith(line, dash) || line[dash.length] !== 0x2d || line[dash.length + 1] !== 0x2d) return false;
    const rest = skipSpaces(line.subarray(dash.length + 2));
    return rest.length === 0 || rest.equals(nl);
  };
  const isDelimiter = (line: Buffer) => {
    if (!startsWith(line, dash)) return false;
    const rest = skipSpaces(line.subarray(dash.length));
    // the first boundary line decides whether lines end in CRLF or (off-spec, seen in practice) LF
    if (partsRead === 0 && rest.length === 1 && rest[0] === 0x0a) nl = Buffer.from('\n');
    return rest.equals(nl);
  };

  for (;;) {
    let expectNewPart = false;
    for (;;) {
      const end = body.indexOf(0x0a, pos);
      const line = body.subarray(pos, end < 0 ? body.length : end + 1);
      pos = end < 0 ? body.length : end + 1;
      if (end < 0 && isFinal(line)) return values;
      if (end < 0) throw new FormDecodeError('multipart: NextPart: EOF');
      if (isDelimiter(line)) break;
      if (isFinal(line)) return values;
      if (expectNewPart) throw new FormDecodeError('multipart: expecting a new Part');
      if (partsRead === 0) continue; // preamble
      if (line.equals(nl)) {
        expectNewPart = true;
        continue;
      }
      throw new FormDecodeError('multipart: unexpected line in Next()');
    }
    partsRead++;
    if (partsRead > MAX_PARTS) throw new FormDecodeError('multipart: message too large');

    const headers = readHeaders();
    headerBudget -= headers.size;
    if (headerBudget < 0) throw new FormDecodeError('multipart: message too large');
    const bodyEnd = findBoundary(body, pos, dash, nl);
    if (bodyEnd < 0) throw new FormDecodeError('unexpected EOF');
    const content = body.subarray(pos, bodyEnd);
    pos = bodyEnd;

    const disposition = parseHeaderParams(headers.get('content-disposition') ?? '');
    const name = disposition?.value === 'form-data' ? (disposition.params.get('name') ?? '') : '';
    if (name === '' || (disposition?.params.get('filename') ?? '') !== '') continue;
    values.push([name, content.toString('utf8')]);
  }

  /** A part's header block up to its blank line (continuation lines folded, keys lower-cased). */
  function readHeaders(): Map<string, string> {
    const headers = new Map<string, string>();
    let last = '';
    for (;;) {
      const end = body.indexOf(0x0a, pos);
      if (end < 0) throw new FormDecodeError('unexpected EOF');
      const line = body.subarray(pos, end).toString('utf8').replace(/\r$/, '');
      pos = end + 1;
      if (line === '') return headers;
      if (/^[ \t]/.test(line)) {
        if (last === '') throw new FormDecodeError('malformed MIME header initial line');
        headers.set(last, `${headers.get(last)} ${line.trim()}`);
        continue;
      }
      const colon = line.indexOf(':');
      const key = colon < 0 ? '' : line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(key) || hasControlChar(value)) {
        throw new FormDecodeError('malformed MIME header line');
      }
      last = key.toLowerCase();
      // only the first value of a repeated header counts (textproto's Get)
      if (!headers.has(last)) headers.set(last, value);
    }
  }
}

/**
 * Where a part's content ends: the newline before the next `--boundary` that is followed by
 * `--`, a space, a newline or the end of the body (Go's matchAfterPrefix); a part may also be
 * empty with the boundary straight after its headers. -1 when no boundary follows.
 */
function findBoundary(body: Buffer, from: number, dash: Buffer, nl: Buffer): number {
  if (startsWith(body.subarray(from), dash) && boundaryEndsAt(body, from + dash.length)) return from;
  const nlDash = Buffer.concat([nl, dash]);
  for (let at = body.indexOf(nlDash, from); at >= 0; at = body.indexOf(nlDash, at + 1)) {
    if (boundaryEndsAt(body, at + nlDash.length)) return at;
  }
  return -1;
}

function boundaryEndsAt(body: Buffer, i: number): boolean {
  if (i >= body.length) return true;
  const c = body[i];
  if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) return true;
  return c === 0x2d && body[i + 1] === 0x2d;
}

/** Control characters other than tab are not allowed in a header value. */
function hasControlChar(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

function startsWith(buf: Buffer, prefix: Buffer): boolean {
  return buf.length >= prefix.length && buf.subarray(0, prefix.length).equals(prefix);
}

function skipSpaces(buf: Buffer): Buffer {
  let i = 0;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
  return buf.subarray(i);
}

/**
 * A `value; key=param; key="quoted"` header (Go's mime.ParseMediaType, without RFC 2231
 * continuations): the value and parameter names lower-cased; null when malformed.
 */
function parseHeaderParams(header: string): { value: string; params: Map<string, string> } | null {
  const semi = header.indexOf(';');
  const value = (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+(\/[!#$%&'*+\-.^_`|~0-9a-z]+)?$/.test(value)) return null;
  const params = new Map<string, string>();
  let rest = semi < 0 ? '' : header.slice(semi);
  const param = /^\s*;\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+\-.^_`|~0-9A-Za-z]+))/;
  while (rest.trim() !== '' && rest.trim() !== ';') {
    const m = param.exec(rest);
    if (!m) return null;
    const key = m[1].toLowerCase();
    if (params.has(key)) return null;
    params.set(key, m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]);
    rest = rest.slice(m[0].length);
  }
  return { value, params };
}
