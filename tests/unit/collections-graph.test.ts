// The relation graph's layout (src/lib/collections/graph*.ts): relation fields bundled per
// (source, target) pair with one label, labels placed by dagre without overlapping one another or
// a box, routes that never enter a box they do not connect (sampled along their segments), ports
// spread along a side, loops under their box; the view arithmetic (fit with a floor, names only
// under 11 px) and the search helpers.
import { describe, expect, it } from 'vitest';
import { findNodes, labelLines, mostConnected, neighbourhood, relationGraph, type RelationGraph } from '../../src/lib/collections/graph';
import { spreadPorts, type Box, type Point, type Route } from '../../src/lib/collections/graph-route';
import { fitText, textWidth } from '../../src/lib/collections/graph-text';
import { DETAIL_ZOOM, MIN_FIT_ZOOM, clampPan, fitView, namesOnlyFontSize, showsDetail, zoomAt } from '../../src/lib/collections/graph-view';
import { generatedCollections } from '../helpers/graph-collections';

type Field = { name: string; type: string; required?: boolean; options?: Record<string, unknown> };
const col = (id: string, name: string, schema: Field[], type = 'base') => ({ id, name, type, schema }) as never;
const rel = (name: string, collectionId: string, maxSelect: number | null = 1, cascadeDelete = false): Field => ({
  name,
  type: 'relation',
  options: { collectionId, maxSelect, cascadeDelete },
});

// the fixture's shape: demo4 has eight relations to demo3 and two to itself, demo5 two to demo4
const demo3 = col('demo3', 'demo3', [{ name: 'title', type: 'text' }]);
const demo4 = col('demo4', 'demo4', [
  rel('rel_one_no_cascade', 'demo3'),
  rel('rel_one_no_cascade_required', 'demo3'),
  rel('rel_one_cascade', 'demo3', 1, true),
  rel('rel_many_no_cascade', 'demo3', null),
  rel('rel_many_no_cascade_required', 'demo3', null),
  rel('rel_many_cascade', 'demo3', null, true),
  rel('rel_one_unique', 'demo3'),
  rel('rel_many_unique', 'demo3', null),
  rel('self_rel_one', 'demo4'),
  rel('self_rel_many', 'demo4', null),
]);
const demo5 = col('demo5', 'demo5', [rel('rel_one', 'demo4'), rel('rel_many', 'demo4', 5)]);
const lonely = col('lonely', 'nologin', [{ name: 'name', type: 'text' }], 'auth');
const small = () => relationGraph([demo3, demo4, demo5, lonely]);

/** Points every ~2 units along a route. */
function sample(route: Route): Point[] {
  const out: Point[] = [];
  let a = route.start;
  for (const s of route.segments) {
    for (let i = 0; i <= 40; i++) {
      const t = i / 40;
      const u = 1 - t;
      if (s.kind === 'line') out.push({ x: a.x + (s.to.x - a.x) * t, y: a.y + (s.to.y - a.y) * t });
      else
        out.push({
          x: u * u * u * a.x + 3 * u * u * t * s.c1.x + 3 * u * t * t * s.c2.x + t * t * t * s.to.x,
          y: u * u * u * a.y + 3 * u * u * t * s.c1.y + 3 * u * t * t * s.c2.y + t * t * t * s.to.y,
        });
    }
    a = s.to;
  }
  return out;
}
const inside = (p: Point, b: Box) => p.x > b.x + 0.5 && p.x < b.x + b.width - 0.5 && p.y > b.y + 0.5 && p.y < b.y + b.height - 0.5;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every route clear of the boxes it does not connect; labels clear of each other and of every box. */
function expectReadable(g: RelationGraph) {
  const problems: string[] = [];
  for (const e of g.edges) {
    const pts = sample(e.route);
    for (const n of g.nodes) if (n.id !== e.from && n.id !== e.to && pts.some((p) => inside(p, n))) problems.push(`${e.id} crosses ${n.name}`);
    for (const n of g.nodes) if (overlap(e.label, n)) problems.push(`label ${e.id} on ${n.name}`);
  }
  for (let i = 0; i < g.edges.length; i++)
    for (let j = i + 1; j < g.edges.length; j++) if (overlap(g.edges[i].label, g.edges[j].label)) problems.push(`labels ${g.edges[i].id} / ${g.edges[j].id}`);
  expect(problems).toEqual([]);
}

