/** The records area of the collections page: the records list, loaded as its own chunk. */
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { useSnapshot } from 'valtio';
import type { RecordsSlotProps } from './RecordsSlot';
import { collectionsState } from '../../state/collections';
import { useAccess } from '../../state/permissions';
import { collectionProblems, type CollectionProblem } from '../../lib/collections/problems';
import type { CollectionModel } from '../../lib/collections/types';
import { t } from '../../ui/i18n';

// The records list is its own chunk (src/pages/records/list); its download starts with this
// module (or as the app starts on #/collections), in parallel with the collections request.
// Once the module is in, it renders directly. Never through React.lazy while it is still on its way:
// a suspended list shows the fallback and React then holds the reveal back for its fallback
// throttle (~300 ms), which delayed the first rows when the collections (asked for as the app
// started) came before the list's code. Until then the skeleton is drawn as plain content.
const loadRecordsList = () => import('../records/list/RecordsList');
const LazyRecordsList = lazy(loadRecordsList);
let LoadedRecordsList: ComponentType<RecordsSlotProps> | null = null;
const listModule: Promise<ComponentType<RecordsSlotProps> | null> | null =
  typeof window === 'undefined'
    ? null
    : loadRecordsList().then(
        (m) => (LoadedRecordsList = m.default),
        () => null, // React.lazy retries and reports the failure when it renders
      );

const skeleton = (
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
);

const problemText = (p: CollectionProblem) =>
  p.kind === 'jsonMaxSize'
    ? t('collections.problemJsonMaxSize', { name: p.field })
    : t('collections.problemRelationTarget', { name: p.field, target: p.target || t('collections.problemNone') });

/** What 0.22 saved but breaks this collection's records (src/lib/collections/problems.ts). */
function CollectionProblems({ collection }: { collection: CollectionModel }) {
  const { collections } = useSnapshot(collectionsState);
  const full = useAccess().full;
  // a scoped admin's list lacks the collections its role does not show: a target it cannot see
  // may well exist (only a relation to no collection at all is certainly broken)
  const problems = collectionProblems(collection, collections as readonly CollectionModel[]).filter((p) => full || p.kind !== 'relationTarget' || p.target === '');
  if (!problems.length) return null;
  return (
    <div className="alert alert-warning records-collection-problems" role="status">
      {problems.map((p) => (
        <p key={p.kind + p.field}>{problemText(p)}</p>
      ))}
    </div>
  );
}

export function RecordsArea(props: RecordsSlotProps) {
  const { collection } = props;
  // chosen once it is in: switching from the lazy wrapper to the module would remount the list
  const [List, setList] = useState<ComponentType<RecordsSlotProps> | null>(() => LoadedRecordsList);
  useEffect(() => {
    if (List || !listModule) return;
    let alive = true;
    void listModule.then((loaded) => alive && setList(() => loaded ?? LazyRecordsList));
    return () => {
      alive = false;
    };
  }, [List]);
  return (
    <section className="records-slot" aria-label={t('collections.recordsOf', { name: collection.name })}>
      <CollectionProblems collection={collection} />
      <Suspense fallback={skeleton}>{List ? <List key={collection.id} {...props} /> : skeleton}</Suspense>
    </section>
  );
}
