// Runs a records export: the records of the list's filter and sort (same rules and auth as the
// list) written to a sink as they arrive; progress after each request; an AbortSignal cancels.
import type { RecordModel } from 'pocketbase';
import { pb } from '../../../api/client';
import type { CollectionModel } from '../../../lib/collections/types';
import {
  EXPORT_IDS_PER_FETCH,
  EXPORT_IDS_PER_REQUEST,
  EXPORT_REQUESTS_IN_FLIGHT,
  EXPORT_PAGE_SIZE,
  exportChunk,
  exportColumns,
  exportExpand,
  exportHead,
  exportTail,
  idsFilter,
  type ExportOptions,
} from '../../../lib/records-io/export-rows';
import { inOrder } from '../../../lib/records-io/in-order';
import type { RecordLike } from '../../../lib/records/format';
import type { ExportSink } from './export-sinks';

export interface ExportJob {
  collection: CollectionModel;
  collectionsById: ReadonlyMap<string, CollectionModel>;
  /** The list's filter and sort (used when `ids` is unset). */
  filter: string;
  sort: string;
  /** The selection, exported in the list's sort. */
  ids?: readonly string[];
  options: ExportOptions;
  sink: ExportSink;
  signal: AbortSignal;
  onProgress: (done: number, total: number) => void;
}

const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined));

/** Statuses that say the server has no records-ids endpoint. */
const NO_IDS_ENDPOINT = new Set([404, 405]);

/**
 * Every id the list gives for `filter` and `sort`, in order, from Outpost's records-ids endpoint
 * (server/http/records-io.ts); null from a server without it, or when not all ids fit.
 */
async function orderedIds(collectionId: string, filter: string, sort: string, signal: AbortSignal): Promise<string[] | null> {
  try {
    const res = await pb.send<{ ids: string[]; complete: boolean }>(`/api/collections/${encodeURIComponent(collectionId)}/records-ids`, {
      query: clean({ filter, sort }),
      requestKey: null,
      signal,
    });
    return res.complete ? res.ids : null;
  } catch (err) {
    if (NO_IDS_ENDPOINT.has((err as { status?: number }).status ?? 0)) return null;
    throw err;
  }
}

/** Writes every record; resolves with how many were written (rejects on abort or API errors). */
export async function runExport(job: ExportJob): Promise<number> {
  const { collection, options, sink, signal } = job;
  const columns = exportColumns(collection);
  const expand = exportExpand(collection, options);
  const list = pb.collection(collection.id);
  let written = 0;
  const put = async (items: RecordModel[]) => {
    await sink.write(exportChunk(items as unknown as RecordLike[], columns, collection, options, job.collectionsById, written));
    written += items.length;
  };

  // the filter's ids in order from Outpost's records-ids (one sort), else pages (PocketBase 0.22)
  const listed = job.ids ? null : await orderedIds(collection.id, job.filter, job.sort, signal);
  const ids = job.ids ?? listed;
  let total: number;
  if (ids) total = ids.length;
  else total = (await list.getList(1, 1, clean({ filter: job.filter, fields: 'id', requestKey: null, signal }))).totalItems;
  job.onProgress(0, total);
  await sink.write(exportHead(columns, options.format));

  // a few requests in flight, written in order
  if (ids) {
    // ids from records-ids: Outpost's records-by-ids, in their order; a selection: the list, in its sort
    const perRequest = listed ? EXPORT_IDS_PER_FETCH : EXPORT_IDS_PER_REQUEST;
    const fetchChunk = (chunk: string[]): Promise<{ items: RecordModel[] }> =>
      listed
        ? pb.send(`/api/collections/${encodeURIComponent(collection.id)}/records-by-ids`, { method: 'POST', body: { ids: chunk }, query: clean({ expand }), requestKey: null, signal })
        : list.getList(1, chunk.length, clean({ filter: idsFilter(chunk), sort: job.sort, expand, skipTotal: true, requestKey: null, signal }));
    const chunks = Math.ceil(ids.length / perRequest);
    await inOrder(chunks, EXPORT_REQUESTS_IN_FLIGHT, (i) => fetchChunk(ids.slice(i * perRequest, (i + 1) * perRequest)), async (res) => {
      await put(res.items);
      job.onProgress(written, total);
      return true;
    });
  } else {
    const page = (n: number) => list.getList(n, EXPORT_PAGE_SIZE, clean({ filter: job.filter, sort: job.sort, expand, skipTotal: true, requestKey: null, signal }));
    let full = true;
    const consume = async (res: { items: RecordModel[] }) => {
      await put(res.items);
      job.onProgress(written, Math.max(total, written));
      full = res.items.length === EXPORT_PAGE_SIZE;
      return full;
    };
    const counted = Math.max(1, Math.ceil(total / EXPORT_PAGE_SIZE));
    await inOrder(counted, EXPORT_REQUESTS_IN_FLIGHT, (i) => page(i + 1), consume);
    // records added meanwhile: the pages past the counted ones, one at a time
    for (let n = counted + 1; full; n++) {
      signal.throwIfAborted();
      await consume(await page(n));
    }
  }
  signal.throwIfAborted();
  await sink.write(exportTail(options.format, written));
  await sink.close();
  return written;
}
