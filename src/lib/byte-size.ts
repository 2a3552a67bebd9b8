// A size in bytes as the dashboard shows it ('12.30 KB'; German '12,30 KB'): binary steps, two
// decimals from KB up, the decimal mark of the language.
const UNITS = ['KB', 'MB', 'GB', 'TB'];
const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(lang: string, decimals: number): Intl.NumberFormat {
  const key = `${lang}|${decimals}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false })));
  return f;
}

export function formatByteSize(bytes: number, lang: string): string {
  if (bytes < 1024) return `${numberFormat(lang, 0).format(bytes)} B`;
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${numberFormat(lang, 2).format(v)} ${UNITS[i]}`;
}
