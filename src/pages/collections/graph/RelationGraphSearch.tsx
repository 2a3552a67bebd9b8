// The relation graph's search box: a combobox listing the collections whose name holds what is
// typed (↑/↓ to move, Enter to pick, Esc to close the list, then to clear). Picking one centres
// the graph on it and highlights it with its neighbours.
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { findNodes, type GraphNode } from '../../../lib/collections/graph';
import { IconClose, IconSearch } from '../../../ui/icons';
import { t } from '../../../ui/i18n';

interface Props {
  nodes: readonly GraphNode[];
  /** The picked collection's id. */
  picked: string | null;
  onPick: (node: GraphNode) => void;
  onClear: () => void;
}

export function RelationGraphSearch({ nodes, picked, onPick, onClear }: Props) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const id = useId();
  const matches = useMemo(() => findNodes(nodes, text), [nodes, text]);
  const expanded = open && matches.length > 0;
  const current = Math.min(active, matches.length - 1);

  const pick = (n: GraphNode) => {
    setText(n.name);
    setOpen(false);
    onPick(n);
  };
  const clear = () => {
    setText('');
    setOpen(false);
    onClear();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!expanded) {
        setOpen(true);
        setActive(0);
      } else setActive((a) => (Math.min(a, matches.length - 1) + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const m = matches[Math.max(0, current)];
      if (m) pick(m);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (expanded) setOpen(false);
      else clear();
    }
  };

  return (
    <div className="rg-search" role="search">
      <span className="rg-search-icon" aria-hidden="true">
        <IconSearch size={14} />
      </span>
      <input
        type="text"
        role="combobox"
        className="rg-search-input"
        aria-label={t('graph.find')}
        placeholder={t('graph.find')}
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-activedescendant={expanded && current >= 0 ? `${id}-${current}` : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {(picked || text) && (
        <button type="button" className="rg-search-clear" aria-label={t('graph.clearSearch')} onClick={clear}>
          <IconClose size={14} />
        </button>
      )}
      <ul id={`${id}-list`} role="listbox" aria-label={t('page.collections')} className="rg-search-list" hidden={!expanded}>
        {matches.map((n, i) => (
          <li
            key={n.id}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === current}
            className={i === current ? 'rg-search-option active' : 'rg-search-option'}
            // keep the focus in the input (its blur would close the list before the click)
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(n)}
          >
            <span>{n.name}</span>
            <span className="txt-hint">{n.type}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
