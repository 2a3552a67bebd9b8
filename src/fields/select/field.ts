// Select: one of the listed values, or up to maxSelect of them.
import { addOrRemove, importList, listToColumn, listToForm, listToRequest, prepareList } from '../shared/lists';
import { isMultiple, listSchema, maxSelectOf, strings } from '../shared/schema';
import type { DocWord, FieldDefinition } from '../types';

/** Select and relation dropdowns get a search box above this many options. */
const SEARCHABLE_ABOVE = 5;

export const select: FieldDefinition = {
  type: 'select',
  label: 'Select',
  // multiple: as many as the values (2 when there are none; one value gives 1, which the form then asks to raise)
  multiple: {
    switchTo: (options, multiple) => ({ ...options, maxSelect: multiple ? strings(options.values).length || 2 : 1 }),
    keepsSwitch: true,
    checkedBeforeSave: true,
  },
  optionKinds: [['maxSelect', 'int'], ['values', 'strings?']],
  defaultOptions: () => ({ maxSelect: 1, values: [] }),
  columnDefinition: (field) => (isMultiple(field) ? "JSON DEFAULT '[]' NOT NULL" : "TEXT DEFAULT '' NOT NULL"),
  prepare: prepareList,
  toColumn: listToColumn,
  modify: addOrRemove,
  valueSchema(field) {
    const values = strings(field.options.values);
    // no enum message: the default names the rejected value ("Invalid value x.")
    return listSchema(field, values.length ? { type: 'string', enum: values, 'x-codes': { enum: 'validation_invalid_value' } } : { type: 'string' });
  },
  record: {
    widget: 'recordSelect',
    options(field) {
      const values = strings(field.options.values);
      return { values, multiple: isMultiple(field), maxSelect: maxSelectOf(field), searchable: values.length > SEARCHABLE_ABOVE };
    },
    help: (field) => (isMultiple(field) ? `Select up to ${maxSelectOf(field)} items.` : undefined),
    toForm: listToForm,
    toRequest: listToRequest,
  },
  docs: {
    example(field) {
      const values = strings(field.options.values);
      return isMultiple(field) ? values.slice(0, Math.min(2, maxSelectOf(field) ?? 1)) : (values[0] ?? '');
    },
    typeLabel: (field) => (isMultiple(field) ? 'Array<String>' : 'String'),
    describe: (field): DocWord[] => [
      isMultiple(field)
        ? { key: 'apiDocs.option.someOf', values: { max: maxSelectOf(field) ?? 1, values: strings(field.options.values).join(', ') } }
        : { key: 'apiDocs.option.oneOf', values: { values: strings(field.options.values).join(', ') } },
    ],
  },
  io: { importCell: importList },
  list: { searchable: true },
};
