// Bool: true or false (false is its blank, so "required" means true).
import { castBool } from '../shared/casts';
import { requiredMessage, withMessages } from '../shared/schema';
import type { FieldDefinition } from '../types';

/** Go's cast.ToBool of a form value (strconv.ParseBool's true words; anything else is false). */
export const boolCell = (cell: unknown): boolean => castBool(typeof cell === 'string' ? cell.trim() : cell);

export const bool: FieldDefinition = {
  type: 'bool',
  label: 'Bool',
  optionKinds: [],
  defaultOptions: () => ({}),
  columnDefinition: () => 'BOOLEAN DEFAULT FALSE NOT NULL',
  prepare: (value) => castBool(value),
  fromColumn: (raw) => raw === 1 || raw === 1n || raw === '1' || raw === true || raw === 'true' || raw === 'TRUE',
  toColumn: (value) => (value ? 1 : 0),
  valueSchema: () => withMessages({ type: 'boolean' }, requiredMessage()),
  record: { widget: 'toggle', toForm: (value) => value === true },
  docs: { example: () => true, typeLabel: () => 'Boolean' },
  io: { importCell: boolCell },
};
