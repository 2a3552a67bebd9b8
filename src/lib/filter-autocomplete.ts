// Autocomplete of filter keys in search bars (pure): the identifier-like token at the caret,
// matching keys, and putting the chosen key in place of the token.

const MAX_SUGGESTIONS = 12;

const TOKEN_CHAR = /[\w.@]/;

/** The identifier-like token around the caret: [start, end) and its text. */
export function tokenAt(text: string, caret: number): { start: number; end: number; token: string } {
  let start = Math.max(0, Math.min(caret, text.length));
  let end = start;
  while (start > 0 && TOKEN_CHAR.test(text[start - 1])) start--;
  while (end < text.length && TOKEN_CHAR.test(text[end])) end++;
  return { start, end, token: text.slice(start, end) };
}

/** Whether the caret sits inside a quoted string (no suggestions there). */
export function insideQuotes(text: string, caret: number): boolean {
  let quote = '';
  for (let i = 0; i < caret && i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
  }
  return quote !== '';
}

/** Keys starting with the token first, then keys containing it; the exact token is left out. */
export function suggest(keys: readonly string[], token: string, max = MAX_SUGGESTIONS): string[] {
  const t = token.toLowerCase();
  if (!t) return [];
  const starts: string[] = [];
  const contains: string[] = [];
  for (const k of keys) {
    const lk = k.toLowerCase();
    if (lk === t) continue;
    if (lk.startsWith(t)) starts.push(k);
    else if (t.length > 1 && lk.includes(t)) contains.push(k);
  }
  return [...starts, ...contains].slice(0, max);
}

/** Replaces the token [start, end) with the key; returns the new text and caret. */
export function applySuggestion(text: string, start: number, end: number, key: string): { text: string; caret: number } {
  const next = text.slice(0, start) + key + text.slice(end);
  return { text: next, caret: start + key.length };
}
