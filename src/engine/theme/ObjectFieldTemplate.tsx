import type { CSSProperties, ReactElement } from 'react';
import type { ObjectFieldTemplatePropertyType, ObjectFieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';

type Row = ObjectFieldTemplatePropertyType[];

const gridOf = (columns: number): CSSProperties => ({ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` });

/**
 * Arranges rows of properties. `"ui:layout": [["a", "b"], ["c"]]` places named properties in rows
 * (names missing from the current schema, e.g. a conditional field that is off, are skipped;
 * unplaced properties follow one per row). Otherwise `"ui:options": {"columns": n}` flows them into
 * an n-column grid. Nested objects get their title as a small heading.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, title, fieldPathId } = props;
  const options = getUiOptions(uiSchema);
  const layout = options.layout as string[][] | undefined;
  const visible = properties.filter((p) => !p.hidden);
  const hidden = properties.filter((p) => p.hidden);
  const nested = fieldPathId.path.length > 0;

  let rows: Row[];
  let body: ReactElement;
  if (Array.isArray(layout)) {
    const byName = new Map(visible.map((p) => [p.name, p]));
    const placed = new Set<string>();
    rows = layout
      .map((names) => names.map((n) => byName.get(n)).filter((p): p is ObjectFieldTemplatePropertyType => !!p))
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
    const columns = Number(options.columns) || 1;
    body = (
      <div className="sf-row" style={gridOf(columns)}>
        {visible.map((p) => (
          <div className="sf-cell" key={p.name}>
            {p.content}
          </div>
        ))}
      </div>
    );
  }

  return (
    <div className={nested ? 'sf-object sf-object--nested' : 'sf-object'} id={fieldPathId.$id}>
      {nested && title && <h4 className="sf-object-title">{title}</h4>}
      {nested && options.description && <p className="sf-help">{String(options.description)}</p>}
      {body}
      {hidden.map((p) => (
        <div hidden key={p.name}>
          {p.content}
        </div>
      ))}
    </div>
  );
}
