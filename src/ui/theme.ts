/**
 * Light/dark theme. With nothing stored the CSS follows `prefers-color-scheme` (tokens.css); a
 * choice made in the avatar menu is stored locally and set as `data-theme` on <html>.
 * The built index.html loads a small external script first (scripts/vite-plugin-boot-script.ts)
 * that sets it before the first paint; `applyStoredTheme()` runs from main.tsx before React
 * renders anything (the dev server, and a choice changed in another tab meanwhile).
 */
import { useSyncExternalStore } from 'react';
import { THEME_STORAGE_KEY } from '../lib/theme-key';

export type Theme = 'light' | 'dark';

const listeners = new Set<() => void>();
const media = (): MediaQueryList | null =>
  typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function storedTheme(): Theme | null {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'dark' || v === 'light' ? v : null;
  } catch {
    return null; // storage disabled: follow the system
  }
}

/** The theme in effect: the stored choice, else the system preference. */
function currentTheme(): Theme {
  return storedTheme() ?? (media()?.matches ? 'dark' : 'light');
}

export function applyStoredTheme(): void {
  const t = storedTheme();
  if (t) document.documentElement.dataset.theme = t;
  else delete document.documentElement.dataset.theme;
}

function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    /* not remembered, still applied for this page */
  }
  document.documentElement.dataset.theme = theme;
  listeners.forEach((l) => l());
}

export function toggleTheme(): void {
  setTheme(currentTheme() === 'dark' ? 'light' : 'dark');
}

function subscribeTheme(cb: () => void): () => void {
  listeners.add(cb);
  const mq = media();
  mq?.addEventListener('change', cb);
  return () => {
    listeners.delete(cb);
    mq?.removeEventListener('change', cb);
  };
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribeTheme, currentTheme, () => 'light');
}
