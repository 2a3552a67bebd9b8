// The field errors a collection's validation answers with: PocketBase 0.22's codes and messages
// (ozzo-validation rules as PocketBase sentences them).
import type { ErrorTree, FieldError } from '../../src/lib/schema/error-tree';

export type { ErrorTree };

export const E = (code: string, message: string): FieldError => ({ code, message });

export const REQUIRED = E('validation_required', 'Cannot be blank.');
export const NIL_OR_NOT_EMPTY = E('validation_nil_or_not_empty_required', 'Cannot be blank.');
export const MUST_BE_BLANK_EMPTY = E('validation_empty', 'Must be blank.');
export const MUST_BE_BLANK_NIL = E('validation_nil', 'Must be blank.');
export const IN_INVALID = E('validation_in_invalid', 'Must be a valid value.');
export const NOT_IN_INVALID = E('validation_not_in_invalid', 'Must not be in list.');
export const MATCH_INVALID = E('validation_match_invalid', 'Must be in a valid format.');
