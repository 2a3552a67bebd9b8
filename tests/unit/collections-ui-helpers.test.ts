// Pure helpers of the collections screens: slugs, field handling, indexes, payload, the
// confirm-changes diff, rule autocomplete, sidebar order, form documents.
import { describe, expect, it } from 'vitest';
import { pendingChanges, needsConfirmation } from '../../src/lib/collections/diff';
import {
  canMoveField, duplicateField, moveField, newField, removeField, restoreField, setMultiple, uniqueFieldName, editableField,
} from '../../src/lib/collections/fields';
import { buildIndex, indexLabel, parseIndex, renameIndexColumn, renameIndexTable } from '../../src/lib/collections/indexes';
import { isCompact, normalizeRecordsSort, sortCollections } from '../../src/lib/collections/list';
import {
  changeType, collectionPayload, duplicateCollection, editableCollection, hasChanges, newCollection, renameCollection, renameField,
} from '../../src/lib/collections/payload';
import { lockRule, ruleAutocompleteKeys, unlockRule } from '../../src/lib/collections/rules';
import { slugify } from '../../src/lib/collections/slug';
import type { CollectionModel, SchemaField } from '../../src/lib/collections/types';
import { docToField, fieldToDoc, withExclusions } from '../../src/pages/collections/form-docs';

const field = (name: string, extra: Partial<SchemaField> = {}): SchemaField => ({
  id: 'id_' + name, name, type: 'text', system: false, required: false, presentable: false, options: {}, ...extra,
});
const coll = (extra: Partial<CollectionModel> = {}): CollectionModel => ({ ...newCollection('base'), id: 'c1', name: 'posts', ...extra });

describe('slugify', () => {
  it('turns other characters into _ and drops accents', () => {
    expect(slugify('My posts!')).toBe('My_posts_');
    expect(slugify('  café au lait')).toBe('cafe_au_lait');
    expect(slugify('a__b')).toBe('a__b');
  });
});

