// The rules on a field's single/multiple switch (the `if`/`then` on `multiple` in
// schemas/fields/select|file.schema.json: multiple needs maxSelect at least 2). The switch is the
// editor's own (never sent), so the server would take a multiple select of one choice as a single
// one; the editor checks them before saving, as 0.22's editor does on maxSelect.
import { getForm } from '../../engine';
import { fieldDefinition } from '../../fields/registry';
import { formErrors } from '../../engine/context-errors';
import type { ErrorTree } from '../../lib/schema/error-tree';
import type { SchemaField } from '../../lib/collections/types';
import { payloadIndexes } from '../../lib/collections/payload';
import { fieldToDoc } from './form-docs';

/** `{schema: {i: {options: {maxSelect: …}}}}` (payload indexes) for fields switched to multiple; null when all pass. */
export function multipleSwitchErrors(fields: readonly SchemaField[]): ErrorTree | null {
  const indexes = payloadIndexes(fields);
  const schema: ErrorTree = {};
  fields.forEach((field, i) => {
    const at = indexes[i];
    if (at === null || !fieldDefinition(field.type).multiple?.checkedBeforeSave || field.multiple !== true) return;
    const errors = formErrors(getForm(`fields/${field.type}`).schema, fieldToDoc(field));
    if (errors.maxSelect) schema[String(at)] = { options: { maxSelect: errors.maxSelect } };
  });
  return Object.keys(schema).length ? { schema } : null;
}
