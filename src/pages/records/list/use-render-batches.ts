// Rows render in batches of 20 as a sentinel below them comes near the viewport, so a page of 40
// (or a long list after several Load more) does not render all at once.
import { startTransition, useEffect, useRef, useState } from 'react';
import { RECORDS_RENDER_BATCH } from '../../../lib/records/format';
import { scrollParent } from './list-helpers';

export function useRenderBatches(count: number, generation: number) {
  const [limit, setLimit] = useState(RECORDS_RENDER_BATCH);
  const [seen, setSeen] = useState(generation);
  if (seen !== generation) {
    setSeen(generation);
    setLimit(RECORDS_RENDER_BATCH);
  }
  const sentinel = useRef<HTMLDivElement>(null);
  const shown = Math.min(count, limit);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || shown >= count || typeof IntersectionObserver === 'undefined') return;
    // the root is the scrolling ancestor, so the margin renders the next batch before it shows
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) startTransition(() => setLimit((l) => l + RECORDS_RENDER_BATCH));
      },
      { root: scrollParent(el), rootMargin: '0px 0px 400px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [shown, count]);

  return {
    shown,
    sentinel,
    /** Rows arriving after the first `rendered` show their first batch at once. */
    showNextPage: (rendered: number) => setLimit(rendered + RECORDS_RENDER_BATCH),
    /** `n` rows were put on top: render them too and scroll to the top of the list. */
    revealTop: (n: number) => {
      setLimit((l) => l + n);
      const wrapper = sentinel.current?.parentElement;
      if (wrapper) (scrollParent(wrapper) ?? document.scrollingElement)?.scrollTo({ top: 0 });
    },
  };
}