describe('fields', () => {
  it('names new fields uniquely (field, field2, …) and avoids system columns', () => {
    expect(uniqueFieldName('field', [])).toBe('field');
    expect(uniqueFieldName('field', [field('field'), field('field2')])).toBe('field3');
    expect(uniqueFieldName('id', [], ['id'])).toBe('id2');
    expect(newField('number', [field('field')]).name).toBe('field2');
  });

  it('removes a saved field as toDelete (name reverts), a new one at once, and restores', () => {
    const saved = { ...editableField(field('title')), name: 'renamed' };
    const fresh = newField('bool', [saved]);
    let list = removeField([saved, fresh], 0);
    expect(list[0]).toMatchObject({ toDelete: true, name: 'title' });
    list = removeField(list, 1);
    expect(list).toHaveLength(1);
    expect(restoreField(list, 0)[0].toDelete).toBe(false);
  });

  it('duplicates with _copy after the original, never a field marked for deletion', () => {
    const list = duplicateField([field('a'), field('a_copy')], 0);
    expect(list.map((f) => f.name)).toEqual(['a', 'a_copy2', 'a_copy']);
    expect(list[1].id).toBe('');
    expect(duplicateField([field('a', { toDelete: true })], 0)).toHaveLength(1);
  });

  it('does not move fields marked for deletion nor existing system fields', () => {
    const list = [field('a'), field('b', { toDelete: true }), field('c', { system: true }), field('d')];
    expect(canMoveField(list[1])).toBe(false);
    expect(canMoveField(list[2])).toBe(false);
    expect(moveField(list, 0, 1).map((f) => f.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(moveField([field('a'), field('b')], 1, 0).map((f) => f.name)).toEqual(['b', 'a']);
  });

  it('switches single/multiple: select by its values, file to 99, relation unbounded', () => {
    const select = field('s', { type: 'select', options: { values: ['a', 'b', 'c'], maxSelect: 1 } });
    expect(setMultiple(select, true).options.maxSelect).toBe(3);
    expect(setMultiple({ ...select, options: { values: [], maxSelect: 1 } }, true).options.maxSelect).toBe(2);
    // the number of values, 2 only when there are none; the switch stays on multiple
    const one = setMultiple({ ...select, options: { values: ['a'], maxSelect: 1 } }, true);
    expect(one.options.maxSelect).toBe(1);
    expect(one.multiple).toBe(true);
    expect(setMultiple(one, false).options.maxSelect).toBe(1);
    expect(setMultiple(one, false).multiple).toBe(false);
    expect(setMultiple(field('f', { type: 'file', options: { maxSelect: 1 } }), true).options.maxSelect).toBe(99);
    const rel = setMultiple(field('r', { type: 'relation', options: { maxSelect: null, minSelect: 2 } }), false);
    expect(rel.options).toMatchObject({ maxSelect: 1, minSelect: null });
    expect(setMultiple(rel, true).options.maxSelect).toBeNull();
  });
});

describe('indexes', () => {
  const stmt = 'CREATE UNIQUE INDEX `idx_abc` ON `posts` (`title`)';
  it('parses, builds and labels', () => {
    expect(parseIndex(stmt)).toMatchObject({ unique: true, indexName: 'idx_abc', tableName: 'posts', columns: [{ name: 'title' }] });
    expect(buildIndex(parseIndex(stmt))).toBe(stmt);
    expect(indexLabel(stmt)).toBe('Unique: title');
    expect(indexLabel('CREATE INDEX `i` ON `posts` (`a`, `b`)')).toBe('a, b');
  });
  it('renames the table and columns', () => {
    expect(renameIndexTable(stmt, 'articles')).toBe('CREATE UNIQUE INDEX `idx_abc` ON `articles` (`title`)');
    expect(renameIndexColumn(stmt, 'title', 'headline')).toBe('CREATE UNIQUE INDEX `idx_abc` ON `posts` (`headline`)');
    expect(renameIndexColumn(stmt, 'other', 'x')).toBe(stmt);
  });
});

describe('payload and changes', () => {
  it('drops toDelete fields and client-only properties', () => {
    const c = editableCollection(coll({ schema: [field('a'), field('b')] }));
    c.schema[1].toDelete = true;
    const body = collectionPayload(c);
    expect((body.schema as SchemaField[]).map((f) => f.name)).toEqual(['a']);
    expect(Object.keys((body.schema as object[])[0])).not.toContain('originalName');
  });
  it('detects changes; renames rewrite indexes; view switch clears rules and indexes', () => {
    const original = editableCollection(coll({ schema: [field('a')], indexes: ['CREATE INDEX `i` ON `posts` (`a`)'], createRule: '' }));
    expect(hasChanges(original, editableCollection(original))).toBe(false);
    const renamed = renameField(renameCollection(original, 'articles'), 0, 'b');
    expect(renamed.indexes[0]).toBe('CREATE INDEX `i` ON `articles` (`b`)');
    expect(hasChanges(original, renamed)).toBe(true);
    const view = changeType(original, 'view');
    expect(view).toMatchObject({ createRule: null, indexes: [], options: { query: '' } });
    expect(changeType(newCollection(), 'auth').options).toMatchObject({ allowEmailAuth: true, allowUsernameAuth: true, allowOAuth2Auth: true, minPasswordLength: 8 });
  });
  it('duplicates with _duplicate, no ids and renamed indexes', () => {
    const dup = duplicateCollection(coll({ schema: [field('a')], indexes: ['CREATE INDEX `i` ON `posts` (`a`)'] }));
    expect(dup).toMatchObject({ id: '', name: 'posts_duplicate' });
    expect(dup.schema[0].id).toBe('');
    expect(dup.indexes[0]).toMatch(/^CREATE INDEX `idx_\w{7}` ON `posts_duplicate` \(`a`\)$/);
  });
  it('lists what the confirm-changes dialog shows, and nothing for a pure option change', () => {
    const original = editableCollection(coll({ schema: [field('a'), field('tags', { type: 'select', options: { values: ['x', 'y'], maxSelect: 2 } }), field('c')] }));
    const draft = renameCollection(editableCollection(original), 'posts2');
    draft.schema[0].name = 'aa';
    draft.schema[1] = setMultiple(draft.schema[1], false);
    draft.schema = removeField(draft.schema, 2);
    const changes = pendingChanges(original, draft);
    expect(changes).toEqual({ collectionRename: { from: 'posts', to: 'posts2' }, fieldRenames: [{ from: 'a', to: 'aa' }], toSingle: ['tags'], removed: ['c'] });
    const minor = editableCollection(original);
    minor.schema[0].required = true;
    expect(needsConfirmation(pendingChanges(original, minor))).toBe(false);
  });
});

describe('rules', () => {
  it('locks remembering the text and unlocks restoring it', () => {
    const locked = lockRule("id != ''");
    expect(locked.value).toBeNull();
    expect(unlockRule(locked.remembered)).toBe("id != ''");
    expect(unlockRule(undefined)).toBe('');
  });
  it('autocompletes fields, relation paths, @request.* and @collection.*', () => {
    const users = coll({ id: 'u', name: 'users', type: 'auth', schema: [field('team', { type: 'relation', options: { collectionId: 't' } })] });
    const teams = coll({ id: 't', name: 'teams', schema: [field('title'), field('owner', { type: 'relation', options: { collectionId: 'u' } })] });
    const keys = ruleAutocompleteKeys(coll({ id: 'p', schema: [field('author', { type: 'relation', options: { collectionId: 'u' } })] }), [users, teams]);
    expect(keys).toEqual(expect.arrayContaining(['author', 'author.team.title', 'author.team.owner.team', '@request.auth.id', '@request.data.author', '@collection.teams.title']));
    expect(keys).not.toContain('author.team.owner.team.title'); // 4 levels at most
  });
});

describe('sidebar and page', () => {
  it('orders auth, base, view by name; compact above 20', () => {
    const list = [coll({ name: 'b', type: 'view' }), coll({ name: 'z' }), coll({ name: 'a' }), coll({ name: 'users', type: 'auth' })];
    expect(sortCollections(list).map((c) => c.name)).toEqual(['users', 'a', 'z', 'b']);
    expect(isCompact(20)).toBe(false);
    expect(isCompact(21)).toBe(true);
  });
  it('resets a sort naming unknown fields', () => {
    const c = coll({ schema: [field('title')] });
    expect(normalizeRecordsSort('-title', c)).toBe('-title');
    expect(normalizeRecordsSort('-nope', c)).toBe('-created');
    expect(normalizeRecordsSort('-nope', coll({ type: 'view', schema: [] }))).toBe('');
  });
});

describe('field options documents', () => {
  it('round-trips a field and applies the multiple switch', () => {
    const f = field('f', { type: 'file', options: { mimeTypes: null, thumbs: null, maxSelect: 1, maxSize: 5, protected: false } });
    const doc = fieldToDoc(f);
    expect(doc).toMatchObject({ mimeTypes: [], multiple: false, required: false });
    expect(docToField(f, doc).options.mimeTypes).toBeNull();
    expect(docToField(f, { ...doc, multiple: true }).options.maxSelect).toBe(99);
  });
  it('disables a list while its exclusive partner has items', () => {
    const ui = { a: { 'ui:widget': 'csv', 'ui:options': { exclusiveWith: 'b' } }, b: { 'ui:widget': 'csv' } };
    expect(withExclusions(ui, { a: [], b: ['x'] }).a).toMatchObject({ 'ui:disabled': true });
    expect(withExclusions(ui, { a: [], b: [] })).toBe(ui);
  });
});
