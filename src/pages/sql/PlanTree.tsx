// EXPLAIN QUERY PLAN drawn as SQLite means it: each step under the step it belongs to.
import { planTree, type PlanNode } from '../../lib/sql-console/plan-tree';
import { t } from '../../ui/i18n';

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
    <figure className="sql-plan" aria-label={t('sql.planLabel')}>
      <figcaption className="txt-hint">{t('sql.planCaption')}</figcaption>
      {roots.length ? <Nodes nodes={roots} /> : <p className="txt-hint">{t('sql.noPlan')}</p>}
    </figure>
  );
}
