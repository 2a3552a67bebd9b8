// Small helpers the records list's hooks share.

export function isAbort(err: unknown): boolean {
  return !!(err && typeof err === 'object' && (err as { isAbort?: boolean }).isAbort);
}

export function statusOf(err: unknown): number {
  return Number((err as { status?: unknown })?.status) || 0;
}

/** Drops empty options: the SDK would send `undefined` as the text 'undefined'. */
export function defined<T extends Record<string, unknown>>(opts: T): Partial<T> {
  return Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

/** The nearest ancestor that scrolls vertically (null: the viewport). */
export function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return p;
  }
  return null;
}

/** The list's query options as the records API and the realtime subscription take them. */
export type ListQuery = { filter: string; sort: string; expand: string; fields: string };
