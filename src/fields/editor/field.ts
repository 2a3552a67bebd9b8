// Rich editor: HTML text.
import { requiredMessage, setNumber, withMessages } from '../shared/schema';
import { cellText, stringValue, textToForm } from '../shared/text-like';
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
    describe(field) {
      // an editor has no length options in 0.22; the words follow any a schema file adds
      const o = field.options;
      const parts: string[] = [];
      const min = setNumber(o.min);
      const max = setNumber(o.max);
      if (min !== null) parts.push(`at least ${min} characters`);
      if (max !== null) parts.push(`at most ${max} characters`);
      if (typeof o.pattern === 'string' && o.pattern) parts.push(`matching /${o.pattern}/`);
      parts.push('HTML');
      return parts;
    },
  },
  io: { importCell: cellText },
  list: { searchable: true, excerpt: true },
};
