// The search/filter bar of the lists (admins, collections, records): a search icon, the input, a
// Search button while the draft differs from the applied value, and a clear button. Submitting
// applies the trimmed draft (or `normalize`d one); the draft follows the applied value when it
// changes from outside (the URL).
import { useEffect, useState, type ComponentPropsWithRef, type FormEvent } from 'react';
import { IconClose, IconSearch } from '../ui/icons';
import { t } from '../ui/i18n';

export interface SearchBarProps {
  /** The applied filter. */
  value: string;
  onSubmit: (filter: string) => void;
  ariaLabel: string;
  placeholder: string;
  /** Extra classes of the form (next to `searchbar`). */
  className?: string;
  /** What a submit applies instead of the trimmed draft; the draft then shows it. */
  normalize?: (draft: string) => string;
  /** A controlled draft (e.g. for autocomplete); the bar keeps its own when absent. */
  draft?: string;
  /** The draft changed: typed (with the caret), or set by a submit or clear (caret null). */
  onDraftChange?: (draft: string, caret: number | null) => void;
  /** Called on submit and clear before `onSubmit` (e.g. to close suggestions). */
  onReset?: () => void;
  /** More attributes of the input (combobox roles, key handling, a ref). */
  inputProps?: Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'placeholder' | 'type'>;
}

export function SearchBar({
  value,
  onSubmit,
  ariaLabel,
  placeholder,
  className,
  normalize,
  draft: controlledDraft,
  onDraftChange,
  onReset,
  inputProps,
}: SearchBarProps) {
  const [ownDraft, setOwnDraft] = useState(value);
  const controlled = controlledDraft !== undefined;
  const draft = controlled ? controlledDraft : ownDraft;
  const setDraft = (text: string, caret: number | null = null) => {
    if (!controlled) setOwnDraft(text);
    onDraftChange?.(text, caret);
  };
  useEffect(() => {
    if (!controlled) setOwnDraft(value);
  }, [value, controlled]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onReset?.();
    if (normalize) {
      const next = normalize(draft);
      setDraft(next);
      onSubmit(next);
    } else {
      onSubmit(draft.trim());
    }
  };

  return (
    <form className={className ? `searchbar ${className}` : 'searchbar'} role="search" onSubmit={submit}>
      <span className="searchbar-icon" aria-hidden="true">
        <IconSearch size={16} />
      </span>
      <input
        autoComplete="off"
        spellCheck={false}
        {...inputProps}
        type="text"
        aria-label={ariaLabel}
        placeholder={placeholder}
        value={draft}
        onChange={(e) => setDraft(e.target.value, e.target.selectionStart ?? e.target.value.length)}
      />
      {draft.trim() !== value && (
        <button type="submit" className="btn btn-sm btn-secondary searchbar-submit">
          {t('common.search')}
        </button>
      )}
      {(value || draft) && (
        <button
          type="button"
          className="btn btn-sm btn-transparent btn-circle"
          aria-label={t('search.clear')}
          onClick={() => {
            setDraft('');
            onReset?.();
            onSubmit('');
          }}
        >
          <IconClose size={14} />
        </button>
      )}
    </form>
  );
}
