// The record editor's History tab: the audit trail's entries for this record (server/audit/),
// newest first: who changed which fields when, old and new values, and a button that puts an old
// value back into the form (saved like any edit). Entries exist for changes made with an admin
// token while the trail is on, and for every change when the collection keeps its history.
import { useEffect, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError } from '../../../api/client';
import type { CollectionModel } from '../../../lib/collections/types';
import { FormattedDate } from '../../../ui/FormattedDate';
import { listAudit, type AuditEntry } from '../../audit/audit-api';
import { ChangesTable } from '../../audit/ChangesTable';
import '../../audit/audit.css';
import { t } from '../../../ui/i18n';

const HISTORY_SIZE = 200;

const who = (e: AuditEntry) => (e.actorKind === 'admin' ? e.actorEmail || t('audit.anAdmin') : e.actorKind === 'authRecord' ? e.actorEmail || t('audit.record', { id: e.actorId }) : e.actorKind);

export function RecordHistoryTab({ collection, record, refreshKey, onRestore }: { collection: CollectionModel; record: RecordModel; refreshKey: string; onRestore?: (field: string, value: unknown) => void }) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  useEffect(() => {
    let alive = true;
    listAudit({ area: 'record', collection: collection.id, target: record.id }, 1, HISTORY_SIZE, `record-history-${record.id}`)
      .then((res) => alive && setEntries(res.items))
      .catch(handleError);
    return () => {
      alive = false;
    };
  }, [collection.id, record.id, refreshKey]);

  if (!entries) return <p className="txt-hint">{t('audit.historyLoading')}</p>;
  if (entries.length === 0) {
    return (
      <p className="txt-hint">
        {t('audit.historyEmpty')} <a href="#/audit">{t('audit.historyEmptyLink')}</a>.
      </p>
    );
  }
  return (
    <ol className="record-history" aria-label={t('audit.historyLabel')}>
      {entries.map((e) => (
        <li key={e.id} className="record-history-entry">
          <div className="record-history-head">
            <FormattedDate value={e.created} />
            <span className={`badge audit-action-${e.action}`}>{e.action}</span>
            <span>{t('audit.by', { who: who(e) })}</span>
            {e.ip && <span className="txt-hint">{t('audit.from', { ip: e.ip })}</span>}
          </div>
          <ChangesTable changes={e.changes} onRestore={e.action === 'create' ? undefined : onRestore} />
        </li>
      ))}
    </ol>
  );
}
