// The records search/filter bar (the shared SearchBar): autocomplete of field paths and macros, Enter applies. A plain
// term is normalised (spec §5) into an OR of contains matches before it goes to the URL.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { SearchBar } from '../../../app/SearchBar';
import { normalizeSearchFilter } from '../../../lib/filter-normalize';
import type { CollectionModel } from '../../../lib/collections/types';
import { searchableFields } from '../../../lib/records/format';
import { collectionsState } from '../../../state/collections';
import { applySuggestion, insideQuotes, searchAutocompleteKeys, suggest, tokenAt } from './autocomplete';

type Suggestions = { items: string[]; start: number; end: number; active: number };
const CLOSED: Suggestions = { items: [], start: 0, end: 0, active: -1 };

export function RecordsSearchBar({
  collection,
  value,
  invalid,
  onSubmit,
}: {
  collection: CollectionModel;
  value: string;
  /** The server rejected the current filter (400): the bar is marked invalid, never a toast. */
  invalid: string;
  onSubmit: (filter: string) => void;
}) {
  const { collections } = useSnapshot(collectionsState);
  const [draft, setDraft] = useState(value);
  const [sugs, setSugs] = useState<Suggestions>(CLOSED);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  useEffect(() => setDraft(value), [value]);

  const keys = useMemo(
    () => searchAutocompleteKeys(collection, collections as unknown as CollectionModel[]),
    [collection, collections],
  );

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
    <div className="records-search">
      <SearchBar
        className={`records-searchbar${invalid ? ' records-searchbar-invalid' : ''}`}
        value={value}
        onSubmit={onSubmit}
        ariaLabel="Search records"
        placeholder={`Search term or filter like created > "2022-01-01"...`}
        normalize={(text) => normalizeSearchFilter(text, searchableFields(collection))}
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
          title: invalid || undefined,
          onKeyDown,
          onBlur: () => setSugs(CLOSED),
        }}
      />
      <ul id={listId} role="listbox" aria-label="Filter suggestions" className="dropdown records-search-suggestions" hidden={!open}>
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
        <p id={`${listId}-hint`} className="records-filter-hint visually-hidden">
          {invalid}
        </p>
      )}
    </div>
  );
}
