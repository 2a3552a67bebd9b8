// Every keyboard shortcut of the dashboard, listed by the '?' help. Keep it in step when adding one.
/** `does` and the `keyWords` among `keys` are keys of locales/<lang>/ui.json. */
export type Shortcut = { keys: string[]; does: string; keyWords?: string[] };

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Ctrl/Cmd', 'K'], does: 'shortcuts.palette' },
  { keys: ['?'], does: 'shortcuts.help' },
  { keys: ['↑', '↓', 'Enter'], does: 'shortcuts.results' },
  { keys: ['Esc'], does: 'shortcuts.close' },
  { keys: ['Ctrl/Cmd', 'S'], does: 'shortcuts.save' },
  { keys: ['Ctrl/Cmd', 'B / I / U'], does: 'shortcuts.rich' },
  { keys: ['↑', '↓'], does: 'shortcuts.menus' },
  { keys: ['←', '→'], does: 'shortcuts.tabs' },
  { keys: ['Enter', 'Space'], does: 'shortcuts.row', keyWords: ['Space'] },
];

/** Key events in a text field belong to the field ('?' is a character there). */
export function isTypingTarget(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}
