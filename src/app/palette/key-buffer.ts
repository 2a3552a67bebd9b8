// Keys typed between Ctrl/Cmd+K and the palette's search box mounting (its chunk may still be
// loading after a page load): caught here, kept from the page (no page shortcut or focused field
// sees them), and handed to the box when it mounts.
let buffered = '';
let listening = false;
let cancel: () => void = () => undefined;

function onKey(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return; // shortcuts (Ctrl+K again) pass
  if (e.key.length === 1) buffered += e.key;
  else if (e.key === 'Backspace') buffered = buffered.slice(0, -1);
  else if (e.key === 'Escape') cancel(); // the palette, not yet shown, is not opened after all
  else if (e.key !== 'Enter') return; // Enter is swallowed: it must not press a control of the page
  e.preventDefault();
  e.stopImmediatePropagation();
}

/** Starts catching typed characters (on the Ctrl/Cmd+K that opens the palette); Esc calls `onEscape`. */
export function startKeyBuffer(onEscape: () => void): void {
  buffered = '';
  cancel = onEscape;
  if (listening) return;
  listening = true;
  window.addEventListener('keydown', onKey, true);
}

/** Stops catching and returns what was typed (the search box calls it as it takes focus). */
export function takeKeyBuffer(): string {
  if (listening) window.removeEventListener('keydown', onKey, true);
  listening = false;
  const text = buffered;
  buffered = '';
  return text;
}
