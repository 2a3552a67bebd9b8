// The Added / Changed / Deleted label of a detected change.
import type { CollectionChange } from '../../../lib/collections-import';

const KIND_LABEL: Record<CollectionChange['kind'], { label: string; badge: string }> = {
  added: { label: 'Added', badge: 'badge-success' },
  changed: { label: 'Changed', badge: 'badge-warning' },
  deleted: { label: 'Deleted', badge: 'badge-danger' },
};

export function ChangeBadge({ kind }: { kind: CollectionChange['kind'] }) {
  const k = KIND_LABEL[kind];
  return <span className={`badge ${k.badge} change-badge`}>{k.label}</span>;
}
