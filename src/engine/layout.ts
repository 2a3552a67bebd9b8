// `ui:layout` of UI schemas, as data: rows of cells (property names or decoration widgets) and
// collapsible groups of rows. Pure: read by both renderers' ObjectLayout, the docs generator and
// the contract tests.

/**
 * A `ui:layout` cell that is not a property: a widget drawn for show in the row, e.g. a check's
 * status, `{"ui:widget": "statusLabel", "ui:options": {"check": "s3"}}`. It gets no value.
 */
export interface DecorationCell {
  'ui:widget': string;
  'ui:options'?: Record<string, unknown>;
}

/** A cell of a `ui:layout` row: a property name or a decoration. */
export type LayoutCell = string | DecorationCell;

/** A `ui:layout` entry: a row of cells, or a collapsible group of rows ("Show more options"). */
export type LayoutEntry = LayoutCell[] | { collapsible: string; openTitle?: string; rows: LayoutCell[][] };

export const isDecorationCell = (cell: unknown): cell is DecorationCell =>
  typeof cell === 'object' && cell !== null && !Array.isArray(cell) && typeof (cell as DecorationCell)['ui:widget'] === 'string';

/** Every cell a layout places (rows and groups). */
function layoutCells(layout: unknown): unknown[] {
  if (!Array.isArray(layout)) return [];
  return (layout as LayoutEntry[]).flatMap((e) => (Array.isArray(e) ? e : Array.isArray(e?.rows) ? e.rows.flat() : []));
}

/** Every property name a layout places (rows and groups), e.g. for checks. */
export function layoutNames(layout: unknown): string[] {
  return layoutCells(layout).filter((c): c is string => typeof c === 'string');
}

/** Every decoration cell of a layout. */
export function layoutDecorations(layout: unknown): DecorationCell[] {
  return layoutCells(layout).filter(isDecorationCell);
}

/** The subset of rjsf's WidgetProps a decoration widget gets: its options and the form context. */
export function decorationWidgetProps(cell: DecorationCell, id: string, formContext: unknown) {
  return {
    id,
    name: '',
    label: '',
    hideLabel: true,
    value: undefined,
    schema: {},
    uiSchema: cell,
    options: { ...(cell['ui:options'] ?? {}) },
    required: false,
    disabled: false,
    readonly: true,
    autofocus: false,
    placeholder: '',
    rawErrors: [],
    registry: { formContext },
    onChange: () => {},
    onBlur: () => {},
    onFocus: () => {},
  };
}
