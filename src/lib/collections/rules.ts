// Rule editing: null means admins only, '' everyone. The lock button
// remembers the text it replaced; unlocking restores it (or ''). And the autocomplete keys of a
// rule: the collection's fields, relation paths up to 4 levels, @request.* and @collection.*.
import { systemFieldNames } from './fields';
import type { CollectionModel } from './types';
import { isRelationField } from '../../fields/relation/field';

const AUTOCOMPLETE_DEPTH = 4;

export interface RuleLockState {
  value: string | null;
  /** The text the lock replaced. */
  remembered: string;
}

export function lockRule(value: string | null): RuleLockState {
  return { value: null, remembered: value ?? '' };
}

export function unlockRule(remembered: string | undefined): string {
  return remembered ?? '';
}

type Lite = Pick<CollectionModel, 'id' | 'name' | 'type' | 'schema'>;

/** Field paths of a collection, following single/multiple relations up to `depth` levels. */
export function fieldKeys(collection: Lite | undefined, all: readonly Lite[], prefix = '', depth = AUTOCOMPLETE_DEPTH): string[] {
  if (!collection || depth <= 0) return [];
  const keys: string[] = systemFieldNames(collection.type).map((n) => prefix + n);
  for (const f of collection.schema ?? []) {
    if (f.toDelete || !f.name) continue;
    keys.push(prefix + f.name);
    if (isRelationField(f) && depth > 1) {
      const target = all.find((c) => c.id === f.options?.collectionId);
      if (target) keys.push(...fieldKeys(target, all, `${prefix}${f.name}.`, depth - 1));
    }
  }
  return keys;
}

/** Every autocomplete key of a rule editor for `collection` (the draft being edited). */
export function ruleAutocompleteKeys(collection: Lite | undefined, all: readonly Lite[]): string[] {
  const keys = new Set<string>();
  const others = all.filter((c) => !collection || c.id !== collection.id || !c.id);
  const withDraft = collection ? [collection, ...others] : [...all];
  fieldKeys(collection, withDraft).forEach((k) => keys.add(k));
  ['@request.method', '@request.context', '@request.headers.', '@request.query.'].forEach((k) => keys.add(k));
  // @request.data.* mirrors the collection's own fields
  fieldKeys(collection, withDraft, '@request.data.', 1).forEach((k) => keys.add(k));
  // @request.auth.*: the auth collections' fields
  keys.add('@request.auth.id');
  keys.add('@request.auth.collectionId');
  keys.add('@request.auth.collectionName');
  for (const c of withDraft.filter((x) => x.type === 'auth')) {
    fieldKeys(c, withDraft, '@request.auth.', AUTOCOMPLETE_DEPTH - 1).forEach((k) => keys.add(k));
  }
  for (const c of withDraft) {
    if (!c.name) continue;
    fieldKeys(c, withDraft, `@collection.${c.name}.`, AUTOCOMPLETE_DEPTH - 1).forEach((k) => keys.add(k));
  }
  return [...keys];
}
