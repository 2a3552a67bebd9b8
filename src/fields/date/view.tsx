import { dateTooltip, formatDate, isEmptyValue } from '../../lib/records/format';
import { NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const dateView: FieldView = {
  iconPaths: () => (
    <>
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" />
    </>
  ),
  Cell({ value }) {
    if (isEmptyValue(value)) return NA;
    return (
      <span className="txt-nowrap rl-date" title={dateTooltip(value)}>
        {formatDate(value)}
      </span>
    );
  },
};
