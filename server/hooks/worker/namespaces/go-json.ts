// JSON as Go's encoding/json writes a map: keys sorted (at every depth, as strings), and <, >, &
// and the line/paragraph separators escaped as \u003c ... (HTML-safe). Signed and sent bytes (a
// JWT's claims, `$http.send`'s legacy `data`) then match 0.22's byte for byte.
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;

function encode(value: unknown, depth: number): string {
  if (depth > 64) throw new Error('json: the value is nested too deeply');
  if (Array.isArray(value)) return `[${value.map((v) => encode(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const keys = Object.keys(value).filter((k) => {
      const v = (value as Record<string, unknown>)[k];
      return v !== undefined && typeof v !== 'function';
    });
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${encode((value as Record<string, unknown>)[k], depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function goJson(value: unknown): string {
  return encode(value, 0).replace(HTML_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
