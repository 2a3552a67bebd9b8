// text/template's built-in functions (funcs.go) over the values of values.ts, with Go's errors
// ("index out of range: 5", "incompatible types for comparison"), plus 0.22's `raw`. `and` and
// `or` are run by exec.ts (they stop at the first deciding argument, as in Go).
import { printf } from './printf';
import { compareStrings, evalArgs, isTrue, kindOf, mapGet, Safe, sprint, sprintln, typeName, type Kind } from './values';

/** A function's error: exec.ts reports it as "error calling NAME: MESSAGE". */
export class FuncError extends Error {}

export interface Builtin {
  fn: (...args: unknown[]) => unknown;
  /** [fixed arguments, variadic]: Go checks the count before the call. */
  arity: [number, boolean];
}

type Basic = 'bool' | 'int' | 'float' | 'string';

function basicKind(v: unknown): Basic | null {
  const k: Kind = kindOf(v);
  return k === 'bool' || k === 'int' || k === 'float' || k === 'string' ? k : null;
}

const textOf = (v: unknown) => (v instanceof Safe ? v.value : String(v));

function eq(a: unknown, ...rest: unknown[]): boolean {
  if (!rest.length) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(a);
  for (const b of rest) {
    const k2 = basicKind(b);
    let truth: boolean;
    if (k1 !== k2) {
      // a nil or missing value compares unequal to anything else, without an error
      const valid = (v: unknown, k: Basic | null) => k !== null || (v !== undefined && v !== null);
      if (valid(a, k1) && valid(b, k2)) throw new FuncError('incompatible types for comparison');
      truth = (a === undefined || a === null) && (b === undefined || b === null);
    } else if (k1 === null) {
      if (a === undefined || a === null || b === undefined || b === null) truth = (a === undefined || a === null) === (b === undefined || b === null);
      else if (typeof a === 'object' && !(a instanceof Safe) && kindOf(a) !== 'struct') throw new FuncError(`non-comparable type ${sprint([a])}: ${typeName(a)}`);
      else truth = a === b;
    } else if (k1 === 'string') truth = textOf(a) === textOf(b);
    else truth = Number(a) === Number(b) || a === b;
    if (truth) return true;
  }
  return false;
}

function lt(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === null || k2 === null) throw new FuncError('invalid type for comparison');
  if (k1 !== k2) throw new FuncError('incompatible types for comparison');
  if (k1 === 'bool') throw new FuncError('invalid type for comparison');
  if (k1 === 'string') return compareStrings(textOf(a), textOf(b)) < 0;
  return Number(a) < Number(b);
}

function toIndex(i: unknown, len: number, what = 'index'): number {
  if (kindOf(i) !== 'int') throw new FuncError(`cannot index slice/array with type ${typeName(i)}`);
  const x = Number(i);
  if (x < 0 || x >= len) throw new FuncError(`${what} out of range: ${x}`);
  return x;
}

function index(item: unknown, ...indices: unknown[]): unknown {
  let v = item;
  for (const i of indices) {
    if (v === null) throw new FuncError('index of nil pointer');
    if (v === undefined) throw new FuncError('index of untyped nil');
    const k = kindOf(v);
    if (k === 'slice' || k === 'string') {
      if (typeof v === 'string' || v instanceof Safe) {
        const bytes = Buffer.from(textOf(v));
        v = bytes[toIndex(i, bytes.length)];
      } else v = (v as ArrayLike<unknown>)[toIndex(i, (v as ArrayLike<unknown>).length)] ?? null;
    } else if (k === 'map') {
      if (i !== undefined && i !== null && kindOf(i) !== 'string') throw new FuncError(`${typeName(i)} is not index type for ${typeName(v)}`);
      const found = mapGet(v as object, i === undefined || i === null ? '' : textOf(i));
      v = found === undefined ? null : found;
    } else throw new FuncError(`can't index item of type ${typeName(v)}`);
  }
  return v;
}

