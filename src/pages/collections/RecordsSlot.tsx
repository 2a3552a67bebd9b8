/**
 * The records area of the collections page. The records list comes in its own issue: it replaces
 * the body of RecordsSlot (same props), and registers its header actions (New record, API
 * Preview) through `collectionsPageActions` so the page header buttons come alive.
 */
import { proxy } from 'valtio';
import type { CollectionModel } from '../../lib/collections/types';

export type RecordsSlotProps = {
  collection: CollectionModel;
  /** The `filter` query param. */
  filter: string;
  /** The records sort, already reset when it named unknown fields (default '-created'). */
  sort: string;
  /** The `recordId` query param (the record panel to open). */
  recordId: string;
  /** Bumped by the header's refresh button. */
  refreshKey: number;
};

/** Header actions provided by later screens; the buttons stay disabled while unset. */
export const collectionsPageActions = proxy<{
  newRecord: ((c: CollectionModel) => void) | null;
  apiPreview: ((c: CollectionModel) => void) | null;
}>({ newRecord: null, apiPreview: null });

export function RecordsSlot({ collection }: RecordsSlotProps) {
  return (
    <section className="records-slot" aria-label={`${collection.name} records`}>
      <div className="empty-state placeholder-card">
        <p className="empty-state-title">Records of {collection.name}</p>
        <p className="txt-hint">The records list is coming soon.</p>
      </div>
    </section>
  );
}
