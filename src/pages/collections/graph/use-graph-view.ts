// The relation graph's pan and zoom: drag, the wheel (scrolls; with Ctrl or ⌘, or a trackpad
// pinch, zooms around the pointer), the arrow keys and + / -; Fit, and centring a node. The
// arithmetic is src/lib/collections/graph-view.ts; panning keeps part of the drawing on screen.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import type { Box } from '../../../lib/collections/graph-route';
import { centreOn, clampPan, fitView, isOnScreen, zoomAt, type View } from '../../../lib/collections/graph-view';

interface Size {
  width: number;
  height: number;
}

const PAN_STEP = 60;
const LINE_PX = 16;

/** `anchor`: where Fit centres a drawing too large to show whole. */
export function useGraphView(area: RefObject<HTMLDivElement | null>, graph: Size, anchor?: Box) {
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const size = useRef(graph);
  size.current = graph;
  const fitAnchor = useRef(anchor);
  fitAnchor.current = anchor;
  const drag = useRef<{ x: number; y: number; vx: number; vy: number; moved: boolean } | null>(null);

  const viewport = useCallback((): Size => ({ width: area.current?.clientWidth ?? 0, height: area.current?.clientHeight ?? 0 }), [area]);
  const update = useCallback((f: (v: View) => View) => setView((v) => clampPan(f(v), size.current, viewport())), [viewport]);

  const fit = useCallback(() => {
    const vp = viewport();
    if (!vp.width || !size.current.width) return;
    setView(fitView(size.current, vp, fitAnchor.current));
  }, [viewport]);

  const zoomBy = useCallback(
    (factor: number) => {
      const vp = viewport();
      update((v) => zoomAt(v, factor, vp.width / 2, vp.height / 2));
    },
    [update, viewport],
  );

  /** Centres a node's box at a scale of at least `minK`. */
  const centre = useCallback((box: Box, minK: number) => update((v) => centreOn(v, box, viewport(), minK)), [update, viewport]);
  /** Brings a box on screen (centred, same scale) unless it is already wholly there. */
  const reveal = useCallback(
    (box: Box) => update((v) => (isOnScreen(v, box, viewport()) ? v : centreOn(v, box, viewport(), v.k))),
    [update, viewport],
  );

  // the wheel scrolls the drawing, or zooms with Ctrl/⌘ (non-passive, so the page itself stays put)
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const unit = e.deltaMode === 1 ? LINE_PX : e.deltaMode === 2 ? el.clientHeight : 1;
      if (e.ctrlKey || e.metaKey) {
        const r = el.getBoundingClientRect();
        update((v) => zoomAt(v, Math.exp(-e.deltaY * unit * 0.002), e.clientX - r.left, e.clientY - r.top));
        return;
      }
      const dx = (e.shiftKey && !e.deltaX ? e.deltaY : e.deltaX) * unit;
      const dy = (e.shiftKey && !e.deltaX ? 0 : e.deltaY) * unit;
      update((v) => ({ ...v, x: v.x - dx, y: v.y - dy }));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [area, update]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!d.moved) e.currentTarget.setPointerCapture(e.pointerId);
    d.moved = true;
    update((v) => ({ ...v, x: d.vx + dx, y: d.vy + dy }));
  };
  const onPointerUp = () => {
    // a drag that moved must not count as a click on the node under the pointer
    const moved = drag.current?.moved;
    drag.current = null;
    if (moved) {
      const stop = (ev: MouseEvent) => {
        ev.stopPropagation();
        ev.preventDefault();
      };
      window.addEventListener('click', stop, { capture: true, once: true });
      setTimeout(() => window.removeEventListener('click', stop, { capture: true }), 0);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      update((v) => ({ ...v, x: v.x + m[0], y: v.y + m[1] }));
    } else if (e.key === '+' || e.key === '=') zoomBy(1.2);
    else if (e.key === '-') zoomBy(1 / 1.2);
  };

  return { view, fit, zoomBy, centre, reveal, handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onKeyDown } };
}
