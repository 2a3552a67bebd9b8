// How a template sees the JS values a handler passes to render(data): as 0.22's goja hands them to
// Go (an object is a map[string]interface {}, an array a []interface {}, an integral number an
// int64, another number a float64, null a nil interface), with Go's truth, printing (fmt.Sprint)
// and type names in messages. `undefined` stands for Go's missing value (a map key that is absent).

/** Typed content that skips escaping in its own context: `raw` returns HTML (template.HTML). */
export class Safe {
  constructor(
    readonly type: 'HTML' | 'CSS' | 'JS' | 'JSStr' | 'URL' | 'Srcset' | 'HTMLAttr',
    readonly value: string,
  ) {}
}

export type Kind = 'invalid' | 'nil' | 'string' | 'bool' | 'int' | 'float' | 'slice' | 'map' | 'func' | 'struct';

const INT_LIMIT = 2 ** 63;

export const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

export function kindOf(v: unknown): Kind {
  if (v === undefined) return 'invalid';
  if (v === null) return 'nil';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < INT_LIMIT ? 'int' : 'float';
    case 'function':
      return 'func';
  }
  if (v instanceof Safe) return 'string';
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (isPlainObject(v) || v instanceof Map) return 'map';
  return 'struct';
}

/** The Go type a value has for 0.22 (in messages: "len of type int64"). */
export function typeName(v: unknown): string {
  if (v instanceof Safe) return `template.${v.type}`;
  if (v instanceof Uint8Array) return '[]uint8';
  return { invalid: '<nil>', nil: '<nil>', string: 'string', bool: 'bool', int: 'int64', float: 'float64', slice: '[]interface {}', map: 'map[string]interface {}', func: 'func', struct: `*${(v as object).constructor?.name || 'struct'}` }[kindOf(v)];
}

/** Go's truth (if, with, and, or, not): the zero value, nil and empty things are false. */
export function isTrue(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return false;
    case 'string':
      return (v instanceof Safe ? v.value : (v as string)).length > 0;
    case 'bool':
      return v as boolean;
    case 'int':
    case 'float':
      // NaN is not 0: true, as in Go
      return v !== 0 && v !== 0n;
    case 'slice':
      return (v as unknown[]).length > 0;
    case 'map':
      return v instanceof Map ? v.size > 0 : Object.keys(v as object).length > 0;
    default:
      return true;
  }
}

/** A float as Go's %v writes it: the shortest digits, in exponent form below 1e-4 and from 1e6 on. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** A map's keys in Go's printing and range order (sorted). */
export const sortedKeys = (m: object): string[] => (m instanceof Map ? [...m.keys()].map(String) : Object.keys(m)).sort(compareStrings);

/** Go's string order (bytes of UTF-8). */
export function compareStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export const mapGet = (m: object, key: string): unknown => (m instanceof Map ? m.get(key) : (m as Record<string, unknown>)[key]);

/** A value's own text when it has one (goja's String() method: DateTime, errors). */
function stringerOf(v: object): string | null {
  if (v instanceof Error) return v.message;
  const s = (v as { string?: unknown }).string;
  if (typeof s === 'function' && !isPlainObject(v)) {
    const out = (s as () => unknown).call(v);
    if (typeof out === 'string') return out;
  }
  return null;
}

/** fmt's %v of one value. */
export function formatValue(v: unknown, depth = 0): string {
  if (depth > 32) return '...';
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return '<nil>';
    case 'string':
      return v instanceof Safe ? v.value : (v as string);
    case 'bool':
      return String(v);
    case 'int':
      return String(v);
    case 'float':
      return goFloat(v as number);
    case 'func':
      return '0x0';
    case 'slice':
      return `[${Array.from(v as ArrayLike<unknown>, (x) => formatValue(x, depth + 1)).join(' ')}]`;
    case 'map': {
      const m = v as object;
      return `map[${sortedKeys(m).map((k) => `${k}:${formatValue(mapGet(m, k), depth + 1)}`).join(' ')}]`;
    }
  }
  const own = stringerOf(v as object);
  if (own !== null) return own;
  const values = Object.values(v as object).filter((x) => typeof x !== 'function');
  return `&{${values.map((x) => formatValue(x, depth + 1)).join(' ')}}`;
}

/** fmt.Sprint: values side by side, with a space between two that are not strings. */
export function sprint(args: unknown[]): string {
  let out = '';
  args.forEach((a, i) => {
    const isString = typeof a === 'string' || a instanceof Safe;
    if (i > 0 && !isString && !(typeof args[i - 1] === 'string' || args[i - 1] instanceof Safe)) out += ' ';
    out += formatValue(a);
  });
  return out;
}

/** fmt.Sprintln: always a space between, and a newline at the end. */
export const sprintln = (args: unknown[]) => `${args.map((a) => formatValue(a)).join(' ')}\n`;

/** text/template's evalArgs: one string as is, else fmt.Sprint (a missing value prints "<no value>"). */
export function evalArgs(args: unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === undefined || a === null ? '<no value>' : a)));
}
