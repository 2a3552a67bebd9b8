// Which fields bulk edit offers (every type the record editor edits, uploads excepted) and the
// one-field form and request value for the chosen one, taken from the record editor's own schema.
import { fieldDefinition } from '../../../fields/registry';
import type { RequestValue } from '../../../fields/types';
import type { CollectionModel } from '../../../lib/collections/types';
import { recordFormSchema, RESERVED_FORM_NAMES } from '../../../lib/record-form';
import { editableFields, type JsonSchema } from '../../../lib/record-schema';
import { fieldOptionsUi } from '../field-options-ui';

export const bulkFields = (collection: CollectionModel): string[] =>
  editableFields(collection as never)
    .filter((f) => !fieldDefinition(f.type).uploads && !RESERVED_FORM_NAMES.has(f.name))
    .map((f) => f.name);

export function oneFieldForm(collection: CollectionModel, field: string): { schema: JsonSchema; uiSchema: Record<string, unknown> } {
  const form = recordFormSchema(collection as never, { isNew: false, optionsUi: fieldOptionsUi });
  const props = (form.schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((form.schema.required as string[] | undefined) ?? []).includes(field) ? [field] : [];
  return {
    schema: { type: 'object', properties: { [field]: props[field] }, ...(required.length ? { required } : {}) },
    uiSchema: { [field]: form.uiSchema[field], 'ui:layout': [[field]] },
  };
}

/** The value sent for the field (its type's form → request conversion: dates as 19 characters, JSON parsed). */
export function requestValue(collection: CollectionModel, field: string, value: unknown): RequestValue {
  const f = collection.schema.find((x) => x.name === field);
  const toRequest = f ? fieldDefinition(f.type).record.toRequest : undefined;
  if (f && toRequest) return toRequest(value, f);
  return { ok: true, value: value === undefined ? null : value };
}
