import { isEmptyValue } from '../../lib/records/format';
import { NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const numberView: FieldView = {
  iconPaths: () => <path d="M9 4 7 20M17 4l-2 16M4 9h16M3 15h16" />,
  Cell: ({ value }) => (isEmptyValue(value) ? NA : <span className="txt-nowrap">{String(value)}</span>),
};
