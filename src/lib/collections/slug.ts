// Names as the dashboard slugs them while typing (PocketBase's CommonHelper.slugify): accents
// dropped, every run of other characters than letters, digits and '_' becomes '_', leading
// whitespace ignored. Typed underscores are kept as they are.

const ACCENTS: Record<string, string> = {
  a: 'àáâãäåāăą',
  c: 'çćĉċč',
  d: 'ďđ',
  e: 'èéêëēĕėęě',
  g: 'ĝğġģ',
  i: 'ìíîïĩīĭįı',
  n: 'ñńņňŉ',
  o: 'òóôõöøōŏő',
  s: 'śŝşšß',
  u: 'ùúûüũūŭůűų',
  y: 'ýÿŷ',
  z: 'źżž',
};

function plainLetter(ch: string): string {
  const lower = ch.toLowerCase();
  for (const [plain, accented] of Object.entries(ACCENTS)) {
    if (accented.includes(lower)) return ch === lower ? plain : plain.toUpperCase();
  }
  return ch;
}

export function slugify(value: string): string {
  const plain = Array.from(String(value ?? '').trimStart(), plainLetter).join('');
  return plain.replace(/[^\w]+/g, '_');
}
