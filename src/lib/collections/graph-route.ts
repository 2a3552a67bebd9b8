/**
 * Edge routes of the relation graph, from dagre's edge points. dagre lays the graph out in layers
 * (one column per rank, left to right) and gives every edge one point per layer it crosses, placed
 * clear of the boxes and labels of that layer; joined by straight lines, a steep edge still cuts
 * the corner of a box beside such a point. Here an edge crosses each layer horizontally at its
 * point's height, over the layer's whole width, and changes height only in the empty gaps between
 * layers, with a cubic curve whose control points stay inside the gap: no route enters a box it
 * does not connect. Pure geometry: no DOM.
 */

export interface Point {
  x: number;
  y: number;
}

/** A rectangle by its top-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

type RouteSegment = { kind: 'line'; to: Point } | { kind: 'curve'; c1: Point; c2: Point; to: Point };

export interface Route {
  start: Point;
  segments: RouteSegment[];
}

/** How far from a box's corner an edge may leave or enter its side. */
const PORT_INSET = 12;

const clampToSide = (y: number, b: Box) => {
  const inset = Math.min(PORT_INSET, b.height / 2);
  return Math.min(b.y + b.height - inset, Math.max(b.y + inset, y));
};

/** A smooth change of height from `a` to `b` that stays between their x (horizontal at both ends). */
function bend(a: Point, b: Point): RouteSegment {
  if (Math.abs(a.y - b.y) < 0.5) return { kind: 'line', to: b };
  const mx = (a.x + b.x) / 2;
  return { kind: 'curve', c1: { x: mx, y: a.y }, c2: { x: mx, y: b.y }, to: b };
}

/** Where an edge meets a box: the side (right or left) and the height it would like. */
export interface PortRequest {
  box: Box;
  right: boolean;
  y: number;
}

/** The ports of an edge through dagre's `points`: on the side of each box that faces the route. */
export function portRequests(points: readonly Point[], from: Box, to: Box): [PortRequest, PortRequest] {
  const inner = points.slice(1, -1);
  const fromCx = from.x + from.width / 2;
  const toCx = to.x + to.width / 2;
  const first = inner[0] ?? { x: toCx, y: to.y + to.height / 2 };
  const last = inner[inner.length - 1] ?? { x: fromCx, y: from.y + from.height / 2 };
  return [
    { box: from, right: first.x >= fromCx, y: clampToSide(first.y, from) },
    { box: to, right: last.x > toCx, y: clampToSide(last.y, to) },
  ];
}

/**
 * Heights for the ports on one side of one box: each as near its wish as can be while keeping
 * their order and `gap` between neighbours (closer when the side is too short for all of them).
 */
export function spreadPorts(box: Box, wishes: readonly number[], gap = 10): number[] {
  const inset = Math.min(PORT_INSET, box.height / 2);
  const lo = box.y + inset;
  const hi = box.y + box.height - inset;
  const order = wishes.map((_, i) => i).sort((a, b) => wishes[a] - wishes[b]);
  const step = order.length > 1 ? Math.min(gap, (hi - lo) / (order.length - 1)) : 0;
  const ys = order.map((i) => wishes[i]);
  for (let i = 0; i < ys.length; i++) ys[i] = Math.max(ys[i], i ? ys[i - 1] + step : lo);
  for (let i = ys.length - 1; i >= 0; i--) ys[i] = Math.min(ys[i], i < ys.length - 1 ? ys[i + 1] - step : hi);
  const out = new Array<number>(wishes.length);
  order.forEach((i, rank) => (out[i] = ys[rank]));
  return out;
}

/**
 * The route of an edge from box `from` to box `to` through dagre's `points` (its first and last
 * points, on the boxes' borders, are replaced by ports on the sides facing the route, at the given
 * heights). `halfWidthAt(x)` is half the width of the layer centred at x (0 where there is none).
 */
