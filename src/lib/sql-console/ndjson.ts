// The SQL console's answer is NDJSON (server/http/sql-console.ts): one JSON value a line, arriving
// in network chunks that may cut a line anywhere.

/** Splits text chunks into complete lines; `push` returns the lines a chunk completed. */
export function lineSplitter(): { push(text: string): string[]; end(): string[] } {
  let rest = '';
  return {
    push(text) {
      rest += text;
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      return lines.filter((l) => l !== '');
    },
    end() {
      const last = rest;
      rest = '';
      return last ? [last] : [];
    },
  };
}

/** The CSV export's line breaks so far (CRLF ends each row; a value holding CRLF counts twice). */
export function countCsvRows(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\r\n'); i >= 0; i = text.indexOf('\r\n', i + 2)) n++;
  return n;
}
