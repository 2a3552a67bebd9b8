// The relation graph of the collections (beyond the original UI): every collection a node with its
// fields, every relation field an edge (single vs multiple, cascade delete marked), auth/base/view
// told apart; laid out by dagre (src/lib/collections/graph.ts); pan by dragging or the arrow keys,
// zoom with the wheel or the buttons; a click (or Enter) on a node opens the collection.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useSnapshot } from 'valtio';
import { navigate } from '../../../shell/navigation';
import { relationGraph, GRAPH_HEADER_HEIGHT, GRAPH_ROW_HEIGHT, type GraphEdge } from '../../../lib/collections/graph';
import type { CollectionModel } from '../../../lib/collections/types';
import { collectionsState, loadCollections, setActiveCollection } from '../../../state/collections';
import { CollectionsSidebar } from '../CollectionsSidebar';
import './relation-graph.css';

type View = { x: number; y: number; k: number };
const MIN_ZOOM = 0.2;
const MAX_ZOOM = 2.5;
const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

function edgePath(e: GraphEdge): string {
  const [first, ...rest] = e.points;
  if (!first) return '';
  if (e.from === e.to) return `M${first.x},${first.y} C${rest[0].x},${rest[0].y} ${rest[1].x},${rest[1].y} ${rest[2].x},${rest[2].y}`;
  return `M${first.x},${first.y} ` + rest.map((p) => `L${p.x},${p.y}`).join(' ');
}

function midpoint(e: GraphEdge) {
  return e.points[Math.floor(e.points.length / 2)] ?? { x: 0, y: 0 };
}

