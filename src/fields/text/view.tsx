import { TextCell } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const textView: FieldView = {
  iconPaths: () => <path d="M5 6h14M12 6v13M9 19h6" />,
  Cell: TextCell,
};
