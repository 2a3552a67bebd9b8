// Runs a records import: valid rows written in batches (rows with an existing id are updated,
// the others created); Cancel stops between batches, so a cancelled import leaves whole batches.
// A batch goes to Outpost's records-import endpoint in one request (server/http/records-io.ts);
// a server without it (PocketBase 0.22 answers 404) gets one create/update request per record, a
// few at a time. Either way every record is written in its own transaction: a failing row never
// leaves a half-written record, and the others are still written.
import { pb } from '../../../api/client';
import { idsFilter } from '../../../lib/records-io/export-rows';
import { apiErrorText, IMPORT_BATCH_SIZE, IMPORT_CONCURRENCY } from '../../../lib/records-io/import-rows';
import { serverWords, t } from '../../../ui/i18n';

type ErrorResponse = { message?: unknown; data?: Record<string, { code?: unknown; message?: unknown } | undefined> };

/** An API error's reason in the dashboard's language: the server's 0.22 messages through their codes. */
function reasonOf(err: unknown): string {
  const response = (err as { response?: ErrorResponse } | null)?.response;
  const fallback = { invalid: t('recordsIo.invalidValue'), failed: t('recordsIo.requestFailed') };
  if (!response) return apiErrorText(err, fallback);
  const words = (message: unknown, code?: unknown) => (typeof message === 'string' ? serverWords(message, typeof code === 'string' ? code : undefined) : message);
  const data = Object.fromEntries(Object.entries(response.data ?? {}).map(([k, e]) => [k, e && { ...e, message: words(e.message, e.code) }]));
  return apiErrorText({ ...(err as object), response: { ...response, message: words(response.message), data } }, fallback);
}

export interface ImportRow {
  /** 1-based row number in the file. */
  line: number;
  data: Record<string, unknown>;
}

export interface ImportFailure {
  line: number;
  reason: string;
}

export interface ImportSummary {
  created: number;
  updated: number;
  failed: ImportFailure[];
  cancelled: boolean;
}

export interface ImportJob {
  collectionId: string;
  rows: readonly ImportRow[];
  /** Checked between batches. */
  cancelled: () => boolean;
  onProgress: (done: number, total: number) => void;
  batchSize?: number;
}

type BatchItem = { row: ImportRow; update: boolean };
type ItemResult = { status: number; id?: string; message?: string; data?: unknown };

/** Statuses that say the server has no records-import endpoint (nothing was written). */
const NO_BATCH_ENDPOINT = new Set([404, 405]);

async function pool<T>(items: readonly T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

export async function runImport(job: ImportJob): Promise<ImportSummary> {
  const list = pb.collection(job.collectionId);
  const size = job.batchSize ?? IMPORT_BATCH_SIZE;
  const summary: ImportSummary = { created: 0, updated: 0, failed: [], cancelled: false };
  let done = 0;
  let batchEndpoint = true;
  job.onProgress(0, job.rows.length);
  for (let i = 0; i < job.rows.length; i += size) {
    if (job.cancelled()) {
      summary.cancelled = true;
      break;
    }
    const batch = job.rows.slice(i, i + size);
    const ids = batch.map((r) => r.data.id).filter((id): id is string => typeof id === 'string' && id !== '');
    const existing = new Set<string>();
    for (let k = 0; k < ids.length; k += 50) {
      const chunk = ids.slice(k, k + 50);
      try {
        const res = await list.getList(1, chunk.length, { filter: idsFilter(chunk), fields: 'id', skipTotal: true, requestKey: null });
        for (const r of res.items) existing.add(r.id);
      } catch {
        /* unknown: the rows are created, and a taken id fails with its reason */
      }
    }
    const items = batch.map((row) => ({ row, update: typeof row.data.id === 'string' && existing.has(row.data.id) }));
    const count = (r: BatchItem) => (r.update ? summary.updated++ : summary.created++);
    const fail = (r: BatchItem, reason: string) => summary.failed.push({ line: r.row.line, reason });
    let results: ItemResult[] | null = null;
    if (batchEndpoint) {
      try {
        const res = await pb.send<{ items: ItemResult[] }>(`/api/collections/${encodeURIComponent(job.collectionId)}/records-import`, {
          method: 'POST',
          body: { items: items.map((r) => (r.update ? { update: r.row.data.id, data: r.row.data } : { data: r.row.data })) },
          requestKey: null,
        });
        results = res.items;
      } catch (err) {
        const status = (err as { status?: number }).status ?? 0;
        if (!NO_BATCH_ENDPOINT.has(status)) {
          // the batch may have been written in part (a dropped connection): no retry, so no duplicates
          for (const r of items) fail(r, reasonOf(err));
          results = [];
        } else batchEndpoint = false;
      }
    }
    if (results) {
      results.forEach((res, k) => (res.status === 200 ? count(items[k]) : fail(items[k], reasonOf({ response: res }))));
    } else {
      await pool(items, IMPORT_CONCURRENCY, async (r) => {
        try {
          if (r.update) await list.update(r.row.data.id as string, r.row.data, { requestKey: null });
          else await list.create(r.row.data, { requestKey: null });
          count(r);
        } catch (err) {
          fail(r, reasonOf(err));
        }
      });
    }
    done += batch.length;
    job.onProgress(done, job.rows.length);
  }
  return summary;
}
