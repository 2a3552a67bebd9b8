// A field type's guard: whether a field (a schema field, the dashboard's or the server's) is of
// that type, narrowed. Each type's folder exports its own (isRelationField, isFileField, ...), so
// code outside src/fields asks the type instead of comparing `field.type` with a name.
import type { FieldType } from '../../lib/collections/types';

export type FieldOfType<F, T extends FieldType> = F & { type: T };

export const fieldTypeGuard =
  <T extends FieldType>(type: T) =>
  <F extends { type?: unknown }>(field: F | null | undefined): field is FieldOfType<F, T> =>
    field?.type === type;
