// One collection's side-by-side diff: the stored JSON on the left, the JSON after the import on
// the right, changed lines highlighted, long unchanged runs folded (click to unfold).
import { useMemo, useState } from 'react';
import {
  collectionJson,
  diffLines,
  foldUnchanged,
  type CollectionChange,
  type DiffLine,
  type DiffRow,
} from '../../../lib/collections-import';
import { ChangeBadge } from './ChangeBadge';
import { t } from '../../../ui/i18n';

function Cell({ line, side, type }: { line: DiffLine | null; side: 'old' | 'new'; type: DiffRow['type'] }) {
  const marked = line && type !== 'same';
  const cls = !line ? 'diff-empty' : marked ? (side === 'old' ? 'diff-del' : 'diff-ins') : '';
  return (
    <>
      <td className={`diff-no ${cls}`} aria-hidden="true">
        {line?.no ?? ''}
      </td>
      <td className={`diff-code ${cls}`} data-side={side}>
        {marked && (
          <span className="visually-hidden">{t(side === 'old' ? 'import.removedLine' : 'import.addedLine')}</span>
        )}
        {line?.text ?? ''}
      </td>
    </>
  );
}

export function CollectionDiff({ change }: { change: CollectionChange }) {
  const [unfolded, setUnfolded] = useState<Set<number>>(new Set());
  const rows = useMemo(
    () => diffLines(collectionJson(change.old), collectionJson(change.new, change.old)),
    [change],
  );
  const items = useMemo(() => foldUnchanged(rows, 3), [rows]);
  const titleId = `diff-title-${change.id}`;

  return (
    <section className="diff-section" aria-labelledby={titleId} data-testid="collection-diff">
      <h5 className="diff-title" id={titleId}>
        <ChangeBadge kind={change.kind} />
        {change.oldName && (
          <>
            <span className="txt-hint txt-strike">{change.oldName}</span>
            <span className="txt-hint" aria-label={t('import.renamedTo')}>
              →
            </span>
          </>
        )}
        <strong>{change.name}</strong>
        <span className="txt-hint txt-sm txt-mono">({change.id})</span>
      </h5>
      <div className="diff-scroll">
        <table className="diff-table">
          <colgroup>
            <col className="diff-col-no" />
            <col className="diff-col-code" />
            <col className="diff-col-no" />
            <col className="diff-col-code" />
          </colgroup>
          <thead>
            <tr>
              <th colSpan={2} scope="colgroup">
                {t('import.current')}
              </th>
              <th colSpan={2} scope="colgroup">
                {t('import.after')}
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => {
              if (item.kind === 'skip' && !unfolded.has(item.from)) {
                return (
                  <tr key={'skip' + item.from} className="diff-fold">
                    <td colSpan={4}>
                      <button
                        type="button"
                        className="diff-fold-button"
                        onClick={() => setUnfolded((s) => new Set(s).add(item.from))}
                      >
                        {t('import.showUnchanged', { count: item.count })}
                      </button>
                    </td>
                  </tr>
                );
              }
              const list = item.kind === 'skip' ? rows.slice(item.from, item.from + item.count) : [item.row];
              return list.map((row, k) => (
                <tr key={`${i}-${k}`} className={`diff-row diff-row-${row.type}`}>
                  <Cell line={row.left} side="old" type={row.type} />
                  <Cell line={row.right} side="new" type={row.type} />
                </tr>
              ));
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
