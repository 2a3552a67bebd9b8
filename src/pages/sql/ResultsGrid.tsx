/**
 * The console's rows (up to 10,000) in a table that draws only the rows in view: a spacer row
 * above and below stands for the others, so scrolling stays cheap whatever the count. Fixed row
 * height, column widths from the header and the first rows (table-layout fixed: no jumps while
 * scrolling). The scroll box is focusable (arrow keys and Page Up/Down scroll it) and the table
 * tells assistive technology the full row count and each row's index.
 */
import { useMemo, useRef, useState, type UIEvent } from 'react';
import { t } from '../../ui/i18n';

const ROW_HEIGHT = 32;
const OVERSCAN = 12;
const VIEW_ROWS = 40;
const CHAR_PX = 7.5;

/** How a value shows in a cell (NULL in its own style). */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  return typeof v === 'string' ? v : String(v);
}

function columnWidths(columns: readonly string[], rows: readonly unknown[][]): number[] {
  return columns.map((name, i) => {
    let chars = name.length;
    for (const row of rows.slice(0, 100)) chars = Math.max(chars, Math.min(60, cellText(row[i]).length));
    return Math.round(Math.min(420, Math.max(72, chars * CHAR_PX + 28)));
  });
}

export function ResultsGrid({ columns, rows, label }: { columns: readonly string[]; rows: readonly unknown[][]; label: string }) {
  const [scrollTop, setScrollTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  // widths settle with the first rows (later chunks do not move the columns)
  const sample = rows.length >= 100 ? 100 : rows.length;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const widths = useMemo(() => columnWidths(columns, rows), [columns, sample]);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, first + VIEW_ROWS + 2 * OVERSCAN);

  return (
    <div className="sql-grid" ref={box} tabIndex={0} role="region" aria-label={label} onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}>
      <table className="sql-grid-table" aria-rowcount={rows.length + 1} aria-colcount={columns.length + 1}>
        <colgroup>
          <col className="sql-grid-col-index" />
          {widths.map((w, i) => (
            <col key={i} style={{ width: w }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="sql-grid-index" aria-label={t('sql.rowNumber')}>
              #
            </th>
            {columns.map((c, i) => (
              <th key={i} scope="col" title={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr aria-hidden="true" className="sql-grid-spacer">
              <td colSpan={columns.length + 1} style={{ height: first * ROW_HEIGHT }} />
            </tr>
          )}
          {rows.slice(first, last).map((row, j) => {
            const index = first + j;
            return (
              <tr key={index} aria-rowindex={index + 2}>
                <td className="sql-grid-index">{index + 1}</td>
                {columns.map((_, i) => {
                  const v = row[i];
                  const text = cellText(v);
                  return (
                    <td key={i} className={v === null || v === undefined ? 'sql-null' : typeof v === 'number' ? 'sql-number' : undefined} title={text.length > 40 ? text.slice(0, 2000) : undefined}>
                      {text}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {last < rows.length && (
            <tr aria-hidden="true" className="sql-grid-spacer">
              <td colSpan={columns.length + 1} style={{ height: (rows.length - last) * ROW_HEIGHT }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
