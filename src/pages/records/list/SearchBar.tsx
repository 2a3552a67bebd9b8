// The records search/filter bar: autocomplete of the collection's field paths and macros; a plain
// term is normalised into an OR of contains matches before it goes to the URL.
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { FilterSearchBar } from '../../../shell/FilterSearchBar';
import { normalizeSearchFilter } from '../../../lib/filter-normalize';
import type { CollectionModel } from '../../../lib/collections/types';
import { searchableFields } from '../../../lib/records/format';
import { collectionsState } from '../../../state/collections';
import { searchAutocompleteKeys } from './autocomplete';
import { t } from '../../../ui/i18n';

export function RecordsSearchBar({
  collection,
  value,
  invalid,
  onSubmit,
}: {
  collection: CollectionModel;
  value: string;
  /** The server rejected the current filter (400): the bar is marked invalid, never a toast. */
  invalid: string;
  onSubmit: (filter: string) => void;
}) {
  const { collections } = useSnapshot(collectionsState);
  const keys = useMemo(
    () => searchAutocompleteKeys(collection, collections as unknown as CollectionModel[]),
    [collection, collections],
  );
  return (
    <FilterSearchBar
      className="records-search"
      value={value}
      keys={keys}
      invalid={invalid}
      onSubmit={onSubmit}
      ariaLabel={t('recordWidget.searchRecords')}
      placeholder={t('recordWidget.searchPlaceholder')}
      normalize={(text) => normalizeSearchFilter(text, searchableFields(collection))}
    />
  );
}
