import type { CSSProperties, ReactElement, ReactNode } from 'react';
import { Accordion } from '../../widgets/Accordion';

export interface LayoutProperty {
  name: string;
  content: ReactNode;
  hidden?: boolean;
}

export interface ObjectLayoutProps {
  id: string;
  properties: readonly LayoutProperty[];
  /** `ui:layout` rows of property names. */
  layout?: unknown;
  /** `ui:options.columns` when there is no layout. */
  columns?: unknown;
  nested?: boolean;
  title?: string;
  description?: unknown;
}

const gridOf = (columns: number): CSSProperties => ({ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` });

/** A `ui:layout` entry: a row of names, or a collapsible group of rows ("Show more options"). */
export type LayoutEntry = string[] | { collapsible: string; openTitle?: string; rows: string[][] };

/** Every property name a layout places (rows and groups), e.g. for checks. */
export function layoutNames(layout: unknown): string[] {
  if (!Array.isArray(layout)) return [];
  return (layout as LayoutEntry[]).flatMap((e) => (Array.isArray(e) ? e : Array.isArray(e?.rows) ? e.rows.flat() : []));
}

function rowOf(row: LayoutProperty[]) {
  return (
    <div className="sf-row" style={gridOf(row.length)} key={row.map((p) => p.name).join('|')}>
      {row.map((p) => (
        <div className="sf-cell" key={p.name}>
          {p.content}
        </div>
      ))}
    </div>
  );
}

/**
 * Arranges rows of properties, for both renderers. `"ui:layout": [["a", "b"], ["c"]]` places named
 * properties in rows (names missing from the current schema, e.g. a conditional field that is off,
 * are skipped; unplaced properties follow one per row). Otherwise `"ui:options": {"columns": n}`
 * flows them into an n-column grid. Nested objects get their title as a small heading.
 */
export function ObjectLayout({ id, properties, layout, columns, nested = false, title, description }: ObjectLayoutProps) {
  const visible = properties.filter((p) => !p.hidden);
  const hidden = properties.filter((p) => p.hidden);

  let body: ReactElement;
  if (Array.isArray(layout)) {
    const byName = new Map(visible.map((p) => [p.name, p]));
    const placed = new Set<string>();
    const pick = (names: string[]) => names.map((n) => byName.get(n)).filter((p): p is LayoutProperty => !!p);
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
        if (rows.length) {
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
