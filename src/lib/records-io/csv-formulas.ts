/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with = + - @ tab or CR as a formula,
 * so anyone allowed to create records could plant one for the admin who exports them. The export
 * puts a ' before such text cells (papaparse's escapeFormulae with this pattern; numbers and
 * booleans stay as they are) and the import takes it off again. Text that already starts with
 * ' before one of those characters gets one more, so the round trip is exact: an escaped cell is
 * always ' followed by '* and a formula character, which no unescaped cell is.
 */
export const FORMULA_CELL = /^'*[=+\-@\t\r]/;

/** The cell as it was before the export escaped it (other cells unchanged). */
export function unescapeFormulaCell(cell: string): string {
  return /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
