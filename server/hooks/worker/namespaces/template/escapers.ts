// html/template's escapers (html.go, js.go, css.go, url.go): what an action's value becomes in
// each context, with Go's replacement tables, so the output matches 0.22's byte for byte. Typed
// content (`raw` gives HTML) passes through in its own context.
import { goJson } from '../go-json';
import { attrType } from './context';
import { stripTags } from './transition';
import { Safe, sprint } from './values';

type Table = Record<string, string>;

const HTML: Table = { '\0': '\ufffd', '"': '&#34;', '&': '&amp;', "'": '&#39;', '+': '&#43;', '<': '&lt;', '>': '&gt;' };
const HTML_NORM: Table = { '\0': '\ufffd', '"': '&#34;', "'": '&#39;', '+': '&#43;', '<': '&lt;', '>': '&gt;' };
const NOSPACE_NORM: Table = { '\0': '&#xfffd;', '\t': '&#9;', '\n': '&#10;', '\v': '&#11;', '\f': '&#12;', '\r': '&#13;', ' ': '&#32;', '"': '&#34;', "'": '&#39;', '+': '&#43;', '<': '&lt;', '=': '&#61;', '>': '&gt;', '`': '&#96;' };
const NOSPACE: Table = { ...NOSPACE_NORM, '&': '&amp;' };

const JS_STR_NORM: Table = { '"': '\\u0022', '`': '\\u0060', '&': '\\u0026', "'": '\\u0027', '+': '\\u002b', '/': '\\/', '<': '\\u003c', '>': '\\u003e' };
const JS_STR: Table = { ...JS_STR_NORM, '\\': '\\\\' };
const JS_BQ_STR: Table = { ...JS_STR, $: '\\u0024', '{': '\\u007b', '}': '\\u007d' };
const JS_REGEXP: Table = {
  '"': '\\u0022', $: '\\$', '&': '\\u0026', "'": '\\u0027', '(': '\\(', ')': '\\)', '*': '\\*', '+': '\\u002b', '-': '\\-', '.': '\\.', '/': '\\/',
  '<': '\\u003c', '>': '\\u003e', '?': '\\?', '[': '\\[', '\\': '\\\\', ']': '\\]', '^': '\\^', '{': '\\{', '|': '\\|', '}': '\\}',
};
const JS_LOW: Table = { '\t': '\\t', '\n': '\\n', '\v': '\\u000b', '\f': '\\f', '\r': '\\r' };
const CSS: Table = {
  '\0': '\\0', '\t': '\\9', '\n': '\\a', '\f': '\\c', '\r': '\\d', '"': '\\22', '&': '\\26', "'": '\\27', '(': '\\28', ')': '\\29', '+': '\\2b',
  '/': '\\2f', ':': '\\3a', ';': '\\3b', '<': '\\3c', '>': '\\3e', '\\': '\\\\', '{': '\\7b', '}': '\\7d',
};

const FAILSAFE = 'ZgotmplZ';

/** html/template's stringify: one string or typed value as is, else fmt.Sprint of the non-nil arguments. */
function stringify(args: unknown[]): [string, Safe['type'] | 'plain'] {
  if (args.length === 1) {
    const a = args[0];
    if (typeof a === 'string') return [a, 'plain'];
    if (a instanceof Safe) return [a.value, a.type];
  }
  return [sprint(args.filter((a) => a !== null && a !== undefined)), 'plain'];
}

function htmlReplace(s: string, table: Table, badRunes: boolean): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (table[ch] !== undefined) out += table[ch];
    else if (!badRunes && ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp >= 0xfff0 && cp <= 0xffff))) out += `&#x${cp.toString(16)};`;
    else out += ch;
  }
  return out;
}

function jsReplace(s: string, table: Table): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20) out += JS_LOW[ch] ?? `\\u${cp.toString(16).padStart(4, '0')}`;
    else if (table[ch] !== undefined) out += table[ch];
    else if (cp === 0x2028 || cp === 0x2029) out += `\\u${cp.toString(16)}`;
    else out += ch;
  }
  return out;
}

const isJsIdentPart = (ch: string | undefined) => !!ch && /[$0-9A-Z_a-z]/.test(ch);

function jsValEscaper(args: unknown[]): string {
  let a: unknown;
  if (args.length === 1) {
    a = args[0];
    if (a instanceof Safe && a.type === 'JS') return a.value;
    if (a instanceof Safe && a.type === 'JSStr') return `"${a.value}"`;
    if (a instanceof Safe) a = a.value;
    else if (a instanceof Error) a = a.message;
  } else a = sprint(args);
  let json: string;
  try {
    if (typeof a === 'function') throw new Error('json: unsupported type: func()');
    if (typeof a === 'number' && !Number.isFinite(a)) throw new Error(`json: unsupported value: ${a}`);
    json = a === undefined ? 'null' : goJson(a);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(/\*\//g, '* /').replace(/<\/script/g, '\\x3C/script').replace(/<!--/g, '\\x3C!--');
    return ` /* ${message} */null `;
  }
  if (!json.length) return ' null ';
  const pad = isJsIdentPart(json[0]) || isJsIdentPart(json[json.length - 1]);
  return pad ? ` ${json} ` : json;
}

function cssEscaper(args: unknown[]): string {
  const [s] = stringify(args);
  let out = '';
  const chars = [...s];
  chars.forEach((ch, i) => {
    const repl = CSS[ch];
    if (repl === undefined) return void (out += ch);
    out += repl;
    const next = chars[i + 1];
    if (repl !== '\\\\' && (next === undefined || /[0-9a-fA-F\t\n\f\r ]/.test(next))) out += ' ';
  });
  return out;
}

function cssValueFilter(args: unknown[]): string {
  const [s, t] = stringify(args);
  if (t === 'CSS') return s;
  const decoded = s.replace(/\\([0-9a-fA-F]{1,6})[\t\n\f ]?|\\(.)/g, (_m, hex: string | undefined, ch: string | undefined) => (hex ? String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)) : ch!));
  let id = '';
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded[i];
    if ('\0"\'()/;@[\\]`{}'.includes(c)) return FAILSAFE;
    if (c === '-' && i !== 0 && decoded[i - 1] === '-') return FAILSAFE;
    if (/[A-Za-z0-9_-]/.test(c)) id += c;
  }
  id = id.toLowerCase();
  return id.includes('expression') || id.includes('mozbinding') ? FAILSAFE : decoded;
}