describe('relationGraph', () => {
  it('bundles the relation fields of one source to one target into one edge with one label', () => {
    const g = small();
    expect(g.edges.map((e) => e.id).sort()).toEqual(['demo4->demo3', 'demo4->demo4', 'demo5->demo4']);
    const bundle = g.edges.find((e) => e.id === 'demo4->demo3')!;
    expect(bundle.fields.map((f) => f.name)).toEqual(demo4Fields().slice(0, 8));
    expect(bundle).toMatchObject({ from: 'demo4', to: 'demo3', multiple: true, cascade: true, hidden: 5 });
    expect(bundle.lines).toEqual(['rel_one_no_cascade', 'rel_one_no_cascade_required', 'rel_one_cascade ✕', '+5 more']);
    // the tooltip has every field with its kind
    expect(bundle.title.split('\n')).toEqual([
      'demo4 → demo3',
      'rel_one_no_cascade: single',
      'rel_one_no_cascade_required: single',
      'rel_one_cascade: single, cascade delete',
      'rel_many_no_cascade: multiple',
      'rel_many_no_cascade_required: multiple',
      'rel_many_cascade: multiple, cascade delete',
      'rel_one_unique: single',
      'rel_many_unique: multiple',
    ]);
    // the label is as large as its lines, and dagre placed it between the two boxes
    const [from, to] = ['demo4', 'demo3'].map((id) => g.nodes.find((n) => n.id === id)!);
    expect(bundle.label.height).toBe(4 * 16 + 8);
    expect(bundle.label.width).toBeGreaterThanOrEqual(textWidth('rel_one_no_cascade_required', 12));
    expect(bundle.label.x).toBeGreaterThanOrEqual(from.x + from.width);
    expect(bundle.label.x + bundle.label.width).toBeLessThanOrEqual(to.x);
    // 'rel_many' holds up to 5: multiple; one field multiple makes the edge drawn as multiple
    expect(g.edges.find((e) => e.id === 'demo5->demo4')).toMatchObject({ multiple: true, cascade: false, lines: ['rel_one', 'rel_many [ ]'] });
    expectReadable(g);
  });

  it('lays out no collections as an empty drawing', () => {
    expect(relationGraph([])).toEqual({ nodes: [], edges: [], width: 0, height: 0 });
  });

  it('routes from the source side facing the target to the target side, with smooth bends', () => {
    const g = small();
    const e = g.edges.find((x) => x.id === 'demo5->demo4')!;
    const [from, to] = ['demo5', 'demo4'].map((id) => g.nodes.find((n) => n.id === id)!);
    expect(e.route.start.x).toBe(from.x + from.width);
    expect(e.route.segments.at(-1)!.to.x).toBe(to.x);
    expect(e.path).toMatch(/^M[\d.]+,[\d.]+ [LC]/);
  });

  it('draws a relation to the collection itself as a loop under its box, through its label', () => {
    const g = small();
    const loop = g.edges.find((e) => e.id === 'demo4->demo4')!;
    const n = g.nodes.find((x) => x.id === 'demo4')!;
    expect(loop.lines).toEqual(['self_rel_one', 'self_rel_many [ ]']);
    expect(loop.label.y).toBeGreaterThan(n.y + n.height);
    expect(loop.route.start.y).toBe(n.y + n.height);
    expect(loop.route.segments.at(-1)!.to.y).toBe(n.y + n.height);
    const lowest = Math.max(...sample(loop.route).map((p) => p.y));
    expect(lowest).toBeCloseTo(loop.label.y + loop.label.height / 2, 5);
  });

  it('keeps 100 generated collections readable: no label over another or a box, no edge through a box', () => {
    const users = col('users', 'users', [{ name: 'name', type: 'text' }], 'auth');
    const gen = generatedCollections(100, 'users').map((c) => ({ ...c, schema: [...c.schema, ...c.selfRelations] }));
    const g = relationGraph([users, ...(gen as never[])]);
    expect(g.nodes).toHaveLength(101);
    // one edge per pair: as many as distinct (source, target) pairs
    const pairs = new Set(gen.flatMap((c) => c.schema.filter((f) => f.type === 'relation').map((f) => `${c.id}->${f.options!.collectionId}`)));
    expect(g.edges).toHaveLength(pairs.size);
    expect(g.edges.some((e) => e.hidden > 0)).toBe(true);
    expectReadable(g);
  });
});

const demo4Fields = () => (demo4 as unknown as { schema: Field[] }).schema.map((f) => f.name);

describe('labels and text', () => {
  it('lists up to four fields, else three and "+N more"; long names are cut to the label width', () => {
    const f = (name: string) => ({ name, multiple: false, cascade: false, required: false });
    expect(labelLines(['a', 'b', 'c', 'd'].map(f))).toEqual({ lines: ['a', 'b', 'c', 'd'], hidden: 0 });
    expect(labelLines(['a', 'b', 'c', 'd', 'e'].map(f))).toEqual({ lines: ['a', 'b', 'c', '+2 more'], hidden: 2 });
    const [long] = labelLines([f('x'.repeat(80))]).lines;
    expect(long.endsWith('…')).toBe(true);
    expect(textWidth(long, 12)).toBeLessThanOrEqual(220 - 14);
  });

  it('measures text with DejaVu Sans widths and cuts it with an ellipsis', () => {
    expect(textWidth('mmm', 10)).toBeCloseTo(29.1);
    expect(textWidth('iii', 10)).toBeCloseTo(8.4);
    expect(textWidth('a', 10, true)).toBeGreaterThan(textWidth('a', 10));
    expect(fitText('short', 100, 12)).toBe('short');
    const cut = fitText('a_rather_long_collection_name', 80, 12);
    expect(cut).toMatch(/^a_rather.*…$/);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(80);
  });
});

