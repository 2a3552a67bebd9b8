// The record form's own words in the dashboard's language: src/lib/record-form.ts titles the auth
// account fields and writes the auto-generate placeholder in English (src/lib reads no catalog), as
// the select field type its multiple select's help (src/fields/select/field.ts, shared with the
// server), and the editor puts the active language's words in their place. Validation is unaffected: validators
// are found by the schema without its words (src/lib/i18n/file-words.ts withoutWords).
import type { RecordForm } from '../../../lib/record-form';
import { t } from '../../../ui/i18n';

type Schema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; then?: Schema };

const TITLES: Readonly<Record<string, string>> = {
  username: 'recordEditor.field.username',
  email: 'recordEditor.field.email',
  emailVisibility: 'recordEditor.field.emailVisibility',
  verified: 'recordEditor.field.verified',
  changePassword: 'recordEditor.field.changePassword',
  password: 'recordEditor.field.password',
  passwordConfirm: 'recordEditor.field.passwordConfirm',
};
const PLACEHOLDER_OF = ['id', 'username'];

function titled(schema: Schema | undefined): Schema | undefined {
  if (!schema?.properties) return schema;
  const properties = { ...schema.properties };
  for (const [name, key] of Object.entries(TITLES)) if (properties[name]) properties[name] = { ...properties[name], title: t(key) };
  return { ...schema, properties };
}

/** The form with the account fields' titles and the placeholders in the active language. */
export function localizeRecordForm(form: RecordForm): RecordForm {
  const schema = titled(form.schema as Schema) as Schema;
  if (schema.then) schema.then = titled(schema.then);
  const uiSchema = { ...form.uiSchema };
  for (const name of PLACEHOLDER_OF) {
    const ui = uiSchema[name] as Record<string, unknown> | undefined;
    if (ui?.['ui:placeholder']) uiSchema[name] = { ...ui, 'ui:placeholder': t('recordEditor.autoGenerate') };
  }
  for (const [name, value] of Object.entries(uiSchema)) {
    const ui = value as Record<string, unknown> | undefined;
    const options = ui?.['ui:options'] as { fieldType?: string; multiple?: boolean; maxSelect?: number } | undefined;
    // 'Select up to N items.', the engine's words for a list's maxItems
    if (ui?.['ui:help'] && options?.fieldType === 'select' && options.multiple) uiSchema[name] = { ...ui, 'ui:help': t('form.maxItems', { limit: options.maxSelect }) };
  }
  return { schema: schema as RecordForm['schema'], uiSchema };
}
