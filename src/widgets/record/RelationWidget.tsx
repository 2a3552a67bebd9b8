import { useEffect, useMemo, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import type { WidgetProps } from '@rjsf/utils';
import { handleError } from '../../api/client';
import type { CollectionModel } from '../../lib/collections/types';
import { relationLabel } from '../../lib/records/format';
import { collectionsState, useCollections } from '../../state/collections';
import { useAccess } from '../../state/permissions';
import { ariaDescribedByIds } from '../../lib/dom-ids';
import { loadRecordsByIds, missingIdsMessage } from './relation-data';
import { RecordsPicker } from './RecordsPicker';
import { t } from '../../ui/i18n';

const toList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

/**
 * The relation field: chips of the related records (presentable fields), the records picker to
 * change them, and ids that no longer exist dropped with a warning.
 */
export function RecordRelationWidget({ id, value, disabled, readonly, options, rawErrors, onChange, onBlur }: WidgetProps) {
  const collections = useCollections();
  const target = useMemo(
    () => (collections.collections as CollectionModel[]).find((c) => c.id === options.collectionId || c.name === options.collectionId) ?? null,
    [collections.collections, options.collectionId],
  );
  const multiple = options.multiple === true;
  const maxSelect = multiple ? (typeof options.maxSelect === 'number' ? options.maxSelect : undefined) : 1;
  const ids = toList(value);
  const [records, setRecords] = useState<Map<string, RecordModel>>(new Map());
  const [missing, setMissing] = useState<string[]>([]);
  const [picker, setPicker] = useState(false);
  const locked = disabled || readonly;
  const key = ids.join(',');
  // a scoped admin whose role does not read the target sees the ids alone (asking would meet 403)
  const access = useAccess();
  const readable = access.full || (!!target && access.records(target, 'read'));

  useEffect(() => {
    const unknown = ids.filter((i) => !records.has(i));
    if (!unknown.length || !options.collectionId || !readable) return;
    let live = true;
    loadRecordsByIds(String(options.collectionId), unknown)
      .then((found) => {
        if (!live) return;
        const next = new Map(records);
        for (const r of found) next.set(r.id, r);
        setRecords(next);
        const gone = unknown.filter((i) => !next.has(i));
        if (gone.length) {
          setMissing(gone);
          const kept = ids.filter((i) => !gone.includes(i));
          onChange(multiple ? kept : (kept[0] ?? ''));
        }
      })
      .catch((err) => live && handleError(err));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, options.collectionId, readable]);

  const set = (list: RecordModel[]) => {
    const next = new Map(records);
    for (const r of list) next.set(r.id, r);
    setRecords(next);
    const chosen = list.map((r) => r.id);
    onChange(multiple ? chosen : (chosen[chosen.length - 1] ?? ''));
  };

  const selected = ids.map((i) => records.get(i)).filter((r): r is RecordModel => !!r);
  return (
    <div className="record-relation">
      <div className="record-relation-chips" id={`${id}-chips`}>
        {ids.map((i) => {
          const r = records.get(i);
          return (
            <span className="record-chip" key={i} title={i}>
              {r ? relationLabel(r, target ?? collectionsState.collections.find((c) => c.id === r.collectionId)) : i}
              {!locked && (
                <button type="button" className="record-chip-remove" aria-label={t('recordWidget.removeValue', { value: i })} onClick={() => onChange(multiple ? ids.filter((x) => x !== i) : '')}>
                  ×
                </button>
              )}
            </span>
          );
        })}
      </div>
      <button
        type="button"
        id={id}
        className="btn btn-secondary btn-sm record-relation-open"
        disabled={locked || !target}
        aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onClick={() => setPicker(true)}
        onBlur={() => onBlur(id, value)}
      >
        {t('recordWidget.openPicker')}
      </button>
      {missing.length > 0 && (
        <div className="alert alert-warning record-relation-warning" role="alert">
          {missingIdsMessage(missing)}
        </div>
      )}
      {target && (
        <RecordsPicker open={picker} collection={target} selected={selected} maxSelect={maxSelect} onClose={() => setPicker(false)} onSet={set} />
      )}
    </div>
  );
}
