import type { CSSProperties, ReactElement, ReactNode } from 'react';

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
    const rows = (layout as string[][])
      .map((names) => names.map((n) => byName.get(n)).filter((p): p is LayoutProperty => !!p))
      .filter((row) => row.length > 0);
    rows.forEach((row) => row.forEach((p) => placed.add(p.name)));
    rows.push(...visible.filter((p) => !placed.has(p.name)).map((p) => [p]));
    body = (
      <>
        {rows.map((row) => (
          <div className="sf-row" style={gridOf(row.length)} key={row.map((p) => p.name).join('|')}>
            {row.map((p) => (
              <div className="sf-cell" key={p.name}>
                {p.content}
              </div>
            ))}
          </div>
        ))}
      </>
    );
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
