// The changed fields of one audit entry: field, old value, new value; with `onRestore`, a button
// per field that puts the old value back (the record editor's History tab).
import type { AuditChange } from './audit-api';
import { showValue } from './audit-api';
import { t } from '../../ui/i18n';

export function ChangesTable({ changes, onRestore }: { changes: Record<string, AuditChange>; onRestore?: (field: string, value: unknown) => void }) {
  const rows = Object.entries(changes);
  if (rows.length === 0) return <p className="txt-hint txt-sm">{t('audit.noChange')}</p>;
  return (
    <table className="audit-changes">
      <thead>
        <tr>
          <th scope="col">{t('audit.field')}</th>
          <th scope="col">{t('audit.oldValue')}</th>
          <th scope="col">{t('audit.newValue')}</th>
          {onRestore && <th scope="col"><span className="visually-hidden">{t('audit.restore')}</span></th>}
        </tr>
      </thead>
      <tbody>
        {rows.map(([field, c]) => (
          <tr key={field}>
            <th scope="row">
              <code>{field}</code>
            </th>
            <td className="audit-old">{showValue(c.old)}</td>
            <td className="audit-new">{showValue(c.new)}</td>
            {onRestore && (
              <td>
                {c.old !== null && c.old !== '******' && (
                  <button type="button" className="btn btn-sm btn-secondary" onClick={() => onRestore(field, c.old)} aria-label={t('audit.useOldValueOf', { field })}>
                    {t('audit.useOldValue')}
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
