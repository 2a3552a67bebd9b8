// `new Cookie({...})` (Go's http.Cookie: name, value, path, domain, expires, maxAge, secure,
// httpOnly, sameSite 1-4, ...) with `string()`, the Set-Cookie text as Go 1.22 writes it, and the
// cookies of an `$http.send` answer read from its Set-Cookie lines as Go reads them.
import { DateTime, GoTime, goTime } from './datetime';

/** Go's http.SameSite values. */
const SAME_SITE = { default: 1, lax: 2, strict: 3, none: 4 } as const;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const validValueByte = (c: number) => c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x3b && c !== 0x5c;
const DOMAIN = /^\.?[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** http.TimeFormat: "Mon, 02 Jan 2006 15:04:05 GMT". */
function httpDate(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT`;
}

function sanitizeValue(v: string): string {
  const kept = [...v].filter((ch) => validValueByte(ch.charCodeAt(0))).join('');
  return kept.includes(' ') || kept.includes(',') ? `"${kept}"` : kept;
}

function expiresMs(value: unknown): number | null {
  if (value instanceof GoTime) return value.isZero() ? null : value.ms;
  if (value instanceof DateTime) return value.isZero() ? null : value.time().ms;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && value) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

export class Cookie {
  name = '';
  value = '';
  path = '';
  domain = '';
  expires: unknown = null;
  rawExpires = '';
  maxAge = 0;
  secure = false;
  httpOnly = false;
  sameSite = 0;
  raw = '';
  unparsed: string[] | null = null;

  constructor(data?: unknown) {
    if (data && typeof data === 'object') Object.assign(this, data);
  }

  /** The Set-Cookie text (Go's Cookie.String); "" when the name is not a valid token. */
  string(): string {
    const name = String(this.name ?? '');
    if (!TOKEN.test(name)) return '';
    let out = `${name}=${sanitizeValue(String(this.value ?? ''))}`;
    const path = String(this.path ?? '');
    if (path) out += `; Path=${[...path].filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) < 0x7f && ch !== ';').join('')}`;
    const domain = String(this.domain ?? '');
    if (domain && (DOMAIN.test(domain) || IPV4.test(domain)) && domain.length <= 255) out += `; Domain=${domain.startsWith('.') ? domain.slice(1) : domain}`;
    const expires = expiresMs(this.expires);
    if (expires !== null && new Date(expires).getUTCFullYear() >= 1601) out += `; Expires=${httpDate(expires)}`;
    const maxAge = Math.trunc(Number(this.maxAge) || 0);
    if (maxAge > 0) out += `; Max-Age=${maxAge}`;
    else if (maxAge < 0) out += '; Max-Age=0';
    if (this.httpOnly) out += '; HttpOnly';
    if (this.secure) out += '; Secure';
    const sameSite = Number(this.sameSite);
    if (sameSite === SAME_SITE.none) out += '; SameSite=None';
    else if (sameSite === SAME_SITE.lax) out += '; SameSite=Lax';
    else if (sameSite === SAME_SITE.strict) out += '; SameSite=Strict';
    return out;
  }

  /** Go's Cookie.Valid (the name checked): throws its error, null when the cookie can be sent. */
  valid(): null {
    if (!TOKEN.test(String(this.name ?? ''))) throw new Error(`http: invalid Cookie.Name ${JSON.stringify(this.name)}`);
    return null;
  }

  toString(): string {
    return this.string();
  }
}

/** Go's parseCookieValue: quotes dropped (where allowed), every byte a valid cookie byte. */
function cookieValue(raw: string, allowQuotes: boolean): string | null {
  let v = raw;
  if (allowQuotes && v.length > 1 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  for (let i = 0; i < v.length; i++) if (!validValueByte(v.charCodeAt(i))) return null;
  return v;
}

/** The cookies of Set-Cookie lines, as Go's readSetCookies reads them. */
export function parseSetCookies(lines: string[]): Cookie[] {
  const out: Cookie[] = [];
  for (const line of lines) {
    const parts = line.trim().split(';');
    if (parts.length === 1 && parts[0] === '') continue;
    const first = parts[0].trim();
    const eq = first.indexOf('=');
    if (eq < 0) continue;
    const name = first.slice(0, eq).trim();
    if (!TOKEN.test(name)) continue;
    const value = cookieValue(first.slice(eq + 1), true);
    if (value === null) continue;
    const c = new Cookie({ name, value, raw: line });
    for (const rawPart of parts.slice(1)) {
      const part = rawPart.trim();
      if (!part) continue;
      const at = part.indexOf('=');
      const attr = (at < 0 ? part : part.slice(0, at)).toLowerCase();
      const val = cookieValue(at < 0 ? '' : part.slice(at + 1), false);
      let known = val !== null;
      if (val !== null) {
        if (attr === 'samesite') c.sameSite = SAME_SITE[val.toLowerCase() as keyof typeof SAME_SITE] ?? SAME_SITE.default;
        else if (attr === 'secure') c.secure = true;
        else if (attr === 'httponly') c.httpOnly = true;
        else if (attr === 'domain') c.domain = val;
        else if (attr === 'path') c.path = val;
        else if (attr === 'max-age' && /^-?\d+$/.test(val) && !(val.startsWith('0') && Number(val) !== 0)) c.maxAge = Number(val) <= 0 ? -1 : Number(val);
        else if (attr === 'expires') {
          c.rawExpires = val;
          const ms = Date.parse(val.replace(/-/g, ' '));
          if (Number.isNaN(ms)) known = false;
          else c.expires = goTime(ms);
        } else known = false;
      }
      if (!known) c.unparsed = [...(c.unparsed ?? []), part];
    }
    out.push(c);
  }
  return out;
}
