import type { CSSProperties, ReactElement, ReactNode } from 'react';
import { Accordion } from '../../ui/Accordion';
import { isDecorationCell, type DecorationCell, type LayoutCell, type LayoutEntry } from '../layout';

export interface LayoutProperty {
  name: string;
  content: ReactNode;
  hidden?: boolean;
  /** A decoration cell (no property). */
  decoration?: boolean;
}

export interface ObjectLayoutProps {
  id: string;
  properties: readonly LayoutProperty[];
  /** `ui:layout` rows of property names (and decoration cells). */
  layout?: unknown;
  /** Draws a decoration cell (the renderer knows its widgets); without it they are skipped. */
  decoration?: (cell: DecorationCell) => ReactNode;
  /** `ui:options.columns` when there is no layout. */
  columns?: unknown;
  nested?: boolean;
  title?: string;
  description?: unknown;
}

const gridOf = (columns: number): CSSProperties => ({ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` });

function rowOf(row: LayoutProperty[]) {
  return (
    <div className="sf-row" style={gridOf(row.length)} key={row.map((p) => p.name).join('|')}>
      {row.map((p) => (
        <div className={p.decoration ? 'sf-cell sf-cell--decoration' : 'sf-cell'} key={p.name}>
          {p.content}
        </div>
      ))}
    </div>
  );
}

/**
 * Arranges rows of properties, for both renderers. `"ui:layout": [["a", "b"], ["c"]]` places named
 * properties in rows (names missing from the current schema, e.g. a conditional field that is off,
 * are skipped; unplaced properties follow one per row). A cell may also be a decoration, a widget
 * with no property (`{"ui:widget": "statusLabel", "ui:options": {…}}`), drawn by `decoration`; a
 * row of decorations only hides while they draw nothing. Otherwise `"ui:options": {"columns": n}`
 * flows them into an n-column grid. Nested objects get their title as a small heading.
 */
export function ObjectLayout({ id, properties, layout, columns, decoration, nested = false, title, description }: ObjectLayoutProps) {
  const visible = properties.filter((p) => !p.hidden);
  const hidden = properties.filter((p) => p.hidden);

  let body: ReactElement;
  if (Array.isArray(layout)) {
    const byName = new Map(visible.map((p) => [p.name, p]));
    const placed = new Set<string>();
    let decorations = 0;
    const cellOf = (cell: LayoutCell): LayoutProperty | undefined => {
      if (typeof cell === 'string') return byName.get(cell);
      if (!isDecorationCell(cell) || !decoration) return undefined;
      return { name: `decoration-${decorations++}`, content: decoration(cell), decoration: true };
    };
    // a row whose properties are all missing (a conditional part that is off) goes, decorations too
    const pick = (cells: LayoutCell[]) => {
      const row = cells.map(cellOf).filter((p): p is LayoutProperty => !!p);
      const named = cells.some((c) => typeof c === 'string');
      return named && !row.some((p) => !p.decoration) ? [] : row;
    };
    const parts: ReactElement[] = [];
    for (const entry of layout as LayoutEntry[]) {
      if (Array.isArray(entry)) {
        const row = pick(entry);
        row.forEach((p) => placed.add(p.name));
        if (row.length) parts.push(rowOf(row));
      } else if (entry && Array.isArray(entry.rows)) {
        // names missing from the current schema (a conditional part that is off) hide the whole group
        const rows = entry.rows.map(pick).filter((r) => r.length > 0);
        rows.forEach((r) => r.forEach((p) => placed.add(p.name)));
        if (rows.some((r) => r.some((p) => !p.decoration))) {
          parts.push(
            <Accordion key={`group-${entry.collapsible}`} variant="link" title={entry.collapsible} openTitle={entry.openTitle}>
              <div className="sf-object">{rows.map(rowOf)}</div>
            </Accordion>,
          );
        }
      }
    }
    parts.push(...visible.filter((p) => !placed.has(p.name)).map((p) => rowOf([p])));
    body = <>{parts}</>;
  } else {
    body = (
      <div className="sf-row" style={gridOf(Number(columns) || 1)}>
        {visible.map((p) => (
          <div className="sf-cell" key={p.name}>
            {p.content}
          </div>
        ))}
      </div>
    );
  }

  return (
    <div className={nested ? 'sf-object sf-object--nested' : 'sf-object'} id={id}>
      {nested && title && <h4 className="sf-object-title">{title}</h4>}
      {nested && !!description && <p className="sf-help">{String(description)}</p>}
      {body}
      {hidden.map((p) => (
        <div hidden key={p.name}>
          {p.content}
        </div>
      ))}
    </div>
  );
}
