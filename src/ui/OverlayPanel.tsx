// Overlay panels and popups: remembers the focused element and restores
// it on hide, blocks body scrolling, stacks (z-index 1000 + active panels), closes on Esc or
// backdrop click unless focus is in an input (and unless disabled), before-open/before-hide
// vetoes, focus moves into the panel on open and Tab stays inside it.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { t } from './i18n';

type OverlayPanelSize = 'sm' | 'md' | 'lg' | 'popup';

export type OverlayPanelProps = {
  open: boolean;
  /** Called when the user asks to close (Esc, backdrop, close button) and beforeHide allowed it. */
  onRequestClose: () => void;
  header?: ReactNode;
  footer?: ReactNode;
  size?: OverlayPanelSize;
  /** Return false to veto opening (onRequestClose is then called so the parent can reset `open`). */
  beforeOpen?: () => boolean;
  /** Return (or resolve) false to veto a user close. Not called when the parent sets open=false. */
  beforeHide?: () => boolean | Promise<boolean>;
  escClose?: boolean;
  overlayClose?: boolean;
  showCloseButton?: boolean;
  className?: string;
  /** Accessible name when the header is not plain text. */
  ariaLabel?: string;
  onShow?: () => void;
  onHide?: () => void;
  children?: ReactNode;
};

const OVERLAY_BASE_Z = 1000;

// Ids of the active panels, in opening order (the last one is on top).
const activeStack: string[] = [];

function updateBodyLock(): void {
  if (typeof document === 'undefined') return;
  document.body.classList.toggle('overlay-active', activeStack.length > 0);
}

export function isTopOverlay(id: string): boolean {
  return activeStack[activeStack.length - 1] === id;
}

/** PocketBase's rule: Esc and backdrop clicks are ignored while focus is in a form input. */
function isInputElement(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (el as HTMLElement).isContentEditable === true;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('disabled') && el.getAttribute('aria-hidden') !== 'true',
  );
}

export function OverlayPanel(props: OverlayPanelProps) {
  const {
    open,
    header,
    footer,
    size = 'md',
    escClose = true,
    overlayClose = true,
    showCloseButton = true,
    className,
    ariaLabel,
    children,
  } = props;
  const id = useId();
  const titleId = `${id}-title`;
  const [active, setActive] = useState(false);
  const [zIndex, setZIndex] = useState(OVERLAY_BASE_Z);
  const panelRef = useRef<HTMLDivElement>(null);
  const previousFocus = useRef<Element | null>(null);
  const closing = useRef(false);

  // Latest callbacks without re-running the open/close effect.
  const callbacks = useRef(props);
  useLayoutEffect(() => {
    callbacks.current = props;
  });

  useLayoutEffect(() => {
    if (!open) return;
    const cb = callbacks.current;
    if (cb.beforeOpen && cb.beforeOpen() === false) {
      cb.onRequestClose();
      return;
    }
    previousFocus.current = document.activeElement;
    activeStack.push(id);
    updateBodyLock();
    setZIndex(OVERLAY_BASE_Z + activeStack.length);
    setActive(true);
    cb.onShow?.();
    return () => {
      const idx = activeStack.indexOf(id);
      if (idx >= 0) activeStack.splice(idx, 1);
      updateBodyLock();
      setActive(false);
      closing.current = false;
      const prev = previousFocus.current as HTMLElement | null;
      previousFocus.current = null;
      if (prev && prev.isConnected && typeof prev.focus === 'function') prev.focus();
      callbacks.current.onHide?.();
    };
  }, [open, id]);

  // Move focus into the panel unless something inside already took it (autoFocus).
  useEffect(() => {
    if (!active) return;
    const panel = panelRef.current;
    if (panel && !panel.contains(document.activeElement)) panel.focus();
  }, [active]);

  const requestClose = useCallback(async () => {
    if (closing.current) return;
    closing.current = true;
    try {
      const before = callbacks.current.beforeHide;
      if (before) {
        const ok = await before();
        if (ok === false) return;
      }
      callbacks.current.onRequestClose();
    } finally {
      closing.current = false;
    }
  }, []);

  useEffect(() => {
    if (!active || !escClose) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (!isTopOverlay(id)) return;
      if (isInputElement(document.activeElement)) return;
      e.preventDefault();
      void requestClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, escClose, id, requestClose]);

  const onBackdropClick = () => {
    if (!overlayClose || !isTopOverlay(id)) return;
    if (isInputElement(document.activeElement)) return;
    void requestClose();
  };

  // Keep Tab inside the top panel.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab' || !isTopOverlay(id) || !panelRef.current) return;
    const items = focusables(panelRef.current);
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const current = document.activeElement;
    if (e.shiftKey && (current === first || current === panelRef.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && current === last) {
      e.preventDefault();
      first.focus();
    }
  };

  if (!open || !active || typeof document === 'undefined') return null;

  const labelled = typeof header === 'string' || typeof header === 'number';
  return createPortal(
    <div className={`overlay-panel-container overlay-${size}`} style={{ zIndex }} data-overlay-id={id}>
      <div className="overlay-backdrop" onClick={onBackdropClick} aria-hidden="true" />
      <div
        ref={panelRef}
        className={`overlay-panel overlay-panel-${size}${className ? ' ' + className : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelled ? titleId : undefined}
        aria-label={!labelled ? ariaLabel : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {showCloseButton && (
          <button
            type="button"
            className="overlay-close"
            aria-label={t('common.close')}
            onClick={() => void requestClose()}
          >
            ×
          </button>
        )}
        {header !== undefined && header !== null && (
          <header className="overlay-panel-header">
            {labelled ? (
              <h4 id={titleId} className="overlay-panel-title">
                {header}
              </h4>
            ) : (
              header
            )}
          </header>
        )}
        <div className="overlay-panel-content">{children}</div>
        {footer !== undefined && footer !== null && <footer className="overlay-panel-footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
