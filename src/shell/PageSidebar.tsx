// The secondary (page) sidebar of the admin layout, resizable by dragging its handle or with the
// arrow keys on the handle; the width is remembered in localStorage under @adminSidebarWidth.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { t } from '../ui/i18n';

const SIDEBAR_WIDTH_KEY = '@adminSidebarWidth';
const SIDEBAR_MIN_WIDTH = 200;
const SIDEBAR_MAX_WIDTH = 480;
const SIDEBAR_DEFAULT_WIDTH = 250;

function clampSidebarWidth(w: number): number {
  if (!Number.isFinite(w)) return SIDEBAR_DEFAULT_WIDTH;
  return Math.round(Math.min(SIDEBAR_MAX_WIDTH, Math.max(SIDEBAR_MIN_WIDTH, w)));
}

function readSidebarWidth(): number {
  try {
    const raw = window.localStorage.getItem(SIDEBAR_WIDTH_KEY);
    if (raw) return clampSidebarWidth(parseFloat(raw));
  } catch {
    /* storage unavailable */
  }
  return SIDEBAR_DEFAULT_WIDTH;
}

function saveSidebarWidth(w: number): void {
  try {
    window.localStorage.setItem(SIDEBAR_WIDTH_KEY, String(w));
  } catch {
    /* storage unavailable */
  }
}

export function PageSidebar({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
  const [width, setWidth] = useState(readSidebarWidth);
  // Phones (responsive.css): the sidebar folds into a menu button above the page.
  const [menuOpen, setMenuOpen] = useState(false);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  const widthRef = useRef(width);

  useEffect(() => {
    widthRef.current = width;
  }, [width]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    drag.current = { startX: e.clientX, startWidth: widthRef.current };
    e.currentTarget.setPointerCapture?.(e.pointerId);
    document.body.classList.add('sidebar-resizing');
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setWidth(clampSidebarWidth(drag.current.startWidth + e.clientX - drag.current.startX));
  };
  const endDrag = useCallback(() => {
    if (!drag.current) return;
    drag.current = null;
    document.body.classList.remove('sidebar-resizing');
    saveSidebarWidth(widthRef.current);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 50 : 10;
    let next: number | null = null;
    if (e.key === 'ArrowLeft') next = width - step;
    else if (e.key === 'ArrowRight') next = width + step;
    else if (e.key === 'Home') next = SIDEBAR_MIN_WIDTH;
    else if (e.key === 'End') next = SIDEBAR_MAX_WIDTH;
    if (next === null) return;
    e.preventDefault();
    const w = clampSidebarWidth(next);
    setWidth(w);
    saveSidebarWidth(w);
  };

  return (
    <aside className={`page-sidebar${className ? ' ' + className : ''}${menuOpen ? ' is-open' : ''}`} style={{ width }} aria-label={label}>
      <button type="button" className="btn btn-secondary page-sidebar-toggle" aria-expanded={menuOpen} onClick={() => setMenuOpen((v) => !v)}>
        <span aria-hidden="true">☰</span> {label ?? t('common.menu')}
      </button>
      <div
        className="page-sidebar-content"
        onClick={(e) => {
          // a picked link or item closes the phone menu
          if ((e.target as HTMLElement).closest('a, .sidebar-list-item')) setMenuOpen(false);
        }}
      >
        {children}
      </div>
      <div
        className="page-sidebar-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label={t('sidebar.resize')}
        aria-valuenow={width}
        aria-valuemin={SIDEBAR_MIN_WIDTH}
        aria-valuemax={SIDEBAR_MAX_WIDTH}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onLostPointerCapture={endDrag}
        onKeyDown={onKeyDown}
        title={t('sidebar.drag')}
      />
    </aside>
  );
}
