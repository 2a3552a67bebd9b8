// Number: a finite number (0 when empty), optional limits and "no decimals".
import { castNumber } from '../shared/casts';
import { goFloat, num, requiredMessage, setNumber, withMessages, type Messages } from '../shared/schema';
import type { DocWord, FieldDefinition, JsonSchema } from '../types';
import { fieldTypeGuard } from '../shared/kind';

/** A number field: `@request.data` text that parses as a float compares with it as a number. */
export const isNumberField = fieldTypeGuard('number');

/** Go's cast.ToFloat64 of a form value (unparsable text is 0, as 0.22's multipart casting). */
export const numberCell = (cell: unknown): number => castNumber(typeof cell === 'string' ? cell.trim() : cell);

export const number: FieldDefinition = {
  type: 'number',
  label: 'Number',
  optionKinds: [['min', 'float?'], ['max', 'float?'], ['noDecimal', 'bool']],
  defaultOptions: () => ({ min: null, max: null, noDecimal: false }),
  columnDefinition: () => 'NUMERIC DEFAULT 0 NOT NULL',
  prepare: (value) => castNumber(value),
  toColumn: (value) => (typeof value === 'number' && Number.isFinite(value) ? value : 0),
  modify: (base, modifier, operand) => (modifier === '+' ? castNumber(base) + castNumber(operand) : castNumber(base) - castNumber(operand)),
  valueSchema(field) {
    const o = field.options;
    const limits: JsonSchema = {};
    const msgs: Messages = {};
    if (o.noDecimal) {
      limits.multipleOf = 1;
      msgs.multipleOf = ['validation_no_decimal_constraint', 'Decimal numbers are not allowed.'];
    }
    const min = num(o.min);
    const max = num(o.max);
    if (min !== undefined) {
      limits.minimum = min;
      msgs.minimum = ['validation_min_number_constraint', `Must be larger than ${goFloat(min)}.`];
    }
    if (max !== undefined) {
      limits.maximum = max;
      msgs.maximum = ['validation_max_number_constraint', `Must be less than ${goFloat(max)}.`];
    }
    const s = withMessages({ type: 'number' }, requiredMessage());
    // 0 is a number field's blank: its limits do not apply to it
    return Object.keys(limits).length ? { ...s, if: { const: 0 }, else: withMessages(limits, msgs) } : s;
  },
  record: {
    widget: 'recordNumber',
    options(field) {
      const o = field.options;
      return { ...(num(o.min) !== undefined ? { min: o.min } : {}), ...(num(o.max) !== undefined ? { max: o.max } : {}) };
    },
    toForm: (value) => (typeof value === 'number' ? value : undefined),
  },
  docs: {
    example: () => 123,
    typeLabel: () => 'Number',
    describe(field) {
      const o = field.options;
      const parts: DocWord[] = [];
      const min = setNumber(o.min);
      const max = setNumber(o.max);
      if (min !== null) parts.push({ key: 'apiDocs.option.minimum', values: { min } });
      if (max !== null) parts.push({ key: 'apiDocs.option.maximum', values: { max } });
      if (o.noDecimal) parts.push({ key: 'apiDocs.option.integers' });
      return parts;
    },
  },
  io: { importCell: numberCell },
};
