// The records search bar's autocomplete (pure): the collection's field names with relation paths
// (relations followed up to 4 levels) and the datetime macros an admin filter may use.
import { fieldKeys } from '../../../lib/collections/rules';
import type { CollectionModel } from '../../../lib/collections/types';

export { applySuggestion, insideQuotes, suggest, tokenAt } from '../../../lib/filter-autocomplete';

type Lite = Pick<CollectionModel, 'id' | 'name' | 'type' | 'schema'>;

const FILTER_MACROS = [
  '@now',
  '@second',
  '@minute',
  '@hour',
  '@weekday',
  '@day',
  '@month',
  '@year',
  '@todayStart',
  '@todayEnd',
  '@monthStart',
  '@monthEnd',
  '@yearStart',
  '@yearEnd',
] as const;

/** Field paths (relations followed) then the macros, without duplicates. */
export function searchAutocompleteKeys(collection: Lite, all: readonly Lite[]): string[] {
  const keys = fieldKeys(collection, all);
  // fieldKeys starts with id, created, updated; a view has only id (and whatever its query selects).
  const base = collection.type === 'view' ? ['id', ...keys.slice(3)] : keys;
  return [...new Set([...base, ...FILTER_MACROS])];
}
