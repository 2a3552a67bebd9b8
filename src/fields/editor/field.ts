// Rich editor: HTML text.
import { requiredMessage, withMessages } from '../shared/schema';
import { cellText, describeLengthAndPattern, stringValue, textToForm } from '../shared/text-like';
import type { FieldDefinition } from '../types';

export const editor: FieldDefinition = {
  type: 'editor',
  label: 'Rich editor',
  optionKinds: [['convertUrls', 'bool']],
  defaultOptions: () => ({ convertUrls: false }),
  ...stringValue,
  valueSchema: () => withMessages({ type: 'string' }, requiredMessage()),
  record: { widget: 'recordEditor', options: (field) => ({ convertUrls: !!field.options.convertUrls }), toForm: textToForm },
  docs: {
    example: () => '<p>test</p>',
    typeLabel: () => 'String',
    // an editor has no length options in 0.22; the words follow any a schema file adds
    describe: (field) => [...describeLengthAndPattern(field), { key: 'apiDocs.option.html' }],
  },
  io: { importCell: cellText },
  list: { searchable: true, excerpt: true },
};
