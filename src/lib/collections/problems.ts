// What a collection holds that PocketBase 0.22 saves but that then breaks its records: a migration's
// Dao saves without validating, so an old project can leave a JSON field without a maximum size
// (0.22 then refuses every value) or a relation pointing at a collection that was never created.
// The records screen shows these above the list (beyond 0.22, which says nothing).
import { isJsonField } from '../../fields/json/field';
import { isRelationField } from '../../fields/relation/field';
import type { CollectionModel } from './types';

/** A problem of one field: `jsonMaxSize` (no maximum size) or `relationTarget` (`target`, '' for none, does not exist). */
export type CollectionProblem = { kind: 'jsonMaxSize'; field: string } | { kind: 'relationTarget'; field: string; target: string };

export function collectionProblems(collection: CollectionModel, all: readonly CollectionModel[]): CollectionProblem[] {
  if (collection.type === 'view') return [];
  const problems: CollectionProblem[] = [];
  for (const field of collection.schema) {
    if (isJsonField(field) && !(Number(field.options.maxSize) > 0)) problems.push({ kind: 'jsonMaxSize', field: field.name });
    if (isRelationField(field)) {
      const target = String(field.options.collectionId ?? '');
      if (!all.some((c) => c.id === target)) problems.push({ kind: 'relationTarget', field: field.name, target });
    }
  }
  return problems;
}
