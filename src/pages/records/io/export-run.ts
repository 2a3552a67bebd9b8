// Runs a records export: pages of the records list API (same filter, sort, rules and auth as the
// list) written to a sink as they arrive; progress after each page; an AbortSignal cancels.
import type { RecordModel } from 'pocketbase';
import { pb } from '../../../api/client';
import type { CollectionModel } from '../../../lib/collections/types';
import {
  EXPORT_IDS_PER_REQUEST,
  EXPORT_PAGE_SIZE,
  exportChunk,
  exportColumns,
  exportExpand,
  exportHead,
  exportTail,
  idsFilter,
  type ExportOptions,
} from '../../../lib/records-io/export-rows';
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

  let total: number;
  if (job.ids) total = job.ids.length;
  else total = (await list.getList(1, 1, clean({ filter: job.filter, fields: 'id', requestKey: null, signal }))).totalItems;
  job.onProgress(0, total);
  await sink.write(exportHead(columns, options.format));

  if (job.ids) {
    for (let i = 0; i < job.ids.length; i += EXPORT_IDS_PER_REQUEST) {
      signal.throwIfAborted();
      const ids = job.ids.slice(i, i + EXPORT_IDS_PER_REQUEST);
      const res = await list.getList(1, ids.length, clean({ filter: idsFilter(ids), sort: job.sort, expand, skipTotal: true, requestKey: null, signal }));
      await put(res.items);
      job.onProgress(written, total);
    }
  } else {
    for (let page = 1; ; page++) {
      signal.throwIfAborted();
      const res = await list.getList(page, EXPORT_PAGE_SIZE, clean({ filter: job.filter, sort: job.sort, expand, skipTotal: true, requestKey: null, signal }));
      await put(res.items);
      job.onProgress(written, Math.max(total, written));
      if (res.items.length < EXPORT_PAGE_SIZE) break;
    }
  }
  signal.throwIfAborted();
  await sink.write(exportTail(options.format, written));
  await sink.close();
  return written;
}
