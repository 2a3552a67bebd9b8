// The read-only record preview of view collections: every column
// of the record with its formatted value, no editing.
import { useEffect, useMemo, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { useSnapshot } from 'valtio';
import { OverlayPanel } from '../../ui/OverlayPanel';
import type { CollectionModel } from '../../lib/collections/types';
import { recordColumns, type RecordLike } from '../../lib/records/format';
import { collectionsState } from '../../state/collections';
import { RecordValue, type CellContext } from './list/cells';
import { pb } from '../../api/client';
import { fieldDefinition } from '../../fields/registry';
import { getFileToken } from '../../api/file-token';
import './list/records-list.css';
import { t } from '../../ui/i18n';
import { tRich } from '../../ui/rich-text';

export type RecordPreviewPanelProps = {
  collection: CollectionModel;
  record: RecordModel | null;
  open: boolean;
  onClose(): void;
};

export default function RecordPreviewPanel({ collection, record, open, onClose }: RecordPreviewPanelProps) {
  const { collections } = useSnapshot(collectionsState);
  const columns = useMemo(() => recordColumns(collection), [collection]);
  const [fileToken, setFileToken] = useState('');
  const hasProtected = collection.schema.some((f) => fieldDefinition(f.type).uploads && f.options?.protected);
  useEffect(() => {
    if (!open || !hasProtected) return;
    let alive = true;
    void getFileToken().then((t) => alive && setFileToken(t));
    return () => {
      alive = false;
    };
  }, [open, hasProtected]);
  const ctx = useMemo<CellContext>(
    () => ({ collection, collectionsById: new Map((collections as unknown as CollectionModel[]).map((c) => [c.id, c])), fileToken, baseUrl: pb.baseUrl }),
    [collection, collections, fileToken],
  );
  return (
    <OverlayPanel
      open={open && !!record}
      onRequestClose={onClose}
      size="md"
      className="rl-preview-panel"
      ariaLabel={t('recordPreview.title', { name: collection.name })}
      header={
        <h4 className="overlay-panel-title">
          {tRich('recordPreview.title', { name: <strong>{collection.name}</strong> })}
        </h4>
      }
      footer={
        <button type="button" className="btn btn-transparent" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      {record && (
        <table className="table rl-preview-table">
          <tbody>
            {columns.map((c) => (
              <tr key={c.name}>
                <th scope="row" className="rl-preview-name">
                  {c.name}
                </th>
                <td className={`col-type-${c.type}`}>
                  <RecordValue record={record as unknown as RecordLike} column={c} ctx={ctx} short={false} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </OverlayPanel>
  );
}
