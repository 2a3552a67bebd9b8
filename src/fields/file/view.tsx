import { limitList, MAX_LIST_ITEMS, toList } from '../../lib/records/format';
import { FileThumb, NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const fileView: FieldView = {
  iconPaths: () => (
    <>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
    </>
  ),
  Cell({ record, value, field, ctx, short }) {
    const names = toList<string>(value).map(String);
    if (names.length === 0) return NA;
    const { shown, more } = limitList(names, short ? MAX_LIST_ITEMS : 500);
    const protectedFile = !!field?.options?.protected;
    return (
      <span className="rl-files">
        {shown.map((n) => (
          <FileThumb key={n} record={record} name={n} protectedFile={protectedFile} ctx={ctx} />
        ))}
        {more > 0 && <span className="rl-chip rl-chip-more">+{more}</span>}
      </span>
    );
  },
};
