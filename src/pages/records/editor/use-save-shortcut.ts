import { useEffect, useRef } from 'react';
import { isTopOverlay } from '../../../ui/OverlayPanel';

/** Ctrl/Cmd+S saves while the editor is open, unless another panel (a nested editor) is on top of it. */
export function useSaveShortcut(open: boolean, formId: string, save: () => void): void {
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        const overlay = document.getElementById(formId)?.closest('[data-overlay-id]')?.getAttribute('data-overlay-id');
        if (overlay && !isTopOverlay(overlay)) return;
        e.preventDefault();
        saveRef.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, formId]);
}
