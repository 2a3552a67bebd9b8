/**
 * The records area of the collections page. The records list comes in its own issue: it replaces
 * the body of RecordsSlot (same props), and registers its header actions (New record, API
 * Preview) through `collectionsPageActions` so the page header buttons come alive.
 */
import { lazy, Suspense } from 'react';
import { proxy } from 'valtio';
import type { CollectionModel } from '../../lib/collections/types';

// The records list is its own chunk (src/pages/records/list), loaded with the first collection.
const RecordsList = lazy(() => import('../records/list/RecordsList'));

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

export function RecordsSlot(props: RecordsSlotProps) {
  const { collection } = props;
  return (
    <section className="records-slot" aria-label={`${collection.name} records`}>
      <Suspense
        fallback={
          <div className="table-wrapper" aria-busy="true">
            <table className="table">
              <tbody>
                <tr className="row-skeleton" aria-hidden="true">
                  <td>
                    <span className="skeleton-line" />
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
        }
      >
        <RecordsList key={collection.id} {...props} />
      </Suspense>
    </section>
  );
}
