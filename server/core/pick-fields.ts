// `?fields=` on every 2xx JSON response, as 0.22's REST serializer applies it: pick paths
// (`id,expand.rel.name`, `*`, `expand.rel.*`), optional `:excerpt(max[,withEllipsis])` on a leaf,
// list envelopes filtered per item. The HTTP layer applies it to responses (http/fields.ts), the
// realtime broadcast to each event's record. The picked value is rebuilt as plain JSON, so (like Go's
// map encoding) every object key comes out alphabetical.
import { badRequest } from './errors';
import { isObject, sortKeysDeep } from '../../src/lib/json';

type Modifier = ((value: unknown) => unknown) | null;
type FieldMap = Map<string, Modifier>;

/** Returns a new value holding only the requested fields; a bad modifier is a 400. */
export function pickFields(data: unknown, rawFields: string): unknown {
  let fields: FieldMap;
  try {
    fields = parseFields(rawFields);
  } catch (err) {
    throw badRequest(undefined, {}, err instanceof Error ? err.message : String(err));
  }
  // round-trip through JSON first so toJSON() implementations and undefined values behave as on the wire
  const json = JSON.stringify(data);
  if (json === undefined) return data;
  const plain: unknown = JSON.parse(json);
  if (isListEnvelope(plain)) pick(plain.items, fields);
  else pick(plain, fields);
  return sortKeysDeep(plain);
}

function isListEnvelope(v: unknown): v is { items: unknown } {
  if (!isObject(v)) return false;
  return ['page', 'perPage', 'totalItems', 'totalPages', 'items'].every((k) => k in v) && Array.isArray(v.items);
}

function pick(data: unknown, fields: FieldMap): void {
  if (isObject(data)) pickObject(data, fields);
  else if (Array.isArray(data) && data.length > 0 && isObject(data[0])) {
    for (const item of data) if (isObject(item)) pickObject(item, fields);
  }
}

const covers = (field: string, key: string) => (field + '.').startsWith(key + '.');

function pickObject(data: Record<string, unknown>, fields: FieldMap): void {
  if (fields.size === 0) return;
  if (fields.has('*')) {
    const star = fields.get('*') ?? null;
    fields = new Map(fields);
    for (const key of Object.keys(data)) {
      if (![...fields.keys()].some((f) => covers(f, key))) fields.set(key, star);
    }
  }
  for (const key of Object.keys(data)) {
    const matching = [...fields].filter(([f]) => covers(f, key));
    if (matching.length === 0) {
      delete data[key];
      continue;
    }
    const nested: FieldMap = new Map();
    let leaf: [string, Modifier] | undefined;
    for (const [f, m] of matching) {
      const rest = (f + '.').slice(key.length + 1).replace(/\.$/, '');
      if (rest === '') {
        leaf = [f, m];
        break;
      }
      nested.set(rest, m);
    }
    if (leaf) {
      if (leaf[1]) data[key] = leaf[1](data[key]);
      continue;
    }
    pick(data[key], nested);
  }
}

// ---- parsing -------------------------------------------------------------------------------

/** `a,b.c:excerpt(10,true)` → {a: null, b.c: excerpt}. Commas inside parentheses or quotes do not split. */
export function parseFields(raw: string): FieldMap {
  const result: FieldMap = new Map();
  for (const item of splitTopLevel(raw)) {
    const trimmed = item.trim();
    if (!trimmed) continue;
    const colon = trimmed.indexOf(':');
    if (colon < 0) result.set(trimmed, null);
    else result.set(trimmed.slice(0, colon), parseModifier(trimmed.slice(colon + 1)));
  }
  return result;
}

function splitTopLevel(raw: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const c of raw) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts;
}

function parseModifier(raw: string): Modifier {
  const tokens = raw.split(/[(),\s]+/).filter(Boolean);
  if (tokens.length === 0) throw new Error(`invalid or empty modifier expression ${JSON.stringify(raw)}`);
  const [name, ...args] = tokens;
  if (name !== 'excerpt') throw new Error(`missing or invalid modifier ${JSON.stringify(name)}`);
  if (args.length === 0) throw new Error('invalid excerpt modifier: max argument is required - expected (max, withEllipsis?)');
  if (args.length > 2) throw new Error('invalid excerpt modifier: too many arguments - expected (max, withEllipsis?)');
  const max = /^[+-]?\d+$/.test(args[0]) ? Number(args[0]) : 0;
  if (max === 0) throw new Error('invalid excerpt modifier: max argument must be > 0');
  const withEllipsis = args.length > 1 && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(args[1]);
  return (value) => (typeof value === 'string' ? excerpt(value, max, withEllipsis) : value);
}

// ---- excerpt -------------------------------------------------------------------------------

/** Elements whose content never makes it into an excerpt. */
const EXCLUDED = new Set(['head', 'style', 'script', 'iframe', 'embed', 'applet', 'object', 'svg', 'img', 'picture', 'dialog', 'template', 'button', 'form', 'textarea', 'input', 'select', 'option']);
/** Elements that do not break words apart; every other element is padded with a space. */
const INLINE = new Set(['a', 'abbr', 'acronym', 'b', 'bdo', 'big', 'br', 'button', 'cite', 'code', 'em', 'i', 'label', 'q', 'small', 'span', 'strong', 'strike', 'sub', 'sup', 'time']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Plain-text excerpt of an HTML string: tags stripped, whitespace collapsed, cut at `max` bytes. */
export function excerpt(html: string, max: number, withEllipsis: boolean): string {
  let out = '';
  let prevSpace = false;
  const space = () => {
    if (!prevSpace) {
      out += ' ';
      prevSpace = true;
    }
  };
  const tagRe = /<!--[\s\S]*?(?:-->|$)|<\/?([a-zA-Z][\w-]*)[^>]*>/g;
  let last = 0;
  let skipUntil: string | null = null;
  const addText = (raw: string) => {
    if (skipUntil || !raw) return;
    let txt = decodeEntities(raw).replace(/[\t\n\f\r ]+/g, ' ');
    if (prevSpace) txt = txt.replace(/^ +/, '');
    if (txt) {
      out += txt;
      prevSpace = txt.endsWith(' ');
    }
  };
  for (let m = tagRe.exec(html); m; m = tagRe.exec(html)) {
    addText(html.slice(last, m.index));
    last = tagRe.lastIndex;
    const name = m[1]?.toLowerCase();
    if (!name) continue; // comment
    const closing = m[0][1] === '/';
    if (skipUntil) {
      if (closing && name === skipUntil) skipUntil = null;
      continue;
    }
    if (EXCLUDED.has(name)) {
      if (!closing && !VOID.has(name) && !m[0].endsWith('/>')) skipUntil = name;
      continue;
    }
    if (!INLINE.has(name)) space();
    if (Buffer.byteLength(out) > max + 2) {
      last = html.length; // enough text for the excerpt
      break;
    }
  }
  addText(html.slice(last));

  let result = out.trim();
  if (Buffer.byteLength(result) > max) {
    result = truncateBytes(result, max).trim();
    if (withEllipsis) result += '...';
  }
  return result;
}

/** The longest prefix of whole characters fitting in `max` UTF-8 bytes. */
function truncateBytes(text: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const c of text) {
    bytes += Buffer.byteLength(c);
    if (bytes > max) break;
    out += c;
  }
  return out;
}
