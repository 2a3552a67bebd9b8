// `printf` in a template: Go's fmt.Sprintf for the verbs templates use (%v %s %q %d %b %o %x %X %c
// %U %e %E %f %F %g %G %t %%), with flags (+ - # 0 space), width and precision (digits or *), and
// Go's marks for a wrong verb (%!d(string=hi)), a missing argument (%!d(MISSING)) and extra
// arguments (%!(EXTRA int64=1)). Departure: %f / %e / %g also take an integral number (0.22 sees
// one as an int64 and prints %!f(int64=5)).
import { formatValue, goFloat, kindOf, Safe, typeName } from './values';

interface Spec {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  zero: boolean;
  space: boolean;
  width: number | null;
  prec: number | null;
}

const bad = (verb: string, v: unknown) => (v === undefined || v === null ? `%!${verb}(<nil>)` : `%!${verb}(${typeName(v)}=${formatValue(v)})`);

/** strconv.Quote. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0x20 && cp !== 0x7f && /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u.test(ch)) out += ch;
    else if ('\x07\b\f\n\r\t\v'.includes(ch)) out += { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' }[ch];
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** The exponent written as Go writes it: a sign and at least two digits. */
const goExp = (s: string) => s.replace(/e([+-])(\d)$/, 'e$10$2');

function formatFloat(n: number, verb: string, prec: number | null): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const lower = verb.toLowerCase();
  let out: string;
  if (lower === 'f') out = n.toFixed(prec ?? 6);
  else if (lower === 'e') out = goExp(n.toExponential(prec ?? 6));
  else if (prec === null) out = goFloat(n);
  else {
    const p = Math.max(prec, 1);
    const [mant, e] = n.toExponential(p - 1).split('e');
    const exp = Number(e);
    const digits = mant.replace(/^-/, '').replace('.', '').replace(/0+$/, '') || '0';
    const eprec = p > digits.length && digits.length >= exp + 1 ? digits.length : p;
    if (exp < -4 || exp >= eprec) out = goExp(`${n < 0 ? '-' : ''}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${Math.abs(exp)}`);
    else out = String(Number(n.toPrecision(p)));
  }
  return verb === verb.toUpperCase() ? out.toUpperCase().replace('INF', 'Inf').replace('NAN', 'NaN') : out;
}

function formatInt(v: number | bigint, verb: string, spec: Spec): string {
  const n = BigInt(v);
  const neg = n < 0n;
  const abs = neg ? -n : n;
  let digits: string;
  switch (verb) {
    case 'b':
      digits = abs.toString(2);
      break;
    case 'o':
    case 'O':
      digits = (verb === 'O' ? '0o' : spec.sharp ? '0' : '') + abs.toString(8);
      break;
    case 'x':
      digits = (spec.sharp ? '0x' : '') + abs.toString(16);
      break;
    case 'X':
      digits = (spec.sharp ? '0X' : '') + abs.toString(16).toUpperCase();
      break;
    default:
      digits = abs.toString();
  }
  if (spec.prec !== null) digits = digits.padStart(spec.prec, '0');
  return (neg ? '-' : spec.plus ? '+' : spec.space ? ' ' : '') + digits;
}

/** One verb applied to one value (without width padding). */
function formatOne(verb: string, v: unknown, spec: Spec): string | null {
  const kind = kindOf(v);
  const text = typeof v === 'string' ? v : v instanceof Safe ? v.value : null;
  switch (verb) {
    case 'v':
      return kind === 'float' ? formatFloat(v as number, 'g', spec.prec) : formatValue(v);
    case 's':
      if (text !== null) return spec.prec === null ? text : [...text].slice(0, spec.prec).join('');
      if (v instanceof Uint8Array) return Buffer.from(v).toString();
      if (kind === 'slice' || kind === 'map' || kind === 'struct') return formatValue(v);
      return null;
    case 'q':
      if (text !== null) return quote(text);
      if (kind === 'int') return `'${String.fromCodePoint(Number(v))}'`;
      return null;
    case 't':
      return kind === 'bool' ? String(v) : null;
    case 'c':
      return kind === 'int' ? String.fromCodePoint(Number(v)) : null;
    case 'U':
      return kind === 'int' ? `U+${Number(v).toString(16).toUpperCase().padStart(4, '0')}` : null;
    case 'd':
    case 'b':
    case 'o':
    case 'O':
    case 'x':
    case 'X':
      if (kind === 'int') return formatInt(v as number | bigint, verb, spec);
      if ((verb === 'x' || verb === 'X') && text !== null) {
        const hex = Buffer.from(text).toString('hex');
        return verb === 'X' ? hex.toUpperCase() : hex;
      }
      return null;
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      if (kind !== 'float' && kind !== 'int') return null;
      const n = Number(v);
      const out = formatFloat(n, verb, spec.prec);
      return (n >= 0 && !out.startsWith('-') ? (spec.plus ? '+' : spec.space ? ' ' : '') : '') + out;
    }
  }
  return null;
}

function pad(s: string, spec: Spec, numeric: boolean): string {
  if (spec.width === null || [...s].length >= spec.width) return s;
  const fill = spec.width - [...s].length;
  if (spec.minus) return s + ' '.repeat(fill);
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(fill) + s.slice(sign.length);
  }
  return ' '.repeat(fill) + s;
}

export function printf(format: string, args: unknown[]): string {
  let out = '';
  let argi = 0;
  const re = /%([+\-# 0]*)(\*|\d+)?(?:\.(\*|\d*))?(.?)/gsu;
  let last = 0;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    out += format.slice(last, m.index);
    last = re.lastIndex;
    const [, flags, width, prec, verb] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    const spec: Spec = { plus: flags.includes('+'), minus: flags.includes('-'), sharp: flags.includes('#'), zero: flags.includes('0'), space: flags.includes(' '), width: null, prec: null };
    const star = (s: string | undefined): number | null => {
      if (s === undefined || s === '') return s === '' ? 0 : null;
      if (s !== '*') return Number(s);
      const a = args[argi++];
      return kindOf(a) === 'int' ? Number(a) : null;
    };
    spec.width = star(width);
    spec.prec = prec === undefined ? null : star(prec);
    if (spec.width !== null && spec.width < 0) [spec.minus, spec.width] = [true, -spec.width];
    if (!verb) {
      out += '%!(NOVERB)';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const v = args[argi++];
    const s = formatOne(verb, v, spec);
    const numeric = ['d', 'b', 'o', 'O', 'x', 'X', 'e', 'E', 'f', 'F', 'g', 'G'].includes(verb) && (kindOf(v) === 'int' || kindOf(v) === 'float');
    out += s === null ? bad(verb, v) : pad(s, spec, numeric);
  }
  out += format.slice(last);
  if (argi < args.length) out += `%!(EXTRA ${args.slice(argi).map((a) => (a === undefined || a === null ? '<nil>' : `${typeName(a)}=${formatValue(a)}`)).join(', ')})`;
  return out;
}