export function channelRoute(points: readonly Point[], from: Box, to: Box, halfWidthAt: (x: number) => number, ports: [number, number]): Route {
  const inner = points.slice(1, -1);
  const fromCx = from.x + from.width / 2;
  const toCx = to.x + to.width / 2;
  const [out, into] = portRequests(points, from, to);
  const start = { x: out.right ? from.x + from.width : from.x, y: ports[0] };
  const end = { x: into.right ? to.x + to.width : to.x, y: ports[1] };
  const segments: RouteSegment[] = [];
  let at: Point = start;
  inner.forEach((p, i) => {
    const prevX = i === 0 ? fromCx : inner[i - 1].x;
    const nextX = i === inner.length - 1 ? toCx : inner[i + 1].x;
    const dir = nextX >= prevX ? 1 : -1;
    const hw = halfWidthAt(p.x);
    const enter = { x: p.x - dir * hw, y: p.y };
    const leave = { x: p.x + dir * hw, y: p.y };
    segments.push(bend(at, enter));
    if (hw > 0) segments.push({ kind: 'line', to: leave });
    at = leave;
  });
  segments.push(bend(at, end));
  return { start, segments };
}

/**
 * Gives every change of height in one gap between layers a track of its own (where its curve turns
 * vertical), spread over the gap's width, so that edges changing height in the same gap run side by
 * side instead of on top of each other. Ordered so that edges going the same way do not cross: of
 * two going down, the one starting higher turns later.
 */
export function spreadTracks(routes: readonly Route[]): void {
  type Bend = { seg: Extract<RouteSegment, { kind: 'curve' }>; from: Point };
  const gaps = new Map<string, Bend[]>();
  for (const r of routes) {
    let at = r.start;
    for (const seg of r.segments) {
      if (seg.kind === 'curve' && Math.abs(seg.c1.y - at.y) < 1e-6 && Math.abs(seg.c2.y - seg.to.y) < 1e-6) {
        const key = `${Math.round(Math.min(at.x, seg.to.x))}:${Math.round(Math.max(at.x, seg.to.x))}:${seg.to.x > at.x ? 'r' : 'l'}`;
        if (!gaps.has(key)) gaps.set(key, []);
        gaps.get(key)!.push({ seg, from: at });
      }
      at = seg.to;
    }
  }
  for (const bends of gaps.values()) {
    if (bends.length < 2) continue;
    const down = (b: Bend) => b.seg.to.y > b.from.y;
    // the first track is nearest the start side: down-goers starting lowest, then up-goers starting highest
    bends.sort((a, b) => Number(down(b)) - Number(down(a)) || (down(a) ? b.from.y - a.from.y : a.from.y - b.from.y));
    bends.forEach((b, i) => {
      const t = (i + 1) / (bends.length + 1);
      const x = b.from.x + (b.seg.to.x - b.from.x) * t;
      b.seg.c1 = { x, y: b.from.y };
      b.seg.c2 = { x, y: b.seg.to.y };
    });
  }
}

/**
 * A relation of a collection to itself: dagre puts its label in the node's own layer, right under
 * the node; the loop leaves the node's bottom near its left corner, runs under it through the label
 * and comes back up near its right corner.
 */
export function loopRoute(node: Box, label: Box): Route {
  const bottom = node.y + node.height;
  const y = label.y + label.height / 2;
  const r = Math.min(8, (y - bottom) / 2);
  const left = Math.max(node.x + 10, label.x - 14);
  const right = Math.min(node.x + node.width - 10, label.x + label.width + 14);
  const k = 0.55 * r; // a quarter circle as a cubic
  return {
    start: { x: left, y: bottom },
    segments: [
      { kind: 'line', to: { x: left, y: y - r } },
      { kind: 'curve', c1: { x: left, y: y - r + k }, c2: { x: left + r - k, y }, to: { x: left + r, y } },
      { kind: 'line', to: { x: right - r, y } },
      { kind: 'curve', c1: { x: right - r + k, y }, c2: { x: right, y: y - r + k }, to: { x: right, y: y - r } },
      { kind: 'line', to: { x: right, y: bottom } },
    ],
  };
}

const num = (v: number) => String(Math.round(v * 10) / 10);
const pt = (p: Point) => `${num(p.x)},${num(p.y)}`;

/** The SVG path data of a route. */
export function routePath(route: Route): string {
  let d = `M${pt(route.start)}`;
  for (const s of route.segments) d += s.kind === 'line' ? ` L${pt(s.to)}` : ` C${pt(s.c1)} ${pt(s.c2)} ${pt(s.to)}`;
  return d;
}
