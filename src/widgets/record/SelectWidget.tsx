import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../../lib/dom-ids';
import { t } from '../../ui/i18n';

/** The value after picking `v` in a multiple select: toggled, keeping the last `max` values. */
export function toggleMulti(current: readonly string[], v: string, max: number): string[] {
  if (current.includes(v)) return current.filter((x) => x !== v);
  const next = [...current, v];
  return max > 0 && next.length > max ? next.slice(next.length - max) : next;
}

/**
 * The select field: single or multiple (chips), with a search box above 5 options.
 * A multiple select keeps the last maxSelect values picked.
 */
export function RecordSelectWidget({ id, value, disabled, readonly, required, options, rawErrors, onChange, onBlur }: WidgetProps) {
  const values = useMemo(() => (Array.isArray(options.values) ? options.values : []) as string[], [options.values]);
  const multiple = options.multiple === true;
  const max = Number(options.maxSelect) || 1;
  const searchable = options.searchable === true;
  const selected: string[] = multiple ? (Array.isArray(value) ? (value as string[]) : []) : typeof value === 'string' && value ? [value] : [];
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();
  const locked = disabled || readonly;

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? values.filter((v) => v.toLowerCase().includes(q)) : values;
  }, [values, search]);

  const pick = (v: string) => {
    if (multiple) onChange(toggleMulti(selected, v, max));
    else {
      onChange(selected[0] === v && !required ? '' : v);
      setOpen(false);
    }
  };

  return (
    <div
      ref={root}
      className={`record-select${open ? ' is-open' : ''}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          e.preventDefault();
          setOpen(false);
        }
      }}
    >
      <div className="sf-input record-select-toggle" onClick={() => !locked && setOpen((o) => !o)}>
        {multiple &&
          selected.map((v) => (
            <span className="record-chip" key={v}>
              {v}
              {!locked && (
                <button
                  type="button"
                  className="record-chip-remove"
                  aria-label={t('recordWidget.removeValue', { value: v })}
                  onClick={(e) => {
                    e.stopPropagation();
                    onChange(selected.filter((x) => x !== v));
                  }}
                >
                  ×
                </button>
              )}
            </span>
          ))}
        <button
          type="button"
          id={id}
          className="record-select-button"
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-controls={listId}
          aria-invalid={(rawErrors ?? []).some(Boolean) || undefined}
          aria-describedby={ariaDescribedByIds(id)}
          disabled={locked}
          onClick={(e) => {
            e.stopPropagation();
            setOpen((o) => !o);
          }}
          onBlur={() => onBlur(id, value)}
        >
          {selected.length === 0 ? <span className="txt-hint">{t('form.select')}</span> : !multiple ? selected[0] : <span className="visually-hidden">{selected.join(', ')}</span>}
        </button>
      </div>
      {open && (
        <div className="dropdown record-select-dropdown">
          {searchable && (
            <input
              className="sf-input record-select-search"
              type="search"
              placeholder={t('common.search')}
              aria-label={t('recordWidget.searchOptions')}
              autoFocus
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          )}
          <ul role="listbox" id={listId} aria-multiselectable={multiple || undefined} className="record-select-options">
            {shown.map((v) => {
              const on = selected.includes(v);
              return (
                <li key={v} role="option" aria-selected={on}>
                  <button type="button" className={`dropdown-item${on ? ' is-selected' : ''}`} onClick={() => pick(v)}>
                    <span className="record-select-check" aria-hidden="true">
                      {on ? '✓' : ''}
                    </span>
                    {v}
                  </button>
                </li>
              );
            })}
            {shown.length === 0 && <li className="txt-hint record-select-empty">{t('recordWidget.noOptions')}</li>}
          </ul>
        </div>
      )}
    </div>
  );
}
