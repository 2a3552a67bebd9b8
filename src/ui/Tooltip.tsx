// The dashboard's tooltip: shown on hover and on keyboard focus, dismissed with Esc, placed
// TOOLTIP_OFFSET px below its target (above when there is no room), and announced through
// aria-describedby. Replaces native title attributes, which keyboard users cannot read.
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const TOOLTIP_OFFSET = 5;

export interface TooltipProps {
  text: string | undefined | null;
  children: ReactNode;
  /** Make the wrapper itself focusable (for targets that are not, e.g. a label). */
  focusable?: boolean;
  className?: string;
  /** Red tooltip for error texts (e.g. an index's server error). */
  danger?: boolean;
}

export function Tooltip({ text, children, focusable = false, className = '', danger = false }: TooltipProps) {
  const id = useId();
  const anchor = useRef<HTMLSpanElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        // Esc hides the tooltip only; let it through when nothing is shown
        e.stopPropagation();
        setOpen(false);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);

  useLayoutEffect(() => {
    if (!open || !anchor.current || !tip.current) return;
    const a = anchor.current.getBoundingClientRect();
    const t = tip.current.getBoundingClientRect();
    const below = a.bottom + TOOLTIP_OFFSET;
    const top = below + t.height <= window.innerHeight ? below : Math.max(0, a.top - TOOLTIP_OFFSET - t.height);
    const left = Math.min(Math.max(4, a.left + a.width / 2 - t.width / 2), Math.max(4, window.innerWidth - t.width - 4));
    setPos({ top, left });
  }, [open, text]);

  if (!text) return <>{children}</>;
  const show = () => setOpen(true);
  const hide = () => {
    setOpen(false);
    setPos(null);
  };
  return (
    <span
      ref={anchor}
      className={`tooltip-anchor ${className}`}
      tabIndex={focusable ? 0 : undefined}
      aria-describedby={id}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
    >
      {children}
      {/* always in the DOM (hidden) so aria-describedby resolves; shown in a portal when open */}
      <span id={id} hidden>
        {text}
      </span>
      {open &&
        createPortal(
          <div
            ref={tip}
            role="tooltip"
            className={`tooltip${danger ? ' tooltip-danger' : ''}`}
            style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden', top: 0, left: 0 }}
          >
            {text}
          </div>,
          document.body,
        )}
    </span>
  );
}