export default function RelationGraphPage() {
  const snap = useSnapshot(collectionsState);
  const collections = snap.collections as unknown as CollectionModel[];
  const graph = useMemo(() => relationGraph(collections), [collections]);
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const drag = useRef<{ x: number; y: number; vx: number; vy: number; moved: boolean } | null>(null);
  const fitted = useRef(false);

  useEffect(() => {
    void loadCollections();
  }, []);

  const fit = () => {
    const el = box.current;
    if (!el || !graph.width || !graph.height) return;
    const k = clampZoom(Math.min(el.clientWidth / graph.width, el.clientHeight / graph.height, 1));
    setView({ k, x: (el.clientWidth - graph.width * k) / 2, y: Math.max(0, (el.clientHeight - graph.height * k) / 2) });
  };
  useEffect(() => {
    if (!fitted.current && graph.nodes.length) {
      fitted.current = true;
      fit();
    }
    // fit once, when the collections arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [graph]);

  // the wheel zooms around the pointer (a non-passive listener, so the page does not scroll)
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const px = e.clientX - r.left;
      const py = e.clientY - r.top;
      setView((v) => {
        const k = clampZoom(v.k * Math.exp(-e.deltaY * 0.0015));
        return { k, x: px - ((px - v.x) * k) / v.k, y: py - ((py - v.y) * k) / v.k };
      });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const zoomBy = (f: number) => {
    const el = box.current;
    const cx = (el?.clientWidth ?? 0) / 2;
    const cy = (el?.clientHeight ?? 0) / 2;
    setView((v) => {
      const k = clampZoom(v.k * f);
      return { k, x: cx - ((cx - v.x) * k) / v.k, y: cy - ((cy - v.y) * k) / v.k };
    });
  };

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
    setView((v) => ({ ...v, x: d.vx + dx, y: d.vy + dy }));
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
    const step = 60;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      setView((v) => ({ ...v, x: v.x + m[0], y: v.y + m[1] }));
    } else if (e.key === '+' || e.key === '=') zoomBy(1.2);
    else if (e.key === '-') zoomBy(1 / 1.2);
  };

  const open = (id: string) => {
    setActiveCollection(id);
    navigate(`/collections?collectionId=${encodeURIComponent(id)}`);
  };

  return (
    <div className="page-with-sidebar collections-page relation-graph-page">
      <CollectionsSidebar activeId="" onSelect={(c) => open(c.id)} onNew={() => navigate('/collections')} />
      <main className="page-wrapper">
        <header className="page-header">
          <nav aria-label="Breadcrumbs" className="breadcrumbs">
            <a href="#/collections" className="breadcrumb-item">
              Collections
            </a>
            <span className="breadcrumb-item">Relation graph</span>
          </nav>
          <div className="flex-fill" />
          <div className="relation-graph-legend txt-muted" aria-label="Legend">
            <span className="rg-legend-item">
              <span className="rg-swatch rg-swatch-single" aria-hidden="true" /> single
            </span>
            <span className="rg-legend-item">
              <span className="rg-swatch rg-swatch-multiple" aria-hidden="true" /> multiple
            </span>
            <span className="rg-legend-item">
              <span className="rg-swatch rg-swatch-cascade" aria-hidden="true" /> cascade delete
            </span>
          </div>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => zoomBy(1 / 1.2)} aria-label="Zoom out">
            −
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => zoomBy(1.2)} aria-label="Zoom in">
            +
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={fit}>
            Fit
          </button>
        </header>
        <div
          ref={box}
          className="relation-graph"
          tabIndex={0}
          role="group"
          aria-label="Relation graph (drag or use the arrow keys to pan, the wheel or + and - to zoom)"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        >
          {snap.loaded && graph.nodes.length === 0 && <p className="txt-hint relation-graph-empty">No collections found.</p>}
          <svg width="100%" height="100%" className="relation-graph-svg">
            <defs>
              <marker id="rg-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" className="rg-arrow" />
              </marker>
              <marker id="rg-arrow-cascade" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" className="rg-arrow rg-arrow-cascade" />
              </marker>
            </defs>
            <g transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
              {graph.edges.map((e) => (
                <g
                  key={e.id}
                  className={`rg-edge${e.multiple ? ' rg-edge-multiple' : ' rg-edge-single'}${e.cascade ? ' rg-edge-cascade' : ''}`}
                  data-from={e.from}
                  data-to={e.to}
                  data-field={e.field}
                >
                  <title>{`${e.field}: ${e.multiple ? 'multiple' : 'single'} relation${e.cascade ? ', cascade delete' : ''}`}</title>
                  <path d={edgePath(e)} markerEnd={`url(#${e.cascade ? 'rg-arrow-cascade' : 'rg-arrow'})`} />
                  <text x={midpoint(e).x} y={midpoint(e).y - 4} className="rg-edge-label">
                    {e.field}
                    {e.multiple ? ' [ ]' : ''}
                    {e.cascade ? ' ✕' : ''}
                  </text>
                </g>
              ))}
              {graph.nodes.map((n) => (
                <a
                  key={n.id}
                  href={`#/collections?collectionId=${encodeURIComponent(n.id)}`}
                  className={`rg-node rg-node-${n.type}`}
                  data-id={n.id}
                  onClick={(ev) => {
                    ev.preventDefault();
                    open(n.id);
                  }}
                >
                  <rect x={n.x} y={n.y} width={n.width} height={n.height} rx="6" className="rg-node-box" />
                  <rect x={n.x} y={n.y} width={n.width} height={GRAPH_HEADER_HEIGHT} rx="6" className="rg-node-head" />
                  <text x={n.x + 10} y={n.y + 22} className="rg-node-name">
                    {n.name.length > 22 ? n.name.slice(0, 21) + '…' : n.name}
                  </text>
                  <text x={n.x + n.width - 10} y={n.y + 22} textAnchor="end" className="rg-node-type">
                    {n.type}
                  </text>
                  {n.fields.map((f, i) => (
                    <text key={f.name} x={n.x + 10} y={n.y + GRAPH_HEADER_HEIGHT + 16 + i * GRAPH_ROW_HEIGHT} className={`rg-field rg-field-${f.type}`}>
                      <tspan>{f.name.length > 20 ? f.name.slice(0, 19) + '…' : f.name}</tspan>
                      <tspan x={n.x + n.width - 10} textAnchor="end" className="rg-field-type">
                        {f.type}
                      </tspan>
                    </text>
                  ))}
                  {n.more > 0 && (
                    <text x={n.x + 10} y={n.y + GRAPH_HEADER_HEIGHT + 16 + n.fields.length * GRAPH_ROW_HEIGHT} className="rg-field rg-field-more">
                      +{n.more} more
                    </text>
                  )}
                </a>
              ))}
            </g>
          </svg>
        </div>
      </main>
    </div>
  );
}
