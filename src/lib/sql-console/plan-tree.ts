// EXPLAIN QUERY PLAN's rows (id, parent, notused, detail) as the tree SQLite means: each row hangs
// under the row whose id is its parent (0: the top).

export interface PlanNode {
  id: number;
  detail: string;
  children: PlanNode[];
}

export function planTree(rows: readonly unknown[][]): PlanNode[] {
  const roots: PlanNode[] = [];
  const byId = new Map<number, PlanNode>();
  for (const row of rows) {
    const node: PlanNode = { id: Number(row[0]), detail: String(row[3] ?? ''), children: [] };
    const parent = byId.get(Number(row[1]));
    (parent ? parent.children : roots).push(node);
    byId.set(node.id, node);
  }
  return roots;
}
