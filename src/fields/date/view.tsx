import { isEmptyValue } from '../../lib/records/format';
import { FormattedDate } from '../../ui/FormattedDate';
import { NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const dateView: FieldView = {
  iconPaths: () => (
    <>
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" />
    </>
  ),
  Cell({ value, short }) {
    if (isEmptyValue(value)) return NA;
    // a list's header names the zone; the preview has no header over the value
    return <FormattedDate value={value} withZone={!short} className="txt-nowrap rl-date" />;
  },
};
