// Go's casts as PocketBase 0.22 applies them to submitted and stored values (spf13/cast,
// types.ParseDateTime, list.ToUniqueStringSlice), shared by the field definitions.

/** Go's cast.ToString for the JSON-ish values a request can carry. */
export function castString(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? formatGoFloat(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  return '';
}

/** strconv.FormatFloat(f, 'f', -1, 64): no exponent. */
function formatGoFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const GO_FLOAT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Go's cast.ToFloat64 (non-finite results count as 0). */
export function castNumber(v: unknown): number {
  let n = 0;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'boolean') n = v ? 1 : 0;
  else if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'string') n = GO_FLOAT.test(v) ? Number(v) : 0;
  return Number.isFinite(n) ? n : 0;
}

/** Go's cast.ToBool. */
export function castBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
  return false;
}

/** PocketBase's stored date format (`2006-01-02 15:04:05.000Z`); '' for empty; undefined if unparsable. */
export function normalizeDateTime(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return '';
  const iso = /^\d{4}-\d\d-\d\d$/.test(text) ? `${text}T00:00:00Z` : text.replace(' ', 'T');
  const withZone = /([zZ]|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`;
  const ms = Date.parse(withZone);
  if (!Number.isFinite(ms)) return undefined;
  return new Date(ms).toISOString().replace('T', ' ');
}

/** PocketBase's ToUniqueStringSlice: a list, a JSON array text or one string → non-empty unique strings. */
export function toUniqueStrings(value: unknown): string[] {
  let items: unknown[] = [];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') {
    items = [value];
    if (value.includes('[')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed)) items = parsed;
      } catch {
        // not a JSON array: the string is the only element
      }
    }
  } else if (value !== null && value !== undefined) items = [value];
  const out = items.map((v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  return [...new Set(out.filter((s) => s !== ''))];
}
