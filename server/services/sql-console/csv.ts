// The SQL console's CSV export, one line at a time (RFC 4180: CRLF, quotes doubled). Text that a
// spreadsheet would run as a formula gets a leading ' as in the records export (csv-formulas.ts).
import { FORMULA_CELL } from '../../../src/lib/records-io/csv-formulas';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_CELL.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (with its CRLF) of `values`. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(cell).join(',') + '\r\n';
}
