// Loading the records a relation field points at (full fetch in batches of 100 with
// id-equals filters joined by OR; the picker lists 50 per page, sort -created, '*:excerpt(200)').
import type { RecordModel } from 'pocketbase';
import { pb } from '../../api/client';
import { t } from '../../ui/i18n';

const RELATION_BATCH = 100;
export const PICKER_PER_PAGE = 50;

/** `id='a' || id='b'` with the ids quoted safely. */
function idsFilter(ids: readonly string[]): string {
  return ids.map((id) => pb.filter('id={:id}', { id })).join(' || ');
}

/** The records with these ids (any order), fetched in batches of 100. */
export async function loadRecordsByIds(collectionIdOrName: string, ids: readonly string[]): Promise<RecordModel[]> {
  const out: RecordModel[] = [];
  for (let i = 0; i < ids.length; i += RELATION_BATCH) {
    const chunk = ids.slice(i, i + RELATION_BATCH);
    const page = await pb.collection(collectionIdOrName).getList(1, chunk.length, {
      filter: idsFilter(chunk),
      fields: '*:excerpt(200)',
      skipTotal: true,
      requestKey: null,
    });
    out.push(...page.items);
  }
  return out;
}

/** The message under a relation field when ids it held were dropped. */
export const missingIdsMessage = (ids: readonly string[]) => t('recordWidget.missingIds', { ids: ids.join(', ') });
