// Hidden columns per collection, kept in local storage, so a reload keeps them hidden.
import { useCallback, useState } from 'react';
import { hiddenColumnsKey, parseHiddenColumns } from '../../../lib/records/format';

function read(collectionId: string): string[] {
  try {
    return parseHiddenColumns(localStorage.getItem(hiddenColumnsKey(collectionId)));
  } catch {
    return [];
  }
}

function store(collectionId: string, hidden: string[]): void {
  try {
    if (hidden.length) localStorage.setItem(hiddenColumnsKey(collectionId), JSON.stringify(hidden));
    else localStorage.removeItem(hiddenColumnsKey(collectionId));
  } catch {
    /* storage unavailable */
  }
}

/** The hidden column names of a collection, a toggle and a replace (saved views) that store them. */
export function useHiddenColumns(collectionId: string): [string[], (name: string) => void, (hidden: string[]) => void] {
  const [state, setState] = useState<{ id: string; hidden: string[] }>(() => ({ id: collectionId, hidden: read(collectionId) }));
  // Another collection: re-read during render (no effect round-trip, no flash of wrong columns).
  let current = state;
  if (state.id !== collectionId) {
    current = { id: collectionId, hidden: read(collectionId) };
    setState(current);
  }
  const toggle = useCallback(
    (name: string) => {
      setState((s) => {
        const hidden = s.hidden.includes(name) ? s.hidden.filter((n) => n !== name) : [...s.hidden, name];
        store(s.id, hidden);
        return { id: s.id, hidden };
      });
    },
    [],
  );
  const replace = useCallback((hidden: string[]) => {
    setState((s) => {
      store(s.id, hidden);
      return { id: s.id, hidden: [...hidden] };
    });
  }, []);
  return [current.hidden, toggle, replace];
}
