// What a collection holds that PocketBase 0.22 saves but that then breaks its records: a migration's
// Dao saves without validating, so an old project can leave a JSON field without a maximum size
// (0.22 then refuses every value) or a relation pointing at a collection that was never created.
// The records screen shows these above the list (beyond 0.22, which says nothing).
import { isJsonField } from '../../fields/json/field';
import { isRelationField } from '../../fields/relation/field';
import type { CollectionModel } from './types';

export function collectionProblems(collection: CollectionModel, all: readonly CollectionModel[]): string[] {
  if (collection.type === 'view') return [];
  const problems: string[] = [];
  for (const field of collection.schema) {
    if (isJsonField(field) && !(Number(field.options.maxSize) > 0)) {
      problems.push(
        `The JSON field "${field.name}" has a maximum size of 0 bytes, so every value is refused. Set its max size in the collection's fields.`,
      );
    }
    if (isRelationField(field)) {
      const target = String(field.options.collectionId ?? '');
      if (!all.some((c) => c.id === target)) {
        problems.push(`The relation field "${field.name}" points to a collection that does not exist (${target || 'none'}). Choose one in the collection's fields.`);
      }
    }
  }
  return problems;
}
