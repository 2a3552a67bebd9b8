// The palette's one records lookup: which collection holds a record id. Bounded: at most
// MAX_LOOKUP_COLLECTIONS collections (the active one first), one row each, no totals.
import { pb } from '../../api/client';
import type { CollectionModel } from '../../lib/collections/types';

const MAX_LOOKUP_COLLECTIONS = 25;

export async function findRecordCollection(
  id: string,
  collections: readonly CollectionModel[],
  activeId: string,
  signal?: AbortSignal,
): Promise<CollectionModel | null> {
  const ordered = [...collections].sort((a, b) => Number(b.id === activeId) - Number(a.id === activeId));
  const hits = await Promise.all(
    ordered.slice(0, MAX_LOOKUP_COLLECTIONS).map((c) =>
      pb
        .collection(c.id)
        .getList(1, 1, { filter: pb.filter('id = {:id}', { id }), skipTotal: true, fields: 'id', requestKey: null, signal })
        .then((res) => (res.items.length > 0 ? c : null))
        .catch(() => null),
    ),
  );
  return hits.find((c) => c !== null) ?? null;
}
