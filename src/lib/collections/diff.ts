// What the confirm-changes dialog lists before saving an existing collection: a
// collection rename, field renames, multiple→single conversions and removed fields. For view
// collections only the name change counts.
import { isMultiple } from './fields';
import type { CollectionModel } from './types';

export interface PendingChanges {
  collectionRename: { from: string; to: string } | null;
  fieldRenames: { from: string; to: string }[];
  toSingle: string[];
  removed: string[];
}

export function pendingChanges(original: CollectionModel | null, draft: CollectionModel): PendingChanges {
  const out: PendingChanges = { collectionRename: null, fieldRenames: [], toSingle: [], removed: [] };
  if (!original || !original.id) return out;
  if (original.name !== draft.name) out.collectionRename = { from: original.name, to: draft.name };
  if (draft.type === 'view') return out;
  const oldById = new Map(original.schema.filter((f) => f.id).map((f) => [f.id, f]));
  for (const f of draft.schema) {
    const old = f.id ? oldById.get(f.id) : undefined;
    if (!old) continue;
    if (f.toDelete) {
      out.removed.push(old.name);
      continue;
    }
    if (old.name !== f.name) out.fieldRenames.push({ from: old.name, to: f.name });
    if (isMultiple(old) && !isMultiple(f)) out.toSingle.push(f.name);
  }
  return out;
}

export function needsConfirmation(changes: PendingChanges): boolean {
  return !!changes.collectionRename || changes.fieldRenames.length > 0 || changes.toSingle.length > 0 || changes.removed.length > 0;
}
