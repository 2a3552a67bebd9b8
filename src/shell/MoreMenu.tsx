// The "⋯" actions menu of the editor panels: a button that toggles a dropdown of menu items,
// closed by an outside click, Escape (without closing the panel) or choosing an item.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { IconDots } from '../ui/icons';
import { t } from '../ui/i18n';

export interface MoreMenuProps {
  /** Accessible name of the toggle button. */
  label?: string;
  /** Class of the wrapper (positions the dropdown). */
  className?: string;
  /** Class added to the dropdown. */
  dropdownClassName?: string;
  /** Move focus to the first item when the menu opens (keyboard users land in the menu). */
  focusFirst?: boolean;
  /** The items; `close` hides the menu (call it before the item's action). */
  children: (close: () => void) => ReactNode;
}

export function MoreMenu({ label = t('common.moreActions'), className, dropdownClassName, focusFirst = false, children }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    if (focusFirst) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, focusFirst]);

  const close = () => setOpen(false);
  return (
    <div className={className} ref={ref}>
      <button
        type="button"
        className="btn btn-transparent btn-sm btn-circle"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <IconDots />
      </button>
      {open && (
        <div
          className={`dropdown${dropdownClassName ? ' ' + dropdownClassName : ''}`}
          role="menu"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}
