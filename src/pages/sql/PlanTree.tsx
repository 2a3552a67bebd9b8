// EXPLAIN QUERY PLAN drawn as SQLite means it: each step under the step it belongs to.
import { planTree, type PlanNode } from '../../lib/sql-console/plan-tree';

function Nodes({ nodes }: { nodes: readonly PlanNode[] }) {
  return (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          <span className={`sql-plan-step${/^SCAN\b/.test(n.detail) ? ' sql-plan-scan' : ''}`}>{n.detail}</span>
          {n.children.length > 0 && <Nodes nodes={n.children} />}
        </li>
      ))}
    </ul>
  );
}

export function PlanTree({ rows }: { rows: readonly unknown[][] }) {
  const roots = planTree(rows);
  return (
    <figure className="sql-plan" aria-label="Query plan">
      <figcaption className="txt-hint">Query plan (SCAN reads a whole table or index; SEARCH uses an index to find rows)</figcaption>
      {roots.length ? <Nodes nodes={roots} /> : <p className="txt-hint">SQLite gave no plan.</p>}
    </figure>
  );
}
