// The Added / Changed / Deleted label of a detected change.
import type { CollectionChange } from '../../../lib/collections-import';
import { t } from '../../../ui/i18n';

const KIND_BADGE: Record<CollectionChange['kind'], string> = { added: 'badge-success', changed: 'badge-warning', deleted: 'badge-danger' };

export function ChangeBadge({ kind }: { kind: CollectionChange['kind'] }) {
  return <span className={`badge ${KIND_BADGE[kind]} change-badge`}>{t(`import.kind.${kind}`)}</span>;
}
