// A Range header read as Go's net/http parseRange reads it (what 0.22 serves files with).

/** Inclusive byte offsets. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Go's strconv.ParseInt(s, 10, 64) success: optional sign, decimal digits, within int64. */
const INT64_MAX = 2n ** 63n - 1n;
function parseInt64(text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const big = BigInt(text);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) return null;
  // past 2^53 only comparisons with the size follow, which stay right
  return Number(big);
}

/**
 * The ranges of `header` over a `size`-byte file, in the order asked (overlaps kept, as Go keeps
 * them): [] for no header or no range in it; 'invalid' for anything malformed (no `bytes=`, no
 * '-', not a number, end before start); 'unsatisfiable' when every range starts past the end.
 * Departure: Go keeps a zero-length suffix (`-0`, or any suffix of an empty file) and would answer
 * it with an inverted Content-Range (`bytes 5-4/5`); here it overlaps nothing.
 */
export function parseByteRanges(header: string, size: number): ByteRange[] | 'invalid' | 'unsatisfiable' {
  if (header === '') return [];
  if (!header.startsWith('bytes=')) return 'invalid';
  const ranges: ByteRange[] = [];
  let noOverlap = false;
  for (const raw of header.slice('bytes='.length).split(',')) {
    const spec = raw.trim();
    if (spec === '') continue;
    const dash = spec.indexOf('-');
    if (dash < 0) return 'invalid';
    const startText = spec.slice(0, dash).trim();
    const endText = spec.slice(dash + 1).trim();
    if (startText === '') {
      // the last n bytes
      if (endText === '' || endText[0] === '-') return 'invalid';
      const n = parseInt64(endText);
      if (n === null || n < 0) return 'invalid';
      if (n === 0 || size === 0) noOverlap = true;
      else ranges.push({ start: size - Math.min(n, size), end: size - 1 });
      continue;
    }
    const start = parseInt64(startText);
    if (start === null || start < 0) return 'invalid';
    if (start >= size) {
      noOverlap = true;
      continue;
    }
    if (endText === '') {
      ranges.push({ start, end: size - 1 });
      continue;
    }
    const end = parseInt64(endText);
    if (end === null || start > end) return 'invalid';
    ranges.push({ start, end: Math.min(end, size - 1) });
  }
  return noOverlap && ranges.length === 0 ? 'unsatisfiable' : ranges;
}
