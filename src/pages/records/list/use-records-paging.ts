// The records list's pages: 40 per page with Load more (skipTotal), and a quiet hint for an
// invalid filter. 'Total found' and the live changes are the ledger's (use-live-ledger), which
// every reload and every page answered is reported to. `generation` grows on every reload, so the
// list's other state (selection, rendered rows) can start over with it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RecordModel } from 'pocketbase';
import { handleError } from '../../../api/client';
import { RECORDS_PER_PAGE } from '../../../lib/records/format';
import { fetchRecordsPage, firstRecordsPage, peekFirstRecordsPage } from './first-page';
import { isAbort, statusOf, type ListQuery } from './list-helpers';
import type { LiveLedgerAccess } from './use-live-ledger';
import { serverWords, t } from '../../../ui/i18n';

export function useRecordsPaging(collectionId: string, query: ListQuery, refreshKey: number, live: LiveLedgerAccess) {
  const { filter, sort, expand, fields } = query;
  const { ledger, publish, reloadSent } = live;
  // the early first page when it is already in: rows in the first render (the load below takes it)
  const [records, setRecords] = useState<RecordModel[]>(() => peekFirstRecordsPage(collectionId, query) ?? []);
  const [page, setPage] = useState(0);
  const [lastPageFull, setLastPageFull] = useState(false);
  const [loading, setLoading] = useState(true);
  const [invalid, setInvalid] = useState('');
  /** Page 1 without a filter was refused (400): the collection itself cannot be read (a broken view). */
  const [unreadable, setUnreadable] = useState(false);
  const [generation, setGeneration] = useState(0);
  const gen = useRef(0);

  const queryKey = `${collectionId}\n${filter}\n${sort}\n${expand}\n${fields}`;
  const loadPage = useCallback(
    async (pageNo: number, generation: number) => {
      setLoading(true);
      const sent = ledger.pageSent();
      try {
        const q = { filter, sort, expand, fields };
        // page 1 may have been asked for as the app started (./first-page)
        const result = await (pageNo === 1 ? firstRecordsPage(collectionId, q) : fetchRecordsPage(collectionId, pageNo, q));
        if (generation !== gen.current) return;
        // the events seen while the page was in flight are reconciled with its rows
        const more = result.items.length >= RECORDS_PER_PAGE;
        const { skip, keep } = ledger.pageLoaded(
          result.items.map((r) => r.id),
          { first: pageNo === 1, more, sent },
        );
        const items = result.items.filter((r) => !skip.has(r.id));
        setRecords((list) =>
          pageNo === 1 ? [...list.filter((r) => keep.includes(r.id)), ...items] : [...list, ...items.filter((r) => !list.some((x) => x.id === r.id))],
        );
        publish();
        setPage(pageNo);
        setLastPageFull(more);
        setInvalid('');
        setUnreadable(false);
        setLoading(false);
      } catch (err) {
        if (isAbort(err) || generation !== gen.current) return;
        setLoading(false);
        if (pageNo === 1) {
          setRecords([]);
          ledger.cleared();
          publish();
        }
        setLastPageFull(false);
        // An invalid filter (400) shows no toast, only a quiet hint.
        if (statusOf(err) === 400 && filter) {
          const msg = (err as { response?: { message?: unknown } }).response?.message;
          const generic = typeof msg !== 'string' || !msg || msg.startsWith('Something went wrong');
          setInvalid(generic ? t('recordList.invalidFilter') : t('recordList.invalidFilterMessage', { message: serverWords(String(msg)) }));
        }
        setUnreadable(pageNo === 1 && !filter && statusOf(err) === 400);
        handleError(err, { silent400: !!filter });
      }
    },
    // queryKey covers the collection id, the filter, sort, expand and fields (and so the ledger)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey],
  );

  const reload = useCallback(() => {
    const g = ++gen.current;
    setGeneration(g);
    reloadSent();
    void loadPage(1, g);
  }, [loadPage, reloadSent]);

  // A new query (collection, filter, sort) starts from an empty page 1.
  const [shownKey, setShownKey] = useState(queryKey);
  if (shownKey !== queryKey) {
    setShownKey(queryKey);
    if (!queryKey.startsWith(shownKey.split('\n')[0] + '\n')) setRecords([]);
    setLoading(true);
  }
  useEffect(() => {
    reload();
  }, [reload, refreshKey]);

  const loadMore = () => void loadPage(page + 1, gen.current);

  return { records, setRecords, loading, invalid, unreadable, hasMore: lastPageFull, loadMore, reload, generation };
}
