import { limitList, MAX_RELATION_CHIPS, relationChips, truncate } from '../../lib/records/format';
import { Chips, NA } from '../shared/cell-parts';
import type { FieldView } from '../view-types';

export const relationView: FieldView = {
  iconPaths: () => (
    <>
      <circle cx="6" cy="6" r="2.5" />
      <circle cx="18" cy="18" r="2.5" />
      <path d="M8 8l8 8" />
    </>
  ),
  Cell({ record, field, ctx, short }) {
    if (!field) return NA;
    const target = ctx.collectionsById.get(String(field.options?.collectionId ?? ''));
    const chips = relationChips(record, field, target);
    if (chips.length === 0) return NA;
    const { shown, more } = limitList(chips, short ? MAX_RELATION_CHIPS : 500);
    return (
      <Chips
        className="rl-relation-chips"
        items={shown.map((c) => ({ key: c.id, label: truncate(c.label, 70), title: c.missing ? `${c.id} (missing)` : `${c.label}\n${c.id}`, missing: c.missing }))}
        more={more}
      />
    );
  },
};
