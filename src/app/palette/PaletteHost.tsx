/**
 * Mounted by the signed-in shell: listens for Ctrl/Cmd+K (palette) and '?' (shortcuts list) and
 * lazy-loads whichever is asked for, so neither adds to the shell's first load (nor the sign-in
 * page's). Also remembers opened records for the palette's "recent records".
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { subscribeLocation } from '../navigation';
import { rememberFromHash } from './recent';
import { isTypingTarget } from './shortcuts';

const CommandPalette = lazy(() => import('./CommandPalette'));
const ShortcutsHelp = lazy(() => import('./ShortcutsHelp'));

export function PaletteHost() {
  const [open, setOpen] = useState<'palette' | 'shortcuts' | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen((o) => (o === 'palette' ? null : 'palette'));
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTypingTarget(e.target)) {
        e.preventDefault();
        setOpen('shortcuts');
      }
    };
    document.addEventListener('keydown', onKey);
    rememberFromHash(window.location.hash);
    const unsub = subscribeLocation(() => rememberFromHash(window.location.hash));
    return () => {
      document.removeEventListener('keydown', onKey);
      unsub();
    };
  }, []);

  const close = () => setOpen(null);
  return (
    <Suspense fallback={null}>
      {open === 'palette' && <CommandPalette onClose={close} />}
      {open === 'shortcuts' && <ShortcutsHelp onClose={close} />}
    </Suspense>
  );
}
