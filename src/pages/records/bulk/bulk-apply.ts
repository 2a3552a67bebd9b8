// Applies one field value to many records: PATCH each record (rules and validation apply as for
// any update), a few at a time, reporting progress and collecting per-record errors. Nothing is
// retried or rolled back: the result says exactly which records changed and which did not.
import { ClientResponseError } from 'pocketbase';
import { pb } from '../../../api/client';
import { serverWords, t } from '../../../ui/i18n';

const BULK_CONCURRENCY = 4;

type BulkFailure = { id: string; message: string };
export type BulkResult = { updated: string[]; failed: BulkFailure[] };

/** The most specific message of a failed update: the field's error, else the response message. */
function failureMessage(err: unknown, field: string): string {
  if (err instanceof ClientResponseError) {
    const data = (err.response?.data ?? {}) as Record<string, { code?: string; message?: string } | undefined>;
    const own = data[field]?.message ? data[field] : Object.values(data).find((v) => v?.message);
    // the server's 0.22 words, in the dashboard's language through their code
    if (own?.message) return serverWords(own.message, own.code);
    if (err.status === 404) return t('bulkEdit.notFound');
    return err.response?.message ? serverWords(err.response.message) : err.message || t('bulkEdit.requestFailed');
  }
  return err instanceof Error ? err.message : String(err);
}

export async function applyToRecords(
  collectionId: string,
  ids: readonly string[],
  field: string,
  value: unknown,
  onProgress: (done: number) => void,
  signal?: AbortSignal,
): Promise<BulkResult> {
  const result: BulkResult = { updated: [], failed: [] };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < ids.length && !signal?.aborted) {
      const id = ids[next++];
      try {
        await pb.collection(collectionId).update(id, { [field]: value }, { requestKey: null });
        result.updated.push(id);
      } catch (err) {
        result.failed.push({ id, message: failureMessage(err, field) });
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ids.length) }, worker));
  return result;
}
