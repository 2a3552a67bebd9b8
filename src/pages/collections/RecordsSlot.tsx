/**
 * The records area of the collections page. The records list comes in its own issue: it replaces
 * the body of RecordsSlot (same props), and registers its header actions (New record, API
 * Preview) through `collectionsPageActions` so the page header buttons come alive.
 */
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { proxy } from 'valtio';
import type { CollectionModel } from '../../lib/collections/types';

// The records list is its own chunk (src/pages/records/list); its download starts with this
// module, in parallel with the collections request, rather than after it.
// Once the module is in, it renders directly: through React.lazy it would suspend for a tick and
// React would hold the reveal back for its fallback throttle (~300 ms).
const loadRecordsList = () => import('../records/list/RecordsList');
const LazyRecordsList = lazy(loadRecordsList);
let LoadedRecordsList: ComponentType<RecordsSlotProps> | null = null;
if (typeof window !== 'undefined') {
  loadRecordsList().then(
    (m) => void (LoadedRecordsList = m.default),
    () => undefined, // React.lazy retries and reports the failure when it renders
  );
}

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
  /** Set (by the command palette) to open the new-collection panel once the page is shown. */
  newCollectionRequested?: boolean;
}>({ newRecord: null, apiPreview: null, newCollectionRequested: false });

export function RecordsSlot(props: RecordsSlotProps) {
  const { collection } = props;
  // chosen once per mount: switching from the lazy wrapper to the module would remount the list
  const [List] = useState(() => LoadedRecordsList ?? LazyRecordsList);
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
        <List key={collection.id} {...props} />
      </Suspense>
    </section>
  );
}
