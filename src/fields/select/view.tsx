import { limitList, MAX_LIST_ITEMS, toList, truncate } from '../../lib/records/format';
import { Chips, NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const selectView: FieldView = {
  iconPaths: () => (
    <>
      <path d="M9 6h11M9 12h11M9 18h11" />
      <circle cx="4.5" cy="6" r="1" />
      <circle cx="4.5" cy="12" r="1" />
      <circle cx="4.5" cy="18" r="1" />
    </>
  ),
  Cell({ value, short }) {
    const all = toList(value).map(String);
    if (all.length === 0) return NA;
    const { shown, more } = limitList(all, short ? MAX_LIST_ITEMS : 500);
    return <Chips items={shown.map((v) => ({ key: v, label: truncate(v, 70), title: v }))} more={more} />;
  },
};
