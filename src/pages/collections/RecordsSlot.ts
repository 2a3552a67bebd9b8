/**
 * What the collections page and the records list (src/pages/records/list) agree on: the list's
 * props and the page-header actions the list registers (New record, API Preview). A module of its
 * own so that the list does not import the page that lazy-loads it.
 */
import { proxy } from 'valtio';
import type { CollectionModel } from '../../lib/collections/types';

export type RecordsSlotProps = {
  collection: CollectionModel;
  /** The `filter` query param. */
  filter: string;
  /** The records sort, already reset when it named unknown fields (default '-created'). */
  sort: string;
  /** The `recordId` query param (the record panel to open). */
  recordId: string;
  /** Bumped by the header's refresh button. */
  refreshKey: number;
};

/** Header actions the records list provides; the buttons stay disabled while unset. */
export const collectionsPageActions = proxy<{
  newRecord: ((c: CollectionModel) => void) | null;
  apiPreview: ((c: CollectionModel) => void) | null;
  /** Set (by the command palette) to open the new-collection panel once the page is shown. */
  newCollectionRequested?: boolean;
}>({ newRecord: null, apiPreview: null, newCollectionRequested: false });
