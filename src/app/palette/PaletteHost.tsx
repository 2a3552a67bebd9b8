/**
 * Mounted by the signed-in shell: listens for Ctrl/Cmd+K (palette) and '?' (shortcuts list) and
 * lazy-loads whichever is asked for, so neither adds to the shell's first load (nor the sign-in
 * page's); keys typed while the palette's chunk loads are kept for its search box (key-buffer.ts).
 * Also remembers opened records for the palette's "recent records". Opening the palette asks for the
 * collections list when it is not loaded (or stale) while the palette's chunk loads: on any screen
 * but the records one nothing else may have loaded it.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { subscribeLocation } from '../../shell/navigation';
import { ensureCollections } from '../../state/collections';
import { startKeyBuffer, takeKeyBuffer } from './key-buffer';
import { rememberFromHash } from './recent';
import { isTypingTarget } from './shortcuts';

const CommandPalette = lazy(() => import('./CommandPalette'));
const ShortcutsHelp = lazy(() => import('./ShortcutsHelp'));

export function PaletteHost() {
  const [open, setOpen] = useState<'palette' | 'shortcuts' | null>(null);
  const openRef = useRef(open);
  openRef.current = open;
  const close = () => {
    takeKeyBuffer();
    setOpen((openRef.current = null));
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        // the code editors (ace: the SQL console, filters, rules) bind Ctrl+K themselves and stop it
        e.stopPropagation();
        if (openRef.current === 'palette') {
          takeKeyBuffer(); // closed before its box mounted: drop what was caught
          setOpen((openRef.current = null));
        } else {
          startKeyBuffer(close); // the keys typed until the search box mounts go into it, not to the page
          void ensureCollections();
          setOpen((openRef.current = 'palette'));
        }
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTypingTarget(e.target)) {
        e.preventDefault();
        setOpen('shortcuts');
      }
    };
    // capture: seen before an editor in focus takes the key (ace's Ctrl+K is 'find next')
    document.addEventListener('keydown', onKey, true);
    rememberFromHash(window.location.hash);
    const unsub = subscribeLocation(() => rememberFromHash(window.location.hash));
    return () => {
      document.removeEventListener('keydown', onKey, true);
      unsub();
    };
  }, []);

  return (
    <Suspense fallback={null}>
      {open === 'palette' && <CommandPalette onClose={close} />}
      {open === 'shortcuts' && <ShortcutsHelp onClose={close} />}
    </Suspense>
  );
}
