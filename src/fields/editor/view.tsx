import { plainText, truncate, TRUNCATE_DEFAULT, TRUNCATE_TOOLTIP } from '../../lib/records/format';
import { NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const editorView: FieldView = {
  iconPaths: () => <path d="M4 6h16M4 10h10M4 14h16M4 18h8" />,
  Cell({ value, short }) {
    const text = plainText(value);
    if (!text) return NA;
    return (
      <span className="rl-text" title={short ? truncate(text, TRUNCATE_TOOLTIP) : undefined}>
        {truncate(text, short ? TRUNCATE_DEFAULT : TRUNCATE_TOOLTIP)}
      </span>
    );
  },
};
