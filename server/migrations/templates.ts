// The JS files PocketBase 0.22's migratecmd writes (plugins/migratecmd/templates.go), byte for
// byte: the blank template of `migrate create`, the snapshot of `migrate collections` and the
// create / delete / diff files automigrate writes for a collection change.
import type { Collection, SchemaField } from '../collections/model';
import { collectionJson } from '../collections/normalize';
import { goQuote, marshalIndent } from './go-json';

const TYPES_DIRECTIVE = '/// <reference path="../pb_data/types.d.ts" />\n';

export function blankTemplate(): string {
  return `${TYPES_DIRECTIVE}migrate((db) => {
  // add up queries...
}, (db) => {
  // add down queries...
})
`;
}

export function snapshotTemplate(collections: readonly Collection[]): string {
  return `${TYPES_DIRECTIVE}migrate((db) => {
  const snapshot = ${marshalIndent(collections.map(collectionJson))};

  const collections = snapshot.map((item) => new Collection(item));

  return Dao(db).importCollections(collections, true, null);
}, (db) => {
  return null;
})
`;
}

function createTemplate(c: Collection): string {
  return `${TYPES_DIRECTIVE}migrate((db) => {
  const collection = new Collection(${marshalIndent(collectionJson(c))});

  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId(${goQuote(c.id)});

  return dao.deleteCollection(collection);
})
`;
}

function deleteTemplate(c: Collection): string {
  return `${TYPES_DIRECTIVE}migrate((db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId(${goQuote(c.id)});

  return dao.deleteCollection(collection);
}, (db) => {
  const collection = new Collection(${marshalIndent(collectionJson(c))});

  return Dao(db).saveCollection(collection);
})
`;
}

const V = 'collection';
const RULES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'] as const;
const ruleLine = (prop: string, rule: string | null) => (rule === null ? `${V}.${prop} = null` : `${V}.${prop} = ${goQuote(rule)}`);
const fieldJson = (f: SchemaField) => marshalIndent(f);

/**
 * The file for a change from `old` to `next` (either may be null: create, delete), or null when
 * nothing 0.22 compares differs (its emptyTemplateErr: no file is written).
 */
export function diffTemplate(next: Collection | null, old: Collection | null): string | null {
  if (!next && !old) throw new Error('the diff template needs at least one collection');
  if (!next) return deleteTemplate(old as Collection);
  if (!old) return createTemplate(next);

  const up: string[] = [];
  const down: string[] = [];
  if (old.name !== next.name) {
    up.push(`${V}.name = ${goQuote(next.name)}`);
    down.push(`${V}.name = ${goQuote(old.name)}`);
  }
  if (old.type !== next.type) {
    up.push(`${V}.type = ${goQuote(next.type)}`);
    down.push(`${V}.type = ${goQuote(old.type)}`);
  }
  if (old.system !== next.system) {
    up.push(`${V}.system = ${next.system}`);
    down.push(`${V}.system = ${old.system}`);
  }
  for (const prop of RULES) {
    const before = ruleLine(prop, old[prop]);
    const after = ruleLine(prop, next[prop]);
    if (before !== after) {
      up.push(after);
      down.push(before);
    }
  }
  const newOptions = marshalIndent(next.options);
  const oldOptions = marshalIndent(old.options);
  if (newOptions !== oldOptions) {
    up.push(`${V}.options = ${newOptions}`);
    down.push(`${V}.options = ${oldOptions}`);
  }
  const newIndexes = marshalIndent(next.indexes);
  const oldIndexes = marshalIndent(old.indexes);
  if (newIndexes !== oldIndexes) {
    up.push(`${V}.indexes = ${newIndexes}`);
    down.push(`${V}.indexes = ${oldIndexes}`);
  }
  // a blank line between the collection's own properties and its fields
  if (up.length) up[up.length - 1] += '\n';
  if (down.length) down[down.length - 1] += '\n';

  const byId = (list: SchemaField[], id: string) => list.find((f) => f.id === id);
  for (const f of old.schema) {
    if (byId(next.schema, f.id)) continue;
    up.push('// remove', `${V}.schema.removeField(${goQuote(f.id)})\n`);
    down.push('// add', `${V}.schema.addField(new SchemaField(${fieldJson(f)}))\n`);
  }
  for (const f of next.schema) {
    if (byId(old.schema, f.id)) continue;
    up.push('// add', `${V}.schema.addField(new SchemaField(${fieldJson(f)}))\n`);
    down.push('// remove', `${V}.schema.removeField(${goQuote(f.id)})\n`);
  }
  for (const f of next.schema) {
    const before = byId(old.schema, f.id);
    if (!before) continue;
    const after = fieldJson(f);
    const was = fieldJson(before);
    if (after === was) continue;
    up.push('// update', `${V}.schema.addField(new SchemaField(${after}))\n`);
    down.push('// update', `${V}.schema.addField(new SchemaField(${was}))\n`);
  }
  if (!up.length && !down.length) return null;

  return `${TYPES_DIRECTIVE}migrate((db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId(${goQuote(old.id)})

  ${up.join('\n  ').trim()}

  return dao.saveCollection(collection)
}, (db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId(${goQuote(next.id)})

  ${down.join('\n  ').trim()}

  return dao.saveCollection(collection)
})
`;
}
