// The palette's records lookup: which collection holds a record id. On Outpost one request to
// GET /api/outpost/find-record/:id (server/http/find-record.ts: one primary-key query per table,
// one batch, whatever the number of collections). PocketBase 0.22 has no such route: then every
// collection is asked through the list API, a few requests at a time, until one has the id: only
// that path needs the collections list, which is asked for then (the palette may open on a screen
// that has not loaded it yet).
import { pb } from '../../api/client';
import type { CollectionModel } from '../../lib/collections/types';

export type FoundCollection = Pick<CollectionModel, 'id' | 'name'>;

/** The endpoint's 404 for a missing record (PocketBase answers a missing route 'Not Found.'). */
const NOT_FOUND_RECORD = 'No record with this id in any collection.';
/** List requests in flight at once on the fallback path (a browser opens six per host). */
const FALLBACK_CONCURRENCY = 6;

/** Set once the server showed it lacks the endpoint; later lookups go straight to the lists. */
let endpointMissing = false;

/** 'no-endpoint': the route is missing (remembered); 'failed': it failed this time (lists instead). */
type Outcome = { found: FoundCollection | null } | 'no-endpoint' | 'failed';

async function askEndpoint(id: string, signal?: AbortSignal): Promise<Outcome> {
  try {
    const res = await pb.send<{ collectionId: string; collectionName: string }>(`/api/outpost/find-record/${encodeURIComponent(id)}`, {
      requestKey: null,
      signal,
    });
    return { found: { id: res.collectionId, name: res.collectionName } };
  } catch (err) {
    const e = err as { status?: number; response?: { message?: unknown }; isAbort?: boolean };
    if (e.isAbort || signal?.aborted) return { found: null };
    if (e.status === 404 && e.response?.message === NOT_FOUND_RECORD) return { found: null };
    // a missing route ('Not Found.'), a proxy's page, a 405: no such lookup on this server
    return e.status === 404 || e.status === 405 ? 'no-endpoint' : 'failed';
  }
}

/** Every collection (the active one first) asked for the id, FALLBACK_CONCURRENCY at a time. */
async function askLists(id: string, collections: readonly CollectionModel[], activeId: string, signal?: AbortSignal): Promise<FoundCollection | null> {
  const ordered = [...collections].sort((a, b) => Number(b.id === activeId) - Number(a.id === activeId));
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort);
  let next = 0;
  let hit: CollectionModel | null = null;
  const worker = async () => {
    while (!hit && !stop.signal.aborted && next < ordered.length) {
      const c = ordered[next++];
      const res = await pb
        .collection(c.id)
        .getList(1, 1, { filter: pb.filter('id = {:id}', { id }), skipTotal: true, fields: 'id', requestKey: null, signal: stop.signal })
        .catch(() => null); // a view that fails to list cannot hold the id for us
      if (res && res.items.length > 0 && !hit) {
        hit = c;
        stop.abort(); // the requests still out are no longer needed
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(FALLBACK_CONCURRENCY, ordered.length) }, worker));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return hit;
}

/** `collections` gives the list (loading it when needed), for servers without the endpoint. */
export async function findRecordCollection(
  id: string,
  collections: () => Promise<readonly CollectionModel[]>,
  activeId: string,
  signal?: AbortSignal,
): Promise<FoundCollection | null> {
  if (!endpointMissing) {
    const outcome = await askEndpoint(id, signal);
    if (typeof outcome === 'object') return outcome.found;
    endpointMissing = outcome === 'no-endpoint';
  }
  const list = await collections();
  return signal?.aborted ? null : askLists(id, list, activeId, signal);
}
