// The relation graph's SVG: edges (one per source/target pair, routed around the boxes), their
// labels (the fields, placed by the layout so they never overlap) and the collections' boxes. At a
// scale where the small text would be unreadable, only the names are drawn, enlarged to stay
// readable. With a collection picked, it and its neighbours are highlighted and the rest dimmed.
import { memo, useMemo } from 'react';
import {
  GRAPH_HEADER_HEIGHT,
  GRAPH_LABEL_LINE,
  GRAPH_LABEL_PAD_X,
  GRAPH_LABEL_PAD_Y,
  GRAPH_NAME_FONT,
  GRAPH_ROW_HEIGHT,
  type GraphEdge,
  type GraphNode,
  type RelationGraph,
} from '../../../lib/collections/graph';
import { fitText } from '../../../lib/collections/graph-text';
import { namesOnlyFontSize, type View } from '../../../lib/collections/graph-view';
import { t } from '../../../ui/i18n';

interface Props {
  graph: RelationGraph;
  view: View;
  detail: boolean;
  /** The picked collection's neighbourhood, when one is picked. */
  focus: { id: string; nodes: Set<string>; edges: Set<string> } | null;
  onOpen: (id: string) => void;
  onNodeFocus: (node: GraphNode) => void;
}

const hl = (on: boolean | undefined) => (on ? ' rg-hl' : '');

const Edge = memo(function Edge({ e, on }: { e: GraphEdge; on?: boolean }) {
  return (
    <g
      className={`rg-edge${e.multiple ? ' rg-edge-multiple' : ' rg-edge-single'}${e.cascade ? ' rg-edge-cascade' : ''}${hl(on)}`}
      data-id={e.id}
      data-from={e.from}
      data-to={e.to}
      data-fields={e.fields.map((f) => f.name).join(' ')}
    >
      <title>{e.title}</title>
      <path d={e.path} markerEnd={`url(#${e.cascade ? 'rg-arrow-cascade' : 'rg-arrow'})`} />
    </g>
  );
});

const EdgeLabel = memo(function EdgeLabel({ e, on }: { e: GraphEdge; on?: boolean }) {
  const { x, y, width, height } = e.label;
  return (
    <g className={`rg-edge-label${hl(on)}`} data-edge={e.id}>
      <title>{e.title}</title>
      <rect x={x} y={y} width={width} height={height} rx="4" />
      <text x={x + GRAPH_LABEL_PAD_X} y={y + GRAPH_LABEL_PAD_Y}>
        {e.lines.map((line, i) => (
          <tspan key={i} x={x + GRAPH_LABEL_PAD_X} y={y + GRAPH_LABEL_PAD_Y + (i + 1) * GRAPH_LABEL_LINE - 4} className={e.hidden && i === e.lines.length - 1 ? 'rg-edge-label-more' : undefined}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
});

/** A box's text (over the link's box, not part of the link: its name says it); clicks go through. */
function NodeText({ n, detail, nameSize }: { n: GraphNode; detail: boolean; nameSize: number }) {
  if (!detail)
    return (
      <text x={n.x + 6} y={n.y + n.height / 2} dominantBaseline="central" className="rg-node-name" style={{ fontSize: nameSize }} aria-hidden="true">
        {fitText(n.name, n.width - 12, nameSize, true)}
      </text>
    );
  return (
    <g aria-hidden="true">
      <text x={n.x + 10} y={n.y + 22} className="rg-node-name">
        {n.shownName}
      </text>
      <text x={n.x + n.width - 10} y={n.y + 22} textAnchor="end" className="rg-node-type">
        {n.type}
      </text>
      {n.fields.map((f, i) => (
        <text key={f.name} x={n.x + 10} y={n.y + GRAPH_HEADER_HEIGHT + 16 + i * GRAPH_ROW_HEIGHT} className={`rg-field rg-field-${f.type}`}>
          <tspan>{f.shown}</tspan>
          <tspan x={n.x + n.width - 10} textAnchor="end" className="rg-field-type">
            {f.type}
          </tspan>
        </text>
      ))}
      {n.more > 0 && (
        <text x={n.x + 10} y={n.y + GRAPH_HEADER_HEIGHT + 16 + n.fields.length * GRAPH_ROW_HEIGHT} className="rg-field rg-field-more">
          {t('graph.more', { count: n.more })}
        </text>
      )}
    </g>
  );
}

export function RelationGraphDrawing({ graph, view, detail, focus, onOpen, onNodeFocus }: Props) {
  // names only: one font size for every name (recomputed when the scale moves by 5 %)
  const bucket = Math.round(Math.log(view.k) / Math.log(1.05));
  const nameSize = useMemo(() => namesOnlyFontSize(Math.pow(1.05, bucket), GRAPH_NAME_FONT), [bucket]);
  const cls = `relation-graph-svg${detail ? '' : ' rg-names-only'}${focus ? ' rg-focusing' : ''}`;
  return (
    <svg width="100%" height="100%" className={cls}>
      <defs>
        <marker id="rg-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="rg-arrow" />
        </marker>
        <marker id="rg-arrow-cascade" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="rg-arrow rg-arrow-cascade" />
        </marker>
      </defs>
      <g className="rg-scene" transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
        <g className="rg-edges">
          {graph.edges.map((e) => (
            <Edge key={e.id} e={e} on={focus?.edges.has(e.id)} />
          ))}
        </g>
        {detail && (
          <g className="rg-edge-labels">
            {graph.edges.map((e) => (
              <EdgeLabel key={e.id} e={e} on={focus?.edges.has(e.id)} />
            ))}
          </g>
        )}
        <g className="rg-nodes">
          {graph.nodes.map((n) => (
            <g key={n.id} className={`rg-node rg-node-${n.type}${hl(focus?.nodes.has(n.id))}${focus?.id === n.id ? ' rg-picked' : ''}`} data-id={n.id}>
              <a
                href={`#/collections?collectionId=${encodeURIComponent(n.id)}`}
                className="rg-node-link"
                aria-label={t('graph.nodeLabel', { name: n.name, type: n.type })}
                // keyboard focus only: a click's focus must not move the box from under the pointer
                onFocus={(ev) => ev.currentTarget.matches(':focus-visible') && onNodeFocus(n)}
                onClick={(ev) => {
                  ev.preventDefault();
                  onOpen(n.id);
                }}
              >
                <title>{n.name}</title>
                <rect x={n.x} y={n.y} width={n.width} height={n.height} rx="6" className={detail ? 'rg-node-box' : 'rg-node-box rg-node-head'} />
                {detail && <rect x={n.x} y={n.y} width={n.width} height={GRAPH_HEADER_HEIGHT} rx="6" className="rg-node-head" />}
              </a>
              <NodeText n={n} detail={detail} nameSize={nameSize} />
            </g>
          ))}
        </g>
      </g>
    </svg>
  );
}
