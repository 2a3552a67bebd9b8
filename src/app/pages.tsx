// Which component each page key renders, from the screen list (./screens).
import type { ComponentType, ReactNode } from 'react';
import { EntryPage } from './EntryPage';
import { lazyComponent, type Preloadable } from './lazy-component';
import { SCREENS, type PageKey, type ScreenEntry } from '../shell/screens';

type Params = Record<string, string>;
type PageRenderer = ((params: Params) => ReactNode) & Partial<Preloadable>;

// The page modules by file name (the screen list names them; importing them there would tie the
// pages, which import the shell, back to the list).
const PAGE_MODULES = import.meta.glob<{ default: ComponentType<any> }>(['../pages/**/*Page.tsx', '!../pages/NotFoundPage.tsx']);

function renderer(entry: ScreenEntry): PageRenderer {
  if (!entry.module) return () => <EntryPage />;
  const load = PAGE_MODULES[`../pages/${entry.module}.tsx`];
  if (!load) throw new Error(`src/shell/screens.ts: no page module src/pages/${entry.module}.tsx`);
  const Page = lazyComponent(load);
  return Object.assign((params: Params) => <Page {...(entry.props?.(params) ?? {})} />, { preload: Page.preload });
}

/** How each page key draws, and (for pages on demand) how its module loads ahead. */
export const PAGES = Object.fromEntries(SCREENS.map((s) => [s.page, renderer(s)])) as Record<PageKey, PageRenderer>;

/** Loads a page's module (resolves at once for pages without one); never rejects. */
export function preloadPage(key: PageKey | undefined): Promise<void> {
  return (key && PAGES[key].preload?.()) || Promise.resolve();
}
