// Record values in list cells and the preview panel: the id with its copy button, and each
// field drawn by its type's view (src/fields/<type>/view.tsx).
import { memo } from 'react';
import { fieldView } from '../../../fields/views';
import type { CellContext } from '../../../fields/view-types';
import { CopyButton } from '../../../ui/CopyButton';
import type { ColumnDef, RecordLike } from '../../../lib/records/format';
import { t } from '../../../ui/i18n';

export type { CellContext };

/** One field value of a record, formatted for a list cell (`short`) or the preview (full). */
export const RecordValue = memo(function RecordValue({
  record,
  column,
  ctx,
  short = true,
}: {
  record: RecordLike;
  column: ColumnDef;
  ctx: CellContext;
  short?: boolean;
}) {
  const value = record[column.name];
  if (column.type === 'primary') {
    return (
      <span className="rl-id-cell">
        <span className="txt-mono rl-id">{String(value ?? '')}</span>
        {value ? <CopyButton value={String(value)} label={t('recordWidget.copyId')} className="rl-id-copy" /> : null}
      </span>
    );
  }
  const { Cell } = fieldView(column.type);
  return <Cell record={record} value={value} field={column.field} ctx={ctx} short={short} />;
});
