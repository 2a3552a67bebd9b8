// How a field option takes effect in the record editor without code: the root `ui:record` of a
// type's options UI schema (schemas/fields/<type>.ui.json) maps an option to where its value goes
// on the record field's UI schema, e.g. `"ui:record": { "placeholder": "ui:placeholder" }` shows
// a text field's `placeholder` option in its empty input. Targets: `ui:placeholder`, `ui:help`,
// `ui:title`, `ui:description`, or `ui:options.<key>` for an option the widget reads.
import type { FieldLike } from './types';

/** A field type's options UI schema (undefined: none known). */
export type OptionsUiLookup = (type: string) => Record<string, unknown> | undefined;

const UI_KEYS = new Set(['ui:placeholder', 'ui:help', 'ui:title', 'ui:description']);
const OPTION_TARGET = /^ui:options\.([A-Za-z_$][\w$]*)$/;

/** Whether `target` is a place an option may go. */
export const isRecordUiTarget = (target: unknown): boolean => typeof target === 'string' && (UI_KEYS.has(target) || OPTION_TARGET.test(target));

/** The option → target map of an options UI schema. */
function recordUiMap(optionsUi: Record<string, unknown> | undefined): Record<string, string> {
  const map = optionsUi?.['ui:record'];
  if (!map || typeof map !== 'object' || Array.isArray(map)) return {};
  return Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => isRecordUiTarget(e[1])));
}

const isSet = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** `ui` with the field's mapped options placed (unset options leave the UI schema as it was). */
export function optionsToUi(ui: Record<string, unknown>, field: FieldLike, optionsUi: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...ui, 'ui:options': { ...(ui['ui:options'] as Record<string, unknown> | undefined) } };
  for (const [option, target] of Object.entries(recordUiMap(optionsUi))) {
    const value = field.options[option];
    if (!isSet(value)) continue;
    const key = OPTION_TARGET.exec(target)?.[1];
    if (key) (out['ui:options'] as Record<string, unknown>)[key] = value;
    else out[target] = value;
  }
  return out;
}
