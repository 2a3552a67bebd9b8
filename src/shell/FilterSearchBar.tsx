// A search bar with filter-key autocomplete (records, logs): suggestions for the identifier at
// the caret (ArrowUp/Down to move, Enter or Tab to accept, Escape to close), a plain term
// normalised on submit, and a quiet inline hint when the server rejected the filter (an invalid
// filter shows no toast).
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { applySuggestion, insideQuotes, suggest, tokenAt } from '../lib/filter-autocomplete';
import { SearchBar } from './SearchBar';
import { t } from '../ui/i18n';

type Suggestions = { items: string[]; start: number; end: number; active: number };
const CLOSED: Suggestions = { items: [], start: 0, end: 0, active: -1 };

export interface FilterSearchBarProps {
  /** The applied filter. */
  value: string;
  /** Keys offered while typing an identifier. */
  keys: readonly string[];
  /** Why the server rejected the applied filter ('' when it did not). */
  invalid: string;
  onSubmit: (filter: string) => void;
  ariaLabel: string;
  placeholder: string;
  /** What a submit applies instead of the trimmed draft (e.g. a plain term normalised into a filter). */
  normalize?: (draft: string) => string;
  className?: string;
}

export function FilterSearchBar({ value, keys, invalid, onSubmit, ariaLabel, placeholder, normalize, className }: FilterSearchBarProps) {
  const [draft, setDraft] = useState(value);
  const [sugs, setSugs] = useState<Suggestions>(CLOSED);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  useEffect(() => setDraft(value), [value]);

  const refresh = (text: string, caret: number) => {
    if (insideQuotes(text, caret)) return setSugs(CLOSED);
    const t = tokenAt(text, caret);
    const items = suggest(keys, t.token);
    setSugs(items.length ? { items, start: t.start, end: t.end, active: -1 } : CLOSED);
  };

  const accept = (key: string) => {
    const next = applySuggestion(draft, sugs.start, sugs.end, key);
    setDraft(next.text);
    setSugs(CLOSED);
    requestAnimationFrame(() => {
      const el = inputRef.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (sugs.items.length === 0) return;
    const n = sugs.items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const delta = e.key === 'ArrowDown' ? 1 : -1;
      setSugs((s) => ({ ...s, active: (s.active + delta + n + (s.active < 0 && delta < 0 ? 1 : 0)) % n }));
    } else if ((e.key === 'Enter' && sugs.active >= 0) || e.key === 'Tab') {
      e.preventDefault();
      accept(sugs.items[Math.max(0, sugs.active)]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setSugs(CLOSED);
    }
  };

  const open = sugs.items.length > 0;
  return (
    <div className={className ? `filter-search ${className}` : 'filter-search'}>
      <SearchBar
        className={invalid ? 'filter-searchbar-invalid' : undefined}
        value={value}
        onSubmit={onSubmit}
        ariaLabel={ariaLabel}
        placeholder={placeholder}
        normalize={normalize}
        draft={draft}
        onDraftChange={(text, caret) => {
          setDraft(text);
          if (caret !== null) refresh(text, caret);
        }}
        onReset={() => setSugs(CLOSED)}
        inputProps={{
          ref: inputRef,
          role: 'combobox',
          'aria-expanded': open,
          'aria-controls': listId,
          'aria-autocomplete': 'list',
          'aria-activedescendant': open && sugs.active >= 0 ? `${listId}-${sugs.active}` : undefined,
          'aria-invalid': invalid ? true : undefined,
          'aria-describedby': invalid ? `${listId}-hint` : undefined,
          onKeyDown,
          onBlur: () => setSugs(CLOSED),
        }}
      />
      <ul id={listId} role="listbox" aria-label={t('search.suggestions')} className="dropdown filter-search-suggestions" hidden={!open}>
        {sugs.items.map((k, i) => (
          <li
            key={k}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === sugs.active}
            className={`dropdown-item${i === sugs.active ? ' active' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              accept(k);
            }}
          >
            <span className="txt-mono">{k}</span>
          </li>
        ))}
      </ul>
      {invalid && (
        <p id={`${listId}-hint`} className="filter-search-hint" role="status">
          {invalid}
        </p>
      )}
    </div>
  );
}
