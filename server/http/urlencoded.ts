// Query-string / url-encoded form decoding with Go's rules (net/url ParseQuery), which PocketBase
// 0.22 reads form bodies with: a bad %-escape or a `;` in a pair fails the whole form (the caller
// answers its 400), `+` is a space, empty pairs are skipped and repeated keys keep every value.
// URLSearchParams would silently keep a bad escape as text, so it cannot be used here.

export class FormDecodeError extends Error {}

/** Pairs in their order; throws FormDecodeError on the first pair Go would refuse. */
export function parseUrlEncoded(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const item of text.split('&')) {
    if (item.includes(';')) throw new FormDecodeError('invalid semicolon separator in query');
    if (item === '') continue;
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq);
    const value = eq < 0 ? '' : item.slice(eq + 1);
    pairs.push([unescape(key), unescape(value)]);
  }
  return pairs;
}

/** Go's QueryUnescape: %XX bytes and `+` decoded, the bytes read as UTF-8. */
function unescape(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  const bytes: number[] = [];
  const raw = Buffer.from(s, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === 0x2b) {
      bytes.push(0x20);
    } else if (c === 0x25) {
      const hex = raw.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new FormDecodeError(`invalid URL escape "%${hex}"`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(c);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
