/**
 * The relation graph of collections: every collection a node listing its fields, and one edge per
 * (source, target) pair bundling every relation field of the source that points at the target
 * (single or multiple, cascade delete), with one label listing those fields. Laid out left to right
 * by dagre, which is given every label's size so that labels get room of their own; edges are
 * routed around the boxes from dagre's edge points (graph-route.ts). A collection's relations to
 * itself are a loop under its box. Pure module: no React, no DOM.
 */
import dagre from '@dagrejs/dagre';
import { channelRoute, loopRoute, portRequests, routePath, spreadPorts, spreadTracks, type Box, type Point, type Route } from './graph-route';
import { fitText, textWidth } from './graph-text';
import type { CollectionModel } from './types';
import { isRelationField } from '../../fields/relation/field';

const GRAPH_NODE_WIDTH = 220;
export const GRAPH_HEADER_HEIGHT = 34;
export const GRAPH_ROW_HEIGHT = 20;
/** Font sizes (px at zoom 1): the collection's name, and every other text (fields, types, labels). */
export const GRAPH_NAME_FONT = 14;
export const GRAPH_TEXT_FONT = 12;
/** Line height of an edge label and its padding. */
export const GRAPH_LABEL_LINE = 16;
export const GRAPH_LABEL_PAD_X = 7;
export const GRAPH_LABEL_PAD_Y = 4;
/** Fields listed per node (the rest are counted), and per edge label. */
const GRAPH_MAX_FIELDS = 8;
const LABEL_MAX_FIELDS = 4;
const LABEL_MAX_WIDTH = 220;
/** Horizontal padding inside a node. */
const NODE_PAD = 10;

interface GraphField {
  name: string;
  /** The name as drawn (cut to fit next to its type). */
  shown: string;
  type: string;
}

export interface GraphNode {
  id: string;
  name: string;
  /** The name as drawn at full detail (cut to fit next to the type). */
  shownName: string;
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

interface RelationField {
  name: string;
  multiple: boolean;
  cascade: boolean;
  required: boolean;
}

/** The edge of one (source, target) pair: every relation field of `from` pointing at `to`. */
export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  fields: RelationField[];
  /** Some field holds several records / deletes in cascade. */
  multiple: boolean;
  cascade: boolean;
  /** What the label shows: up to LABEL_MAX_FIELDS lines, or fewer and '+N more'. */
  lines: string[];
  /** Fields left out of `lines`. */
  hidden: number;
  /** Every field with its kind, one per line (the label's tooltip). */
  title: string;
  /** The label's box as dagre placed it. */
  label: Box;
  route: Route;
  /** SVG path data of the route. */
  path: string;
}

export interface RelationGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

type GraphCollection = Pick<CollectionModel, 'id' | 'name' | 'type' | 'schema'>;

const isMultipleRelation = (maxSelect: unknown) => maxSelect === null || maxSelect === undefined || (typeof maxSelect === 'number' && maxSelect > 1);

const fieldLine = (f: RelationField) => f.name + (f.multiple ? ' [ ]' : '') + (f.cascade ? ' ✕' : '');
/** The graph's words, in the dashboard's language (the page gives them; English by default). */
export interface GraphWords {
  /** '+N more' */
  more(count: number): string;
  /** 'posts: multiple, cascade delete, required' */
  fieldKind(f: RelationField): string;
}

const ENGLISH_GRAPH_WORDS: GraphWords = {
  more: (count) => `+${count} more`,
  fieldKind: (f) => `${f.name}: ${f.multiple ? 'multiple' : 'single'}${f.cascade ? ', cascade delete' : ''}${f.required ? ', required' : ''}`,
};

