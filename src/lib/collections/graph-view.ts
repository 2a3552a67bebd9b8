/**
 * The relation graph's view arithmetic: where the drawing sits in its viewport (a translation and
 * a scale), how far it may be zoomed, what is drawn at a scale (full detail, or names only when the
 * small text would fall under READABLE_PX on screen), fitting and centring. Pure: no DOM.
 */
import { GRAPH_TEXT_FONT } from './graph';
import type { Box } from './graph-route';

/** Screen point = graph point × k + (x, y). */
export interface View {
  x: number;
  y: number;
  k: number;
}

interface Size {
  width: number;
  height: number;
}

const MIN_ZOOM = 0.25;
const MAX_ZOOM = 2.5;
/** No text on screen under this size (px). */
const READABLE_PX = 11;
/**
 * Fit never goes under this scale: names drawn at READABLE_PX still hold about 13 characters in a
 * box; a larger graph is panned (drag, wheel, keys) or searched instead of shrunk past reading.
 */
export const MIN_FIT_ZOOM = 0.5;
/** Room kept around the drawing when it is fitted or a node is centred. */
const FIT_MARGIN = 16;
/** How much of the drawing stays on screen whatever the panning. */
const KEEP_VISIBLE = 80;

const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

/** Fields, types and edge labels are drawn only at scales where they stay readable. */
export const showsDetail = (k: number) => GRAPH_TEXT_FONT * k >= READABLE_PX - 1e-9;

/** The scale at which the details show. */
export const DETAIL_ZOOM = READABLE_PX / GRAPH_TEXT_FONT;

/** The font size (graph units) of a collection's name when only names are drawn: READABLE_PX on screen at least. */
export const namesOnlyFontSize = (k: number, base: number) => Math.max(base, (READABLE_PX + 0.5) / k);

/**
 * The whole drawing when it fits at a scale of at least MIN_FIT_ZOOM (centred, never enlarged past
 * 1); else MIN_FIT_ZOOM centred on `anchor` (the most connected collection: a corner of a large
 * layout is often empty) on each axis that does not fit, kept within the drawing.
 */
export function fitView(graph: Size, viewport: Size, anchor?: Box): View {
  const w = Math.max(1, viewport.width - 2 * FIT_MARGIN);
  const h = Math.max(1, viewport.height - 2 * FIT_MARGIN);
  const k = Math.max(MIN_FIT_ZOOM, Math.min(w / Math.max(1, graph.width), h / Math.max(1, graph.height), 1));
  const place = (room: number, size: number, centre: number) => {
    if (size * k <= room - 2 * FIT_MARGIN) return (room - size * k) / 2;
    // the anchor centred, without showing more than the margin beyond either end of the drawing
    return Math.min(FIT_MARGIN, Math.max(room - FIT_MARGIN - size * k, room / 2 - centre * k));
  };
  const a = anchor ?? { x: 0, y: 0, width: 0, height: 0 };
  return { k, x: place(viewport.width, graph.width, a.x + a.width / 2), y: place(viewport.height, graph.height, a.y + a.height / 2) };
}

/** Zooms by `factor` keeping the screen point (px, py) in place. */
export function zoomAt(v: View, factor: number, px: number, py: number): View {
  const k = clampZoom(v.k * factor);
  return { k, x: px - ((px - v.x) * k) / v.k, y: py - ((py - v.y) * k) / v.k };
}

/** Centres `box` (graph units) in the viewport at a scale of at least `minK`. */
export function centreOn(v: View, box: Box, viewport: Size, minK: number): View {
  const k = clampZoom(Math.max(v.k, minK));
  return { k, x: viewport.width / 2 - (box.x + box.width / 2) * k, y: viewport.height / 2 - (box.y + box.height / 2) * k };
}

/** Whether `box` (graph units) is wholly on screen. */
export function isOnScreen(v: View, box: Box, viewport: Size): boolean {
  const x = box.x * v.k + v.x;
  const y = box.y * v.k + v.y;
  return x >= 0 && y >= 0 && x + box.width * v.k <= viewport.width && y + box.height * v.k <= viewport.height;
}

/** Keeps at least KEEP_VISIBLE px of the drawing on screen on each axis. */
export function clampPan(v: View, graph: Size, viewport: Size): View {
  const clamp = (pos: number, size: number, room: number) => {
    const keep = Math.min(KEEP_VISIBLE, size * v.k, room);
    return Math.min(room - keep, Math.max(keep - size * v.k, pos));
  };
  return { k: v.k, x: clamp(v.x, graph.width, viewport.width), y: clamp(v.y, graph.height, viewport.height) };
}
