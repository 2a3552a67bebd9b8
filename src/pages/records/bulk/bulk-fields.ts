// Which fields bulk edit offers (every type the record editor edits, files excepted) and the
// one-field form and request value for the chosen one, taken from the record editor's own schema.
import type { CollectionModel } from '../../../lib/collections/types';
import { parseJsonText, recordFormSchema, RESERVED_FORM_NAMES, toFormDate } from '../../../lib/record-form';
import { editableFields, type JsonSchema } from '../../../lib/record-schema';

export const bulkFields = (collection: CollectionModel): string[] =>
  editableFields(collection as never)
    .filter((f) => f.type !== 'file' && !RESERVED_FORM_NAMES.has(f.name))
    .map((f) => f.name);

export function oneFieldForm(collection: CollectionModel, field: string): { schema: JsonSchema; uiSchema: Record<string, unknown> } {
  const form = recordFormSchema(collection as never, { isNew: false });
  const props = (form.schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((form.schema.required as string[] | undefined) ?? []).includes(field) ? [field] : [];
  return {
    schema: { type: 'object', properties: { [field]: props[field] }, ...(required.length ? { required } : {}) },
    uiSchema: { [field]: form.uiSchema[field], 'ui:layout': [[field]] },
  };
}

/** The value sent for the field (dates as 19 characters, JSON parsed); an error for bad JSON. */
export function requestValue(collection: CollectionModel, field: string, value: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  const f = collection.schema.find((x) => x.name === field);
  if (f?.type === 'json') {
    const parsed = parseJsonText(value);
    return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, message: parsed.message };
  }
  if (f?.type === 'date') return { ok: true, value: toFormDate(value) };
  if (f?.type === 'select' || f?.type === 'relation') return { ok: true, value: value ?? (Array.isArray(value) ? [] : '') };
  return { ok: true, value: value === undefined ? null : value };
}
