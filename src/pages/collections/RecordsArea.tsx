/** The records area of the collections page: the records list, loaded as its own chunk. */
import { lazy, Suspense, useState, type ComponentType } from 'react';
import type { RecordsSlotProps } from './RecordsSlot';

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

export function RecordsArea(props: RecordsSlotProps) {
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
