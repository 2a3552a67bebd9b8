// The records list's query for a collection and the address's filter and sort, and its first page
// asked for early: when the app starts on #/collections the first page is requested as soon as the
// collections list answers (./records-first-load), while the page's and the list's code still
// download, instead of after the list has mounted. The early answer is taken once, by the list's
// first load whose query matches, while fresh (an app that left the screen before it showed must
// not show those rows later); any other load asks the server itself. The early request has a
// request key of its own: the SDK cancels a request when another one with its key is sent, and the
// list (which may have asked first, when its code and the collections came in before this module
// ran) must not lose its own.
import type { ListResult, RecordModel } from 'pocketbase';
import { pb } from '../../../api/client';
import { normalizeRecordsSort } from '../../../lib/collections/list';
import type { CollectionModel } from '../../../lib/collections/types';
import { normalizeSearchFilter } from '../../../lib/filter-normalize';
import { listExpand, listFields, RECORDS_PER_PAGE, searchableFields } from '../../../lib/records/format';
import { defined, type ListQuery } from './list-helpers';

const LIST_REQUEST_KEY = 'records_list';
const EARLY_REQUEST_KEY = 'records_list_early';
/** An early answer older than this is not used. */
const EARLY_MAX_AGE_MS = 10_000;

/** The list's filter (a plain term searched in the collection's text fields), expand and fields. */
export function listQueryOf(collection: CollectionModel, filter: string, sort: string): ListQuery {
  return {
    filter: normalizeSearchFilter(filter, searchableFields(collection)),
    sort,
    expand: listExpand(collection),
    fields: listFields(collection),
  };
}

/** One page of the list (skipTotal: 'Total found' is counted apart). */
export function fetchRecordsPage(collectionId: string, page: number, query: ListQuery, requestKey = LIST_REQUEST_KEY): Promise<ListResult<RecordModel>> {
  const { filter, sort, expand, fields } = query;
  return pb.collection(collectionId).getList(page, RECORDS_PER_PAGE, defined({ sort, filter, expand, fields, skipTotal: true, requestKey }));
}

const keyOf = (collectionId: string, q: ListQuery) => [collectionId, q.filter, q.sort, q.expand, q.fields].join('\n');

let early: { key: string; answer: Promise<ListResult<RecordModel>>; at: number; result?: ListResult<RecordModel> } | null = null;
/** Set once the list has asked for a first page: an early request would come too late. */
let listAsked = false;

/** Asks for the first page `collection` will show with the address's filter and sort (`rawSort` as written). */
export function startEarlyFirstPage(collection: CollectionModel, filter: string, rawSort: string | undefined): void {
  if (listAsked) return;
  const query = listQueryOf(collection, filter, normalizeRecordsSort(rawSort, collection));
  const answer = fetchRecordsPage(collection.id, 1, query, EARLY_REQUEST_KEY);
  // an answer nobody takes must not surface as an unhandled rejection
  answer.catch(() => undefined);
  const entry: NonNullable<typeof early> = { key: keyOf(collection.id, query), answer, at: performance.now() };
  answer.then((result) => (entry.result = result), () => undefined);
  early = entry;
}

const fresh = (collectionId: string, query: ListQuery) =>
  early && early.key === keyOf(collectionId, query) && performance.now() - early.at < EARLY_MAX_AGE_MS ? early : null;

/**
 * The early first page's rows when they are already in, for the list's first render (it then
 * draws rows, not the skeleton and a second render); the list's load still takes the answer.
 */
export function peekFirstRecordsPage(collectionId: string, query: ListQuery): RecordModel[] | null {
  return fresh(collectionId, query)?.result?.items ?? null;
}

/** The first page: the early answer when it was asked for this query and is fresh (once), else a new request. */
export function firstRecordsPage(collectionId: string, query: ListQuery): Promise<ListResult<RecordModel>> {
  const taken = fresh(collectionId, query)?.answer ?? null;
  early = null;
  listAsked = true;
  return taken ?? fetchRecordsPage(collectionId, 1, query);
}
