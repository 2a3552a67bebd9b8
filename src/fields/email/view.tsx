import { TextCell } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const emailView: FieldView = {
  iconPaths: () => (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m4 7 8 6 8-6" />
    </>
  ),
  Cell: TextCell,
};