function slice(item: unknown, ...indices: unknown[]): unknown {
  if (item === undefined || item === null) throw new FuncError('slice of untyped nil');
  if (indices.length > 3) throw new FuncError(`too many slice indexes: ${indices.length}`);
  const k = kindOf(item);
  if (k !== 'slice' && k !== 'string') throw new FuncError(`can't slice item of type ${typeName(item)}`);
  const isString = k === 'string';
  if (isString && indices.length === 3) throw new FuncError('cannot 3-index slice a string');
  const seq: ArrayLike<unknown> = isString ? Buffer.from(textOf(item)) : (item as ArrayLike<unknown>);
  const idx = [0, seq.length];
  indices.forEach((x, n) => (idx[n] = toIndex(x, seq.length + 1)));
  if (idx[0] > idx[1]) throw new FuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (isString) return Buffer.from(seq as Buffer).subarray(idx[0], idx[1]).toString();
  return Array.from(seq).slice(idx[0], idx[1]);
}

function length(item: unknown): number {
  if (item === null) throw new FuncError('len of nil pointer');
  if (item === undefined) throw new FuncError('len of untyped nil');
  const k = kindOf(item);
  if (k === 'string') return Buffer.byteLength(textOf(item));
  if (k === 'slice') return (item as ArrayLike<unknown>).length;
  if (k === 'map') return item instanceof Map ? item.size : Object.keys(item as object).length;
  throw new FuncError(`len of type ${typeName(item)}`);
}

function call(fn: unknown, ...args: unknown[]): unknown {
  if (typeof fn !== 'function') throw new FuncError(`non-function ${fn === undefined || fn === null ? '<nil>' : sprint([fn])} of type ${typeName(fn)}`);
  return (fn as (...a: unknown[]) => unknown)(...args) ?? null;
}

const HTML_ESCAPES: Record<string, string> = { '\0': '\ufffd', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const JS_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '"': '\\"', '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', '=': '\\u003D' };

function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (JS_ESCAPES[ch]) out += JS_ESCAPES[ch];
    else if (cp < 0x20) out += `\\u00${cp.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (cp >= 0x7f && !/^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u.test(ch)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** url.QueryEscape. */
const queryEscape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

export const BUILTINS: Record<string, Builtin> = {
  call: { fn: call, arity: [1, true] },
  html: { fn: (...args) => evalArgs(args).replace(/[\0"'&<>]/g, (c) => HTML_ESCAPES[c]), arity: [0, true] },
  index: { fn: index, arity: [1, true] },
  slice: { fn: slice, arity: [1, true] },
  js: { fn: (...args) => jsEscape(evalArgs(args)), arity: [0, true] },
  len: { fn: length, arity: [1, false] },
  not: { fn: (a) => !isTrue(a), arity: [1, false] },
  print: { fn: (...args) => sprint(args), arity: [0, true] },
  printf: { fn: (format, ...args) => printf(String(textOf(format)), args), arity: [1, true] },
  println: { fn: (...args) => sprintln(args), arity: [0, true] },
  urlquery: { fn: (...args) => queryEscape(evalArgs(args)), arity: [0, true] },
  eq: { fn: eq, arity: [1, true] },
  ne: { fn: (a, b) => !eq(a, b), arity: [2, false] },
  lt: { fn: (a, b) => lt(a, b), arity: [2, false] },
  le: { fn: (a, b) => lt(a, b) || eq(a, b), arity: [2, false] },
  gt: { fn: (a, b) => !(lt(a, b) || eq(a, b)), arity: [2, false] },
  ge: { fn: (a, b) => !lt(a, b), arity: [2, false] },
  // 0.22's registry adds it: the value is written as HTML, unescaped
  raw: { fn: (s) => new Safe('HTML', textOf(s ?? '')), arity: [1, false] },
};

/** `and` / `or` take at least one argument; exec.ts evaluates them lazily. */
export const LAZY = new Set(['and', 'or']);