describe('ports', () => {
  it('keeps wished heights that are far enough apart, and spreads the rest in order within the side', () => {
    const box = { x: 0, y: 0, width: 100, height: 100 };
    expect(spreadPorts(box, [30, 70])).toEqual([30, 70]);
    expect(spreadPorts(box, [50, 50, 50])).toEqual([50, 60, 70]);
    // beyond the side: clamped in, keeping the order of the wishes
    expect(spreadPorts(box, [500, -10, 95])).toEqual([88, 12, 78]);
    const crowded = spreadPorts(box, Array.from({ length: 30 }, () => 50));
    expect(Math.min(...crowded)).toBeGreaterThanOrEqual(12);
    expect(Math.max(...crowded)).toBeLessThanOrEqual(88);
  });
});

describe('view', () => {
  const vp = { width: 1000, height: 700 };

  it('fits a small drawing whole and centred, never enlarged', () => {
    const v = fitView({ width: 400, height: 300 }, vp);
    expect(v).toEqual({ k: 1, x: 300, y: 200 });
    const w = fitView({ width: 1500, height: 700 }, vp);
    expect(w.k).toBeCloseTo((1000 - 32) / 1500);
    expect(w.x).toBeCloseTo((1000 - 1500 * w.k) / 2);
  });

  it('never fits under the floor scale: a large drawing is centred on the anchor instead', () => {
    const anchor = { x: 3000, y: 5000, width: 200, height: 100 };
    const v = fitView({ width: 8000, height: 10000 }, vp, anchor);
    expect(v.k).toBe(MIN_FIT_ZOOM);
    expect(3100 * v.k + v.x).toBeCloseTo(500);
    expect(5050 * v.k + v.y).toBeCloseTo(350);
    // an anchor near an edge: the drawing's edge stays at the margin
    const corner = fitView({ width: 8000, height: 10000 }, vp, { x: 0, y: 0, width: 10, height: 10 });
    expect(corner).toMatchObject({ x: 16, y: 16 });
  });

  it('shows the details only where 12 px text stays at 11 px or more; names stay at 11 px or more', () => {
    expect(DETAIL_ZOOM).toBeCloseTo(11 / 12);
    expect(showsDetail(DETAIL_ZOOM)).toBe(true);
    expect(showsDetail(0.9)).toBe(false);
    for (const k of [0.25, MIN_FIT_ZOOM, 0.7, 0.9]) expect(namesOnlyFontSize(k, 14) * k).toBeGreaterThanOrEqual(11);
    expect(namesOnlyFontSize(1, 14)).toBe(14);
  });

  it('zooms around a point and keeps part of the drawing on screen when panning', () => {
    const v = zoomAt({ x: 10, y: 20, k: 1 }, 2, 110, 220);
    expect(v).toEqual({ k: 2, x: -90, y: -180 });
    expect(zoomAt({ x: 0, y: 0, k: 2 }, 10, 0, 0).k).toBe(2.5);
    const far = clampPan({ x: -99999, y: 99999, k: 1 }, { width: 2000, height: 2000 }, vp);
    expect(far).toEqual({ k: 1, x: 80 - 2000, y: 700 - 80 });
  });
});

describe('search helpers', () => {
  it('finds collections by a part of their name, those starting with it first', () => {
    const g = relationGraph([col('a', 'my_users', []), col('b', 'users', []), col('c', 'posts', [])]);
    expect(findNodes(g.nodes, 'USER').map((n) => n.name)).toEqual(['users', 'my_users']);
    expect(findNodes(g.nodes, '  ')).toEqual([]);
  });

  it('gives a collection its neighbours in both directions, and the most connected collection', () => {
    const g = small();
    const n = neighbourhood(g, 'demo4');
    expect([...n.nodes].sort()).toEqual(['demo3', 'demo4', 'demo5']);
    expect([...n.edges].sort()).toEqual(['demo4->demo3', 'demo4->demo4', 'demo5->demo4']);
    expect([...neighbourhood(g, 'lonely').nodes]).toEqual(['lonely']);
    expect(mostConnected(g)?.id).toBe('demo4');
  });
});
