/**
 * Text widths for the relation graph's layout without a DOM: the advance widths of DejaVu Sans
 * (the widest face of the dashboard's font stack, and the one Linux picks), in hundredths of an em,
 * for ASCII 32..126, measured in Chromium. Boxes sized with them hold the text in every face of
 * the stack; any other character counts as one em.
 */

const NORMAL = [
  32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 68, 69, 70,
  77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69, 63, 61, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 35, 63,
  63, 28, 28, 58, 28, 97, 63, 61, 63, 63, 41, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84,
];
const BOLD = [
  35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84, 84, 84, 58, 100, 77, 76, 73,
  83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44,
  72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84,
];

/** The width of `text` set at `fontSize` px. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  const table = bold ? BOLD : NORMAL;
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    em += code >= 32 && code < 127 ? table[code - 32] / 100 : 1;
  }
  return em * fontSize;
}

/** `text`, cut with an ellipsis so that it fits `maxWidth` at `fontSize`. */
export function fitText(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  // the longest prefix that fits with the ellipsis
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(chars.slice(0, mid).join('') + '…', fontSize, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('') + '…';
}
