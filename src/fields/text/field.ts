// Plain text: a string with optional length limits and a Go regular expression.
import { describeLengthAndPattern, fieldError, stringValue, textToForm, cellText } from '../shared/text-like';
import { num, requiredMessage, usablePattern, withMessages, type Messages } from '../shared/schema';
import type { FieldDefinition, JsonSchema } from '../types';

/** A pattern the schema could not carry (not a valid JS regexp in every mode) is checked here. */
function checkPattern(value: unknown, pattern: unknown) {
  const val = typeof value === 'string' ? value : '';
  if (val === '' || typeof pattern !== 'string' || pattern === '' || usablePattern(pattern)) return null;
  let ok = false;
  try {
    ok = new RegExp(pattern).test(val);
  } catch {
    ok = false;
  }
  return ok ? null : fieldError('validation_invalid_format', 'Invalid value format');
}

export const text: FieldDefinition = {
  type: 'text',
  label: 'Plain text',
  optionKinds: [['min', 'int?'], ['max', 'int?'], ['pattern', 'string']],
  defaultOptions: () => ({ min: null, max: null, pattern: '' }),
  ...stringValue,
  valueSchema(field) {
    const o = field.options;
    const s: JsonSchema = { type: 'string' };
    const msgs: Messages = requiredMessage();
    const min = num(o.min);
    const max = num(o.max);
    if (min !== undefined && min > 0) {
      s.minLength = min;
      msgs.minLength = ['validation_min_text_constraint', `Must be at least ${min} character(s).`];
    }
    if (max !== undefined && max > 0) {
      s.maxLength = max;
      msgs.maxLength = ['validation_max_text_constraint', `Must be less than ${max} character(s).`];
    }
    const pattern = usablePattern(o.pattern);
    if (pattern) {
      s.pattern = pattern;
      msgs.pattern = ['validation_invalid_format', 'Invalid value format.'];
    }
    return withMessages(s, msgs);
  },
  check: (value, field) => checkPattern(value, field.options.pattern),
  record: { widget: 'recordText', options: () => ({ rows: 1 }), toForm: textToForm },
  docs: {
    example: () => 'test',
    typeLabel: () => 'String',
    describe: describeLengthAndPattern,
  },
  io: { importCell: cellText },
  list: { searchable: true },
};
