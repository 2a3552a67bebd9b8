// The record editor's lookup of a field type's options UI schema (schemas/fields/<type>.ui.json),
// whose `ui:record` carries field options onto the record inputs (src/fields/options-ui.ts).
import { getForm, listForms } from '../../engine';

export const fieldOptionsUi = (type: string): Record<string, unknown> | undefined =>
  listForms().includes(`fields/${type}`) ? (getForm(`fields/${type}`).uiSchema as Record<string, unknown>) : undefined;