/** The label's lines: every field when they are few, else the first ones and '+N more'. */
export function labelLines(fields: readonly RelationField[], words: GraphWords = ENGLISH_GRAPH_WORDS): { lines: string[]; hidden: number } {
  const maxText = LABEL_MAX_WIDTH - 2 * GRAPH_LABEL_PAD_X;
  const shown = fields.length <= LABEL_MAX_FIELDS ? fields : fields.slice(0, LABEL_MAX_FIELDS - 1);
  const hidden = fields.length - shown.length;
  const lines = shown.map((f) => fitText(fieldLine(f), maxText, GRAPH_TEXT_FONT));
  if (hidden) lines.push(words.more(hidden));
  return { lines, hidden };
}

function graphNode(c: GraphCollection): GraphNode {
  const all = (c.schema ?? []).map((f) => ({ name: f.name, type: f.type }));
  // relation fields first: they are what the edges leave from
  const sorted = [...all.filter(isRelationField), ...all.filter((f) => !isRelationField(f))];
  const listed = sorted.slice(0, GRAPH_MAX_FIELDS);
  const inner = GRAPH_NODE_WIDTH - 2 * NODE_PAD;
  // relation fields are drawn bold
  const bold = (f: { type: string }) => isRelationField(f);
  const fields = listed.map((f) => ({ ...f, shown: fitText(f.name, inner - textWidth(f.type, GRAPH_TEXT_FONT, bold(f)) - 8, GRAPH_TEXT_FONT, bold(f)) }));
  const more = sorted.length - listed.length;
  const height = GRAPH_HEADER_HEIGHT + (fields.length + (more ? 1 : 0)) * GRAPH_ROW_HEIGHT + 10;
  const shownName = fitText(c.name, inner - textWidth(c.type, GRAPH_TEXT_FONT) - 8, GRAPH_NAME_FONT, true);
  return { id: c.id, name: c.name, shownName, type: c.type, fields, more, x: 0, y: 0, width: GRAPH_NODE_WIDTH, height };
}

/** The relation fields of every collection, bundled per (source, target) pair, in schema order. */
function bundles(collections: readonly GraphCollection[], names: Map<string, string>, words: GraphWords): GraphEdge[] {
  const byPair = new Map<string, GraphEdge>();
  for (const c of collections) {
    for (const f of c.schema ?? []) {
      if (!isRelationField(f)) continue;
      const to = String(f.options?.collectionId ?? '');
      if (!names.has(to)) continue;
      const id = `${c.id}->${to}`;
      let e = byPair.get(id);
      if (!e) {
        e = { id, from: c.id, to, fields: [], multiple: false, cascade: false, lines: [], hidden: 0, title: '', label: { x: 0, y: 0, width: 0, height: 0 }, route: { start: { x: 0, y: 0 }, segments: [] }, path: '' };
        byPair.set(id, e);
      }
      e.fields.push({ name: f.name, multiple: isMultipleRelation(f.options?.maxSelect), cascade: f.options?.cascadeDelete === true, required: !!f.required });
    }
  }
  const edges = [...byPair.values()];
  for (const e of edges) {
    e.multiple = e.fields.some((f) => f.multiple);
    e.cascade = e.fields.some((f) => f.cascade);
    Object.assign(e, labelLines(e.fields, words));
    const width = Math.ceil(Math.max(...e.lines.map((l) => textWidth(l, GRAPH_TEXT_FONT)))) + 2 * GRAPH_LABEL_PAD_X;
    e.label = { x: 0, y: 0, width, height: e.lines.length * GRAPH_LABEL_LINE + 2 * GRAPH_LABEL_PAD_Y };
    e.title = `${names.get(e.from)} → ${names.get(e.to)}\n${e.fields.map(words.fieldKind).join('\n')}`;
  }
  return edges;
}

