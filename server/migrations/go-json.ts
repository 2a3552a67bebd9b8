// Go's json.MarshalIndent(v, prefix, indent) as migratecmd's marhshalWithoutEscape prints it: the
// same layout as JSON.stringify with an indent, every line after the first starting with `prefix`,
// and no \u escapes (Go escapes <, >, & and U+2028/9, then migratecmd unquotes them again).
export function marshalIndent(value: unknown, prefix = '  ', indent = '  '): string {
  const text = JSON.stringify(value ?? null, null, indent) ?? 'null';
  return text.split('\n').join(`\n${prefix}`);
}

/** Go's %q of a string (strconv.Quote): a double-quoted literal, valid JS as well. */
export function goQuote(value: string): string {
  return JSON.stringify(value);
}
