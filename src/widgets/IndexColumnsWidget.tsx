import type { KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../lib/dom-ids';
import { collectionsState } from '../state/collections';
import './collection-widgets.css';
import { systemFieldNames } from '../lib/collections/fields';

/**
 * The columns of an index: the fields of the collection being edited (from the collections
 * store's draft) as toggle chips, in the order picked. Expressions kept from a loaded statement
 * stay selected and can be removed.
 */
export function IndexColumnsWidget({ id, value, disabled, readonly, rawErrors, onChange, onBlur }: WidgetProps) {
  const { draft } = useSnapshot(collectionsState);
  const selected: string[] = Array.isArray(value) ? (value as string[]) : [];
  const names = draft
    ? [...systemFieldNames(draft.type), ...draft.schema.filter((f) => !f.toDelete && f.name).map((f) => f.name)]
    : [];
  const choices = [...names, ...selected.filter((s) => !names.includes(s))];
  const off = disabled || readonly;
  const toggle = (name: string) => {
    if (off) return;
    onChange(selected.includes(name) ? selected.filter((s) => s !== name) : [...selected, name]);
  };
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, name: string) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      toggle(name);
    }
  };
  return (
    <div
      id={id}
      className={`index-columns${(rawErrors ?? []).some(Boolean) ? ' index-columns--invalid' : ''}`}
      role="group"
      aria-describedby={ariaDescribedByIds(id)}
      onBlur={() => onBlur(id, selected)}
    >
      {choices.map((name) => {
        const pos = selected.indexOf(name);
        return (
          <button
            key={name}
            type="button"
            className={`chip${pos >= 0 ? ' chip--active' : ''}`}
            aria-pressed={pos >= 0}
            disabled={off}
            onClick={() => toggle(name)}
            onKeyDown={(e) => onKey(e, name)}
          >
            {pos >= 0 && <span className="chip-order">{pos + 1}</span>}
            {name}
          </button>
        );
      })}
    </div>
  );
}