/** A relative URL, or one with an http, https or mailto scheme. */
function isSafeUrl(s: string): boolean {
  const colon = s.indexOf(':');
  if (colon < 0) return true;
  const protocol = s.slice(0, colon);
  return protocol.includes('/') || ['http', 'https', 'mailto'].includes(protocol.toLowerCase());
}

/** Percent-encodes a URL (norm: keeps the reserved characters and valid escapes). */
function processUrl(s: string, norm: boolean): string {
  const bytes = Buffer.from(s);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    const ch = String.fromCharCode(c);
    if (norm && "!#$&*+,/:;=?@[]".includes(ch)) out += ch;
    else if (/[-._~a-zA-Z0-9]/.test(ch) && c < 0x80) out += ch;
    else if (ch === '%' && norm && /^[0-9a-fA-F]{2}$/.test(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0))) out += ch;
    else out += `%${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function urlProcessor(norm: boolean, args: unknown[]): string {
  const [s, t] = stringify(args);
  return processUrl(s, norm || t === 'URL');
}

function srcsetEscaper(args: unknown[]): string {
  const [s, t] = stringify(args);
  if (t === 'Srcset') return s;
  if (t === 'URL') return processUrl(s, true).replace(/,/g, '%2c');
  return s
    .split(',')
    .map((part) => {
      const m = /^([\t\n\f\r ]*)(\S*)([\s\S]*)$/.exec(part)!;
      const [, lead, url, meta] = m;
      if (isSafeUrl(url) && /^[\t\n\f\r 0-9A-Za-z]*$/.test(meta)) return lead + processUrl(url, true) + meta;
      return `#${FAILSAFE}`;
    })
    .join(',');
}

function htmlNameFilter(args: unknown[]): string {
  const [raw, t] = stringify(args);
  if (t === 'HTMLAttr') return raw;
  if (!raw.length) return FAILSAFE;
  const s = raw.toLowerCase();
  if (attrType(s) !== 'plain' || !/^[0-9a-z]+$/.test(s)) return FAILSAFE;
  return s;
}

export type Escaper = (args: unknown[]) => string;

/** The escapers by the names escapersFor (context.ts) gives. */
export const ESCAPERS: Record<string, Escaper> = {
  htmlescaper: (args) => {
    const [s, t] = stringify(args);
    return t === 'HTML' ? s : htmlReplace(s, HTML, true);
  },
  attrescaper: (args) => {
    const [s, t] = stringify(args);
    return t === 'HTML' ? htmlReplace(stripTags(s), HTML_NORM, true) : htmlReplace(s, HTML, true);
  },
  rcdataescaper: (args) => {
    const [s, t] = stringify(args);
    return htmlReplace(s, t === 'HTML' ? HTML_NORM : HTML, true);
  },
  nospaceescaper: (args) => {
    const [s, t] = stringify(args);
    // an empty unquoted value would take the next attribute as its own
    if (s === '') return FAILSAFE;
    return t === 'HTML' ? htmlReplace(stripTags(s), NOSPACE_NORM, false) : htmlReplace(s, NOSPACE, false);
  },
  htmlnamefilter: htmlNameFilter,
  commentescaper: () => '',
  jsvalescaper: jsValEscaper,
  jsstrescaper: (args) => {
    const [s, t] = stringify(args);
    return jsReplace(s, t === 'JSStr' ? JS_STR_NORM : JS_STR);
  },
  jstmpllitescaper: (args) => jsReplace(stringify(args)[0], JS_BQ_STR),
  jsregexpescaper: (args) => jsReplace(stringify(args)[0], JS_REGEXP) || '(?:)',
  cssescaper: cssEscaper,
  cssvaluefilter: cssValueFilter,
  urlfilter: (args) => {
    const [s, t] = stringify(args);
    return t === 'URL' || isSafeUrl(s) ? s : `#${FAILSAFE}`;
  },
  urlnormalizer: (args) => urlProcessor(true, args),
  urlescaper: (args) => urlProcessor(false, args),
  srcsetescaper: srcsetEscaper,
};

/** Escapers whose output the next one would leave unchanged (Go's redundantFuncs). */
export const REDUNDANT: Record<string, string[]> = {
  commentescaper: ['attrescaper', 'htmlescaper'],
  cssescaper: ['attrescaper'],
  jsregexpescaper: ['attrescaper'],
  jsstrescaper: ['attrescaper'],
  urlescaper: ['urlnormalizer'],
};

/** Contextual escapers equivalent to a predefined one (`html`, `urlquery`) ending a pipeline. */
export const EQUIVALENT: Record<string, string> = { attrescaper: 'html', htmlescaper: 'html', rcdataescaper: 'html', urlescaper: 'urlquery', urlnormalizer: 'urlquery' };
