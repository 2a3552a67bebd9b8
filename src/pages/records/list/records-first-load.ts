// Started by the router as the app starts on #/collections (signed in), before the page's code is
// in: the collections list, the records list's code, and once both are in, the first page of the
// collection the address names (or the first one) (./first-page). Without it each waited for the
// one before: the page's code, then the collections, then the list's code, then the page.
// This module is part of the app's first script: it imports nothing heavy.
import { pb } from '../../../api/client';
import { currentLocation } from '../../../shell/navigation';
import { collectionsState, startCollectionsLoad } from '../../../state/collections';
import { startEarlyFirstPage } from './first-page';

const COLLECTIONS_PATH = '/collections';

export function startFirstLoad(): void {
  const { path, query } = currentLocation();
  if (path !== COLLECTIONS_PATH || !pb.authStore.isValid) return;
  const wanted = query.collectionId || undefined;
  let collectionsIn = false;
  // once both are in; run as the collections are stored (before the page can render the list and
  // ask for the page itself) or as the module arrives, whichever comes last
  const start = () => {
    if (!collectionsIn) return;
    const list = collectionsState.collections;
    const found = wanted ? list.find((c) => c.id === wanted || c.name === wanted) : list.find((c) => c.id === collectionsState.activeId);
    if (!found) return;
    // without a collection in the address the page opens the first one with no filter or sort
    startEarlyFirstPage(found, wanted ? (query.filter ?? '') : '', wanted ? query.sort : undefined);
  };
  void startCollectionsLoad(wanted, () => {
    collectionsIn = true;
    start();
  });
  // the list's own chunk, ahead of the page that imports it
  import('./RecordsList').catch(() => undefined); // the page's own import reports a failure
}
