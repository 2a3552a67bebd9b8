// Which component each page key renders, from the screen list (./screens).
import { lazy, type ComponentType, type ReactNode } from 'react';
import { EntryPage } from './EntryPage';
import { SCREENS, type PageKey, type ScreenEntry } from './screens';

type Preloadable = { preload: () => Promise<void> };

/**
 * A page loaded on demand that the router can fetch before showing it (see preloadPage): once its
 * module is in, it renders directly instead of through React.lazy, so the route never suspends
 * (a suspended route shows the loader and React then holds the page back for its reveal throttle).
 */
function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> & Preloadable {
  let loaded: ComponentType<P> | undefined;
  const Lazy = lazy(load);
  function Page(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  const preload = () =>
    load().then(
      (m) => void (loaded = m.default),
      () => undefined, // React.lazy retries and reports the failure when the page renders
    );
  return Object.assign(Page, { preload });
}

type Params = Record<string, string>;
type PageRenderer = ((params: Params) => ReactNode) & Partial<Preloadable>;

// The page modules by file name (the screen list names them; importing them there would tie the
// pages, which import the shell, back to the list).
const PAGE_MODULES = import.meta.glob<{ default: ComponentType<any> }>(['../pages/**/*Page.tsx', '!../pages/NotFoundPage.tsx']);

function renderer(entry: ScreenEntry): PageRenderer {
  if (!entry.module) return () => <EntryPage />;
  const load = PAGE_MODULES[`../pages/${entry.module}.tsx`];
  if (!load) throw new Error(`src/app/screens.ts: no page module src/pages/${entry.module}.tsx`);
  const Page = lazyPage(load);
  return Object.assign((params: Params) => <Page {...(entry.props?.(params) ?? {})} />, { preload: Page.preload });
}

/** How each page key draws, and (for pages on demand) how its module loads ahead. */
export const PAGES = Object.fromEntries(SCREENS.map((s) => [s.page, renderer(s)])) as Record<PageKey, PageRenderer>;

/** Loads a page's module (resolves at once for pages without one); never rejects. */
export function preloadPage(key: PageKey | undefined): Promise<void> {
  return (key && PAGES[key].preload?.()) || Promise.resolve();
}
