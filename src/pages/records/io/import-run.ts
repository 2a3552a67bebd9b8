// Runs a records import: valid rows written in batches (rows with an existing id are updated,
// the others created), a few requests at a time; Cancel stops between batches, so a cancelled
// import leaves whole batches. Every record is one create/update request, which the server writes
// in one transaction: a failing row never leaves a half-written record.
import { pb } from '../../../api/client';
import { idsFilter } from '../../../lib/records-io/export-rows';
import { apiErrorText, IMPORT_BATCH_SIZE, IMPORT_CONCURRENCY } from '../../../lib/records-io/import-rows';

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
    await pool(batch, IMPORT_CONCURRENCY, async (row) => {
      const id = row.data.id as string | undefined;
      try {
        if (id && existing.has(id)) {
          await list.update(id, row.data, { requestKey: null });
          summary.updated++;
        } else {
          await list.create(row.data, { requestKey: null });
          summary.created++;
        }
      } catch (err) {
        summary.failed.push({ line: row.line, reason: apiErrorText(err) });
      }
    });
    done += batch.length;
    job.onProgress(done, job.rows.length);
  }
  return summary;
}