export function relationGraph(collections: readonly GraphCollection[], words: GraphWords = ENGLISH_GRAPH_WORDS): RelationGraph {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 96, edgesep: 12, marginx: 24, marginy: 24 });
  const names = new Map(collections.map((c) => [c.id, c.name]));
  const nodes = collections.map(graphNode);
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height });
  const edges = bundles(collections, names, words);
  // labels centred on their edge ('c'): dagre gives each one a place of its own in a layer
  for (const e of edges) g.setEdge(e.from, e.to, { width: e.label.width, height: e.label.height, labelpos: 'c', weight: e.fields.length });
  dagre.layout(g);

  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const n of nodes) {
    const p = g.node(n.id);
    n.x = p.x - n.width / 2;
    n.y = p.y - n.height / 2;
  }
  // every layer's half width, by its centre (real nodes and labels share a layer's centre)
  const key = (x: number) => Math.round(x * 100);
  const halfWidths = new Map<number, number>();
  const widen = (cx: number, w: number) => halfWidths.set(key(cx), Math.max(halfWidths.get(key(cx)) ?? 0, w / 2));
  for (const n of nodes) widen(n.x + n.width / 2, n.width);
  for (const e of edges) {
    const d = g.edge(e.from, e.to) as { x: number; y: number; points: Point[] };
    e.label = { ...e.label, x: d.x - e.label.width / 2, y: d.y - e.label.height / 2 };
    widen(d.x, e.label.width);
  }
  const halfWidthAt = (x: number) => halfWidths.get(key(x)) ?? 0;
  const pointsOf = (e: GraphEdge) => (g.edge(e.from, e.to) as { points: Point[] }).points;
  const links = edges.filter((e) => e.from !== e.to);
  // the ports of all the edges meeting one side of one box, spread along it in order
  const sides = new Map<string, Array<{ edge: number; end: 0 | 1; y: number; box: Box }>>();
  links.forEach((e, i) => {
    portRequests(pointsOf(e), byId.get(e.from)!, byId.get(e.to)!).forEach((p, end) => {
      const side = `${end ? e.to : e.from}:${p.right ? 'r' : 'l'}`;
      if (!sides.has(side)) sides.set(side, []);
      sides.get(side)!.push({ edge: i, end: end as 0 | 1, y: p.y, box: p.box });
    });
  });
  const ports = links.map((): [number, number] => [0, 0]);
  for (const list of sides.values()) {
    const ys = spreadPorts(list[0].box, list.map((p) => p.y));
    list.forEach((p, i) => (ports[p.edge][p.end] = ys[i]));
  }
  links.forEach((e, i) => (e.route = channelRoute(pointsOf(e), byId.get(e.from)!, byId.get(e.to)!, halfWidthAt, ports[i])));
  spreadTracks(links.map((e) => e.route));
  for (const e of edges) {
    if (e.from === e.to) e.route = loopRoute(byId.get(e.from)!, e.label);
    e.path = routePath(e.route);
  }
  const info = g.graph();
  // (dagre reports -Infinity for an empty graph)
  return { nodes, edges, width: Math.max(0, info.width ?? 0), height: Math.max(0, info.height ?? 0) };
}

/** The nodes whose name holds `query` (case-insensitive): names starting with it first, then by name. */
export function findNodes(nodes: readonly GraphNode[], query: string, limit = 8): GraphNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits = nodes.filter((n) => n.name.toLowerCase().includes(q));
  const starts = (n: GraphNode) => (n.name.toLowerCase().startsWith(q) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name)).slice(0, limit);
}

/** A node, the nodes it relates to or is related from, and the edges between it and them. */
export function neighbourhood(graph: RelationGraph, id: string): { nodes: Set<string>; edges: Set<string> } {
  const nodes = new Set([id]);
  const edges = new Set<string>();
  for (const e of graph.edges) {
    if (e.from !== id && e.to !== id) continue;
    edges.add(e.id);
    nodes.add(e.from);
    nodes.add(e.to);
  }
  return { nodes, edges };
}

/** The node with the most edges (the first one among equals), if any. */
export function mostConnected(graph: RelationGraph): GraphNode | undefined {
  const degree = new Map<string, number>();
  for (const e of graph.edges) for (const id of new Set([e.from, e.to])) degree.set(id, (degree.get(id) ?? 0) + 1);
  return graph.nodes.reduce<GraphNode | undefined>((best, n) => (!best || (degree.get(n.id) ?? 0) > (degree.get(best.id) ?? 0) ? n : best), undefined);
}
