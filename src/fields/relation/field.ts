// Relation: ids of records of another collection (one, or minSelect..maxSelect of them); every
// id must exist.
import { toUniqueStrings } from '../shared/casts';
import { addOrRemove, importList, listToColumn, listToForm, listToRequest, prepareList, toList } from '../shared/lists';
import { isMultiple, maxSelectOf, num, REQUIRED_CODE, REQUIRED_MESSAGE, requiredMessage, withMessages, type Messages } from '../shared/schema';
import { fieldError } from '../shared/text-like';
import type { DocWord, FieldDefinition, JsonSchema } from '../types';
import { fieldTypeGuard } from '../shared/kind';

/** A relation field: its options name the collection its ids point at (`collectionId`). */
export const isRelationField = fieldTypeGuard('relation');

export const relation: FieldDefinition = {
  type: 'relation',
  label: 'Relation',
  expandable: true,
  // multiple: no maximum; single: one, and no minimum
  multiple: { switchTo: (options, multiple) => (multiple ? { ...options, maxSelect: null } : { ...options, maxSelect: 1, minSelect: null }) },
  optionKinds: [['collectionId', 'string'], ['cascadeDelete', 'bool'], ['minSelect', 'int?'], ['maxSelect', 'int?'], ['displayFields', 'strings?']],
  defaultOptions: () => ({ collectionId: '', cascadeDelete: false, minSelect: null, maxSelect: 1, displayFields: null }),
  columnDefinition: (field) => (isMultiple(field) ? "JSON DEFAULT '[]' NOT NULL" : "TEXT DEFAULT '' NOT NULL"),
  prepare: prepareList,
  toColumn: listToColumn,
  modify: addOrRemove,
  valueSchema(field) {
    if (!isMultiple(field)) return withMessages({ type: 'string' }, requiredMessage());
    const s: JsonSchema = { type: 'array', items: { type: 'string' } };
    const msgs: Messages = requiredMessage();
    const min = num(field.options.minSelect);
    const max = maxSelectOf(field);
    if (min !== undefined && min > 0) {
      s.minItems = min;
      msgs.minItems = ['validation_not_enough_values', `Select at least ${min}.`];
    } else if (field.required) {
      s.minItems = 1;
      msgs.minItems = [REQUIRED_CODE, REQUIRED_MESSAGE];
    }
    if (max !== undefined) {
      s.maxItems = max;
      msgs.maxItems = ['validation_too_many_values', `Select no more than ${max}.`];
    }
    return withMessages(s, msgs);
  },
  // the existence check is one COUNT per field
  check(value, field, ctx) {
    const ids = toUniqueStrings(value);
    if (ids.length === 0) return null;
    const found = ctx.countRecords(String(field.options.collectionId ?? ''), ids);
    if (found === null) return fieldError('validation_missing_rel_collection', 'Relation connection is missing or cannot be accessed');
    return found === ids.length ? null : fieldError('validation_missing_rel_records', 'Failed to find all relation records with the provided ids');
  },
  record: {
    widget: 'recordRelation',
    options: (field) => ({
      collectionId: String(field.options.collectionId ?? ''),
      multiple: isMultiple(field),
      maxSelect: maxSelectOf(field),
      minSelect: num(field.options.minSelect),
    }),
    toForm: listToForm,
    toRequest: listToRequest,
  },
  docs: {
    example: (field) => (isMultiple(field) ? ['RELATION_RECORD_ID'] : 'RELATION_RECORD_ID'),
    typeLabel: (field) => (isMultiple(field) ? 'Array<String> (record ids)' : 'String (record id)'),
    describe(field, lookup) {
      const o = field.options;
      const target = lookup(String(o.collectionId ?? ''))?.name ?? String(o.collectionId ?? '');
      const parts: DocWord[] = [{ key: isMultiple(field) ? 'apiDocs.option.relationMany' : 'apiDocs.option.relationOne', values: { target } }];
      const max = maxSelectOf(field);
      if (isMultiple(field) && max !== undefined) parts.push({ key: 'apiDocs.option.upTo', values: { max } });
      if (o.cascadeDelete) parts.push({ key: 'apiDocs.option.cascade' });
      return parts;
    },
  },
  io: {
    importCell: importList,
    exportValue(raw, field, ctx) {
      let items = toList(raw).map(String);
      if (ctx.relationName) items = items.map((id) => ctx.relationName!(field.name, id));
      return isMultiple(field) ? items : (items[0] ?? '');
    },
  },
  list: { searchable: true },
};
