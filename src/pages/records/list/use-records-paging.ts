// The records list's pages: 40 per page with Load more (skipTotal), 'Total found: N' from a
// separate count query (page 1, size 1, fields id), and a quiet hint for an invalid filter.
// `generation` grows on every reload, so the list's other state (selection, live notices,
// rendered rows) can start over with it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError, pb } from '../../../api/client';
import { RECORDS_PER_PAGE } from '../../../lib/records/format';
import { defined, isAbort, statusOf, type ListQuery } from './list-helpers';

export function useRecordsPaging(collectionId: string, query: ListQuery, refreshKey: number) {
  const { filter, sort, expand, fields } = query;
  const [records, setRecords] = useState<RecordModel[]>([]);
  const [page, setPage] = useState(0);
  const [lastPageFull, setLastPageFull] = useState(false);
  const [loading, setLoading] = useState(true);
  const [invalid, setInvalid] = useState('');
  const [total, setTotal] = useState<number | null>(null);
  const [generation, setGeneration] = useState(0);
  const gen = useRef(0);

  const queryKey = `${collectionId}\n${filter}\n${sort}\n${expand}\n${fields}`;
  const loadPage = useCallback(
    async (pageNo: number, generation: number) => {
      setLoading(true);
      try {
        const result = await pb
          .collection(collectionId)
          .getList(pageNo, RECORDS_PER_PAGE, defined({ sort, filter, expand, fields, skipTotal: true, requestKey: 'records_list' }));
        if (generation !== gen.current) return;
        setRecords((list) => (pageNo === 1 ? result.items : [...list, ...result.items.filter((r) => !list.some((x) => x.id === r.id))]));
        setPage(pageNo);
        setLastPageFull(result.items.length >= RECORDS_PER_PAGE);
        setInvalid('');
        setLoading(false);
      } catch (err) {
        if (isAbort(err) || generation !== gen.current) return;
        setLoading(false);
        if (pageNo === 1) setRecords([]);
        setLastPageFull(false);
        // An invalid filter (400) shows no toast, only a quiet hint.
        if (statusOf(err) === 400 && filter) {
          const msg = (err as { response?: { message?: unknown } }).response?.message;
          const generic = typeof msg !== 'string' || !msg || msg.startsWith('Something went wrong');
          setInvalid(generic ? 'Invalid filter - check the field names and the syntax.' : `Invalid filter - ${msg}`);
        }
        handleError(err, { silent400: !!filter });
      }
    },
    // queryKey covers the collection id, the filter, sort, expand and fields
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey],
  );

  const reload = useCallback(() => {
    const g = ++gen.current;
    setGeneration(g);
    void loadPage(1, g);
  }, [loadPage]);

  // A new query (collection, filter, sort) starts from an empty page 1.
  const [shownKey, setShownKey] = useState(queryKey);
  if (shownKey !== queryKey) {
    setShownKey(queryKey);
    if (!queryKey.startsWith(shownKey.split('\n')[0] + '\n')) setRecords([]);
    setLoading(true);
    setTotal(null);
  }
  useEffect(() => {
    reload();
  }, [reload, refreshKey]);

  useEffect(() => {
    if (generation === 0) return; // the first reload bumps it
    let cancelled = false;
    pb.collection(collectionId)
      .getList(1, 1, defined({ filter, fields: 'id', requestKey: 'records_count' }))
      .then((r) => {
        if (!cancelled) setTotal(r.totalItems);
      })
      .catch((err) => {
        if (cancelled || isAbort(err)) return;
        setTotal(0);
        handleError(err, { silent400: true }); // the list reports anything that matters
      });
    return () => {
      cancelled = true;
    };
    // counted once per reload (generation), with the filter of that reload
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation]);

  const loadMore = () => void loadPage(page + 1, gen.current);

  return { records, setRecords, total, setTotal, loading, invalid, hasMore: lastPageFull, loadMore, reload, generation };
}
