import type { WidgetProps } from '@rjsf/utils';
import { CopyButton } from '../../ui/CopyButton';
import { ariaDescribedByIds } from '../../lib/dom-ids';
import { t } from '../../ui/i18n';

/** A saved record's id: read-only, with the copy button. */
export function RecordIdWidget({ id, htmlName, value }: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="record-id">
      <input id={id} name={htmlName || id} className="sf-input txt-mono" value={text} readOnly aria-describedby={ariaDescribedByIds(id)} />
      {text && <CopyButton value={text} label={t('recordWidget.copyId')} className="record-id-copy" />}
    </div>
  );
}
