// Email: an address of govalidator's shape, optionally limited to or barred from domains.
import { EMAIL_PATTERN, requiredMessage, withMessages } from '../shared/schema';
import { cellText, describeDomains, domainAllowed, domainOptions, fieldError, stringValue, textToForm } from '../shared/text-like';
import type { FieldDefinition } from '../types';

const EMAIL = new RegExp(EMAIL_PATTERN);

export const email: FieldDefinition = {
  type: 'email',
  label: 'Email',
  optionKinds: [['exceptDomains', 'strings?'], ['onlyDomains', 'strings?']],
  defaultOptions: domainOptions,
  ...stringValue,
  valueSchema: () =>
    withMessages(
      { type: 'string', maxLength: 254, pattern: EMAIL_PATTERN },
      {
        ...requiredMessage(),
        maxLength: ['validation_invalid_email', 'Must be a valid email.'],
        pattern: ['validation_invalid_email', 'Must be a valid email.'],
      },
    ),
  check(value, field) {
    const val = typeof value === 'string' ? value : '';
    if (val === '' || val.length > 254 || !EMAIL.test(val)) return null; // the shape is the schema's
    return domainAllowed(val.slice(val.lastIndexOf('@') + 1), field.options) ? null : fieldError('validation_email_domain_not_allowed', 'Email domain is not allowed');
  },
  record: { widget: 'email', toForm: textToForm },
  docs: { example: () => 'test@example.com', typeLabel: () => 'String (email)', describe: describeDomains },
  io: { importCell: cellText },
  list: { searchable: true },
};
