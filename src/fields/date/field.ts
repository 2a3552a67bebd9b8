// DateTime: stored as `2006-01-02 15:04:05.000Z` ('' when empty), optional min and max.
import { normalizeDateTime } from '../shared/casts';
import { requiredMessage, withMessages } from '../shared/schema';
import { cellText, fieldError, stringValue } from '../shared/text-like';
import type { DocWord, FieldDefinition } from '../types';

const DATE_LAYOUT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/;

/** types.ParseDateTime → the stored layout, '' when empty or unparsable. */
function castDate(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number') return Number.isFinite(v) ? new Date(v * 1000).toISOString().replace('T', ' ') : '';
  if (typeof v !== 'string') return '';
  const d = normalizeDateTime(v);
  if (!d) return '';
  // years beyond 9999 or before 0 do not fit the layout
  return /^\d{4}-/.test(d) ? d : '';
}

/** Go's time.Time String() for a UTC time: `2006-01-02 15:04:05[.fff] +0000 UTC`. */
function goTime(stored: string): string {
  const m = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.(\d{3})Z$/.exec(stored);
  if (!m) return stored;
  const frac = m[2].replace(/0+$/, '');
  return `${m[1]}${frac ? '.' + frac : ''} +0000 UTC`;
}

/** 'YYYY-MM-DD HH:mm:ss(.SSSZ)' → the 19 characters the form edits and sends. */
export function toFormDate(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  return value.replace('T', ' ').slice(0, 19);
}

const limit = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export const date: FieldDefinition = {
  type: 'date',
  label: 'DateTime',
  optionKinds: [['min', 'date'], ['max', 'date']],
  defaultOptions: () => ({ min: '', max: '' }),
  ...stringValue,
  prepare: castDate,
  fromColumn: (raw) => (typeof raw === 'string' ? (DATE_LAYOUT.test(raw) ? raw : castDate(raw)) : ''),
  valueSchema: () => withMessages({ type: 'string' }, requiredMessage()),
  check(value, field) {
    const val = typeof value === 'string' ? value : '';
    if (val === '') return null;
    const min = limit(field.options.min);
    const max = limit(field.options.max);
    if (min && val < min) return fieldError('validation_min_greater_equal_than_required', `must be no less than ${goTime(min)}`);
    if (max && val > max) return fieldError('validation_max_less_equal_than_required', `must be no greater than ${goTime(max)}`);
    return null;
  },
  record: {
    widget: 'recordDate',
    options: (field) => ({ ...(limit(field.options.min) ? { min: field.options.min } : {}), ...(limit(field.options.max) ? { max: field.options.max } : {}) }),
    toForm: toFormDate,
    toRequest: (value) => ({ ok: true, value: toFormDate(value) }),
  },
  docs: {
    example: () => '2022-01-01 10:00:00.123Z',
    typeLabel: () => 'String (date)',
    describe(field) {
      const parts: DocWord[] = [];
      if (limit(field.options.min)) parts.push({ key: 'apiDocs.option.notBefore', values: { date: String(field.options.min) } });
      if (limit(field.options.max)) parts.push({ key: 'apiDocs.option.notAfter', values: { date: String(field.options.max) } });
      return parts;
    },
  },
  io: { importCell: cellText },
  list: { instants: true },
};
