import { jsonExcerpt, JSON_PREVIEW_MAX, TRUNCATE_DEFAULT } from '../../lib/records/format';
import { NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const jsonView: FieldView = {
  iconPaths: () => <path d="M8 4H7a2 2 0 0 0-2 2v4l-2 2 2 2v4a2 2 0 0 0 2 2h1M16 4h1a2 2 0 0 1 2 2v4l2 2-2 2v4a2 2 0 0 1-2 2h-1" />,
  Cell({ value, short }) {
    if (value === null || value === undefined) return NA;
    return (
      <span className="txt-mono txt-sm rl-json" title={short ? jsonExcerpt(value, JSON_PREVIEW_MAX) : undefined}>
        {jsonExcerpt(value, short ? TRUNCATE_DEFAULT : JSON_PREVIEW_MAX)}
      </span>
    );
  },
};
