// Every keyboard shortcut of the dashboard, listed by the '?' help. Keep it in step when adding one.
export type Shortcut = { keys: string[]; does: string };

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Ctrl/Cmd', 'K'], does: 'Open the command palette' },
  { keys: ['?'], does: 'Show this list of keyboard shortcuts' },
  { keys: ['↑', '↓', 'Enter'], does: 'Move through and run the palette results' },
  { keys: ['Esc'], does: 'Close the palette, a menu, a panel or a popup' },
  { keys: ['Ctrl/Cmd', 'S'], does: 'Save the record in the record editor' },
  { keys: ['Ctrl/Cmd', 'B / I / U'], does: 'Bold, italic, underline in the rich text editor' },
  { keys: ['↑', '↓'], does: 'Move through the account menu and the search suggestions' },
  { keys: ['←', '→'], does: 'Switch tabs; resize the sidebar from its handle' },
  { keys: ['Enter', 'Space'], does: 'Open the focused row of a list' },
];

/** Key events in a text field belong to the field ('?' is a character there). */
export function isTypingTarget(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}
