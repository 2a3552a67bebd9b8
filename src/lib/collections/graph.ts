/**
 * The relation graph of collections: every collection a node listing its fields, every relation
 * field an edge to its target (single or multiple, cascade delete), laid out left to right by
 * dagre. Self-relations are left out of the layout (dagre routes them poorly) and drawn by the
 * screen as loops. Pure module: no React, no DOM.
 */
import dagre from '@dagrejs/dagre';
import type { CollectionModel } from './types';

const GRAPH_NODE_WIDTH = 220;
export const GRAPH_HEADER_HEIGHT = 34;
export const GRAPH_ROW_HEIGHT = 20;
/** Fields listed per node (the rest are counted), so 50 collections stay readable. */
const GRAPH_MAX_FIELDS = 8;

interface GraphField {
  name: string;
  type: string;
}

interface GraphNode {
  id: string;
  name: string;
  type: string;
  fields: GraphField[];
  /** Fields not listed. */
  more: number;
  /** Top-left corner and size. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  field: string;
  multiple: boolean;
  cascade: boolean;
  required: boolean;
  points: Array<{ x: number; y: number }>;
}

export interface RelationGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

const isMultipleRelation = (maxSelect: unknown) => maxSelect === null || maxSelect === undefined || (typeof maxSelect === 'number' && maxSelect > 1);

export function relationGraph(collections: readonly Pick<CollectionModel, 'id' | 'name' | 'type' | 'schema'>[]): RelationGraph {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 90, edgesep: 14, marginx: 24, marginy: 24 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(collections.map((c) => c.id));
  const nodes: GraphNode[] = [];
  for (const c of collections) {
    const all = (c.schema ?? []).map((f) => ({ name: f.name, type: f.type }));
    // relation fields first: they are what the edges point from
    const sorted = [...all.filter((f) => f.type === 'relation'), ...all.filter((f) => f.type !== 'relation')];
    const fields = sorted.slice(0, GRAPH_MAX_FIELDS);
    const more = sorted.length - fields.length;
    const height = GRAPH_HEADER_HEIGHT + (fields.length + (more ? 1 : 0)) * GRAPH_ROW_HEIGHT + 10;
    nodes.push({ id: c.id, name: c.name, type: c.type, fields, more, x: 0, y: 0, width: GRAPH_NODE_WIDTH, height });
    g.setNode(c.id, { width: GRAPH_NODE_WIDTH, height });
  }
  const edges: GraphEdge[] = [];
  for (const c of collections) {
    for (const f of c.schema ?? []) {
      if (f.type !== 'relation') continue;
      const to = String(f.options?.collectionId ?? '');
      if (!ids.has(to)) continue;
      const edge: GraphEdge = {
        id: `${c.id}.${f.name}`,
        from: c.id,
        to,
        field: f.name,
        multiple: isMultipleRelation(f.options?.maxSelect),
        cascade: f.options?.cascadeDelete === true,
        required: !!f.required,
        points: [],
      };
      edges.push(edge);
      if (to !== c.id) g.setEdge(c.id, to, { weight: 1 }, edge.id);
    }
  }
  dagre.layout(g);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const n of nodes) {
    const p = g.node(n.id);
    n.x = p.x - n.width / 2;
    n.y = p.y - n.height / 2;
  }
  for (const e of edges) {
    if (e.from === e.to) {
      // a loop on the node's right side
      const n = byId.get(e.from)!;
      const x = n.x + n.width;
      const y = n.y + GRAPH_HEADER_HEIGHT / 2;
      e.points = [
        { x, y },
        { x: x + 30, y: y - 12 },
        { x: x + 30, y: y + 24 },
        { x, y: y + 12 },
      ];
    } else {
      e.points = (g.edge(e.from, e.to, e.id)?.points ?? []).map((p: { x: number; y: number }) => ({ x: p.x, y: p.y }));
    }
  }
  const info = g.graph();
  return { nodes, edges, width: (info.width ?? 0) + 40, height: info.height ?? 0 };
}
