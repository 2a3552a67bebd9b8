import { lazy, type ComponentType } from 'react';

export type Preloadable = { preload: () => Promise<void> };

/**
 * A component loaded on demand that can be fetched before it is shown (`preload`, e.g. the router
 * before showing a route): once its module is in, it renders directly instead of through
 * React.lazy, so it never suspends (a suspended route shows the loader and React then holds the
 * page back for its reveal throttle).
 */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> & Preloadable {
  let loaded: ComponentType<P> | undefined;
  const Lazy = lazy(load);
  function OnDemand(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  const preload = () =>
    load().then(
      (m) => void (loaded = m.default),
      () => undefined, // React.lazy retries and reports the failure when it renders
    );
  return Object.assign(OnDemand, { preload });
}
