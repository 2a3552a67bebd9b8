// The records table's parts: sortable column headers, the visible-columns menu and the row.
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { IconArrowDown, IconArrowUp } from '../../../ui/icons';
import { DateZoneLabel } from '../../../ui/FormattedDate';
import { setQueryParams } from '../../../shell/navigation';
import { nextRecordsSort, sortState, type ColumnDef, type RecordLike } from '../../../lib/records/format';
import { RecordValue, type CellContext } from './cells';
import { t } from '../../../ui/i18n';

/** Fetches the editor's chunk ahead of a click (row hover, the empty list's New record). */
export const preloadEditor = () => void import('../editor/RecordEditorPanel');

export function SortHeader({ column, sort }: { column: ColumnDef; sort: string }) {
  const state = sortState(sort, column.name);
  if (!column.sortable) {
    return (
      <th className={`col-type-${column.type} col-field-${column.name}`} scope="col">
        <span className="col-label">{column.name}</span>
        {column.zoned && <> <DateZoneLabel /></>}
      </th>
    );
  }
  return (
    <th className={`col-sort${state !== 'none' ? ' col-sort-active' : ''} col-type-${column.type} col-field-${column.name}`} aria-sort={state} scope="col">
      <button type="button" className="col-sort-button" onClick={() => setQueryParams({ sort: nextRecordsSort(sort, column.name) })}>
        <span>{column.name}</span>
        {column.zoned && <DateZoneLabel />}
        {state === 'descending' && <IconArrowDown size={14} />}
        {state === 'ascending' && <IconArrowUp size={14} />}
      </button>
    </th>
  );
}

export function ColumnsMenu({ columns, hidden, onToggle }: { columns: ColumnDef[]; hidden: string[]; onToggle: (name: string) => void }) {
  const [open, setOpen] = useState(false);
  // fixed to the viewport: the table wrapper scrolls (and would clip an absolute dropdown)
  const [pos, setPos] = useState<{ top: number; right: number }>({ top: 0, right: 0 });
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div className="records-columns-menu" ref={ref}>
      <button
        type="button"
        className="btn btn-transparent btn-circle btn-sm"
        aria-label={t('recordList.toggleColumns')}
        title={t('recordList.toggleColumns')}
        aria-expanded={open}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setPos({ top: r.bottom + 4, right: Math.max(8, window.innerWidth - r.right) });
          setOpen((o) => !o);
        }}
      >
        <span aria-hidden="true" className="records-columns-icon">⋮</span>
      </button>
      {open && (
        <div className="dropdown records-columns-dropdown" role="group" aria-label={t('recordList.columns')} style={{ top: pos.top, right: pos.right }}>
          <div className="dropdown-header">{t('recordList.visibleColumns')}</div>
          {columns.map((c) => (
            <label key={c.name} className="dropdown-item records-column-toggle">
              <input type="checkbox" checked={!hidden.includes(c.name)} onChange={() => onToggle(c.name)} />
              <span>{c.name}</span>
            </label>
          ))}
        </div>
      )}
    </div>
  );
}

type RowProps = {
  record: RecordLike;
  columns: ColumnDef[];
  ctx: CellContext;
  selected: boolean;
  selectable: boolean;
  /** Deleted elsewhere: shown greyed out in place until the next reload. */
  deleted: boolean;
  onOpen: (id: string) => void;
  onToggle: (id: string) => void;
};

export const RecordRow = memo(function RecordRow({ record, columns, ctx, selected, selectable, deleted, onOpen, onToggle }: RowProps) {
  const id = String(record.id ?? '');
  if (deleted) {
    return (
      <tr className="rl-row row-deleted" data-id={id} aria-disabled="true">
        {selectable && <td className="col-select" />}
        {columns.map((c) => (
          <td key={c.name} className={`col-type-${c.type} col-field-${c.name}`}>
            <RecordValue record={record} column={c} ctx={ctx} />
          </td>
        ))}
        <td className="col-action">
          <span className="rl-deleted-label">{t('recordWidget.deleted')}</span>
        </td>
      </tr>
    );
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onOpen(id);
    }
  };
  return (
    <tr
      className={`row-handle rl-row${selected ? ' row-selected' : ''}`}
      tabIndex={0}
      data-id={id}
      aria-label={t('recordList.openRecord', { id })}
      onClick={() => onOpen(id)}
      onKeyDown={onKeyDown}
      onMouseEnter={preloadEditor}
    >
      {selectable && (
        <td className="col-select" onClick={(e) => e.stopPropagation()}>
          <input type="checkbox" aria-label={t('recordList.selectRecord', { id })} checked={selected} onChange={() => onToggle(id)} onKeyDown={(e) => e.stopPropagation()} />
        </td>
      )}
      {columns.map((c) => (
        <td key={c.name} className={`col-type-${c.type} col-field-${c.name}`}>
          <RecordValue record={record} column={c} ctx={ctx} />
        </td>
      ))}
      <td className="col-action" aria-hidden="true">
        ›
      </td>
    </tr>
  );
});
