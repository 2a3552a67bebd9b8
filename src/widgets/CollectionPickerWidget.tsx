import { useSnapshot } from 'valtio';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { collectionsState } from '../state/collections';
import { sortCollections } from '../lib/collections/list';
import { t } from '../ui/i18n';

/**
 * Picks a collection by id. The choices are not in the schema: they come from the collections
 * store at run time (`ui:options.excludeViews` leaves view collections out, as relation targets
 * must; `ui:options.allOption` offers '*' under that label, as a role's line for every collection). The collection being edited is offered too when it already exists (self relations).
 */
export function CollectionPickerWidget({ id, htmlName, value, disabled, readonly, autofocus, placeholder, required, options, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const snap = useSnapshot(collectionsState);
  const excludeViews = options.excludeViews === true;
  const list = sortCollections(snap.collections.filter((c) => !excludeViews || c.type !== 'view'));
  const known = list.some((c) => c.id === value);
  return (
    <select
      id={id}
      name={htmlName || id}
      className="sf-input sf-select"
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      required={required}
      aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue ?? '' : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    >
      <option value="">{placeholder || t('form.selectCollection')}</option>
      {typeof options.allOption === 'string' && <option value="*">{options.allOption}</option>}
      {!known && value !== '*' && typeof value === 'string' && value !== '' && <option value={value}>{t('form.missingValue', { value })}</option>}
      {list.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </select>
  );
}
