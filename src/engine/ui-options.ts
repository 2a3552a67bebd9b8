/**
 * The vocabulary of UI schemas: which `ui:widget` names exist (rjsf's aliases for the property's
 * type resolved against the widget registry, so the list is never copied by hand) and which
 * `ui:options` / `ui:x` keys something reads — the engine's templates for any field, plus the
 * options a widget declares in the registry. A key nothing reads (a typo such as `exclusiveWth`)
 * is an error in the contract tests instead of a silent no-op.
 */
import { hasWidget, type RJSFSchema } from '@rjsf/utils';
import { isObject } from '../lib/json';
import { WIDGET_OPTIONS, widgets } from '../widgets';

type Json = Record<string, unknown>;

/** Read for any property: by rjsf itself, the field/array/object templates, LiteForm and the collection editor. */
const COMMON_OPTIONS = new Set([
  'widget', 'title', 'description', 'help', 'placeholder', 'autofocus', 'autocomplete', 'label', 'classNames',
  'emptyValue', 'enumNames', 'enumDisabled', 'readonly', 'disabled',
  // FieldTemplate: copy-on-click chips; ObjectFieldTemplate: columns, an accordion for a nested object
  'placeholders', 'columns', 'collapsible',
  // the collection editor: disabled (with a hint) while the other option holds a value
  'exclusiveWith',
]);
/**
 * Read at a UI schema's root: the layout (ObjectFieldTemplate, LiteForm), a provider's extra popup
 * actions, and a field type's options mapped onto the record input (`ui:record`, src/fields/options-ui.ts).
 */
const ROOT_OPTIONS = new Set(['layout', 'columns', 'actions', 'order', 'record']);

/** Whether `name` draws a property of this schema: a registered widget, or rjsf's alias for its type. */
export function isWidgetName(name: string, schema?: Json): boolean {
  if (Object.hasOwn(widgets, name)) return true;
  return schema !== undefined && hasWidget(schema as RJSFSchema, name, widgets);
}

/** The option keys one property's UI schema gives (`ui:options` keys and `ui:x` keys, prefix dropped). */
function optionKeys(ui: Json): string[] {
  const keys = Object.keys(ui).filter((k) => k.startsWith('ui:') && k !== 'ui:options').map((k) => k.slice(3));
  return isObject(ui['ui:options']) ? [...keys, ...Object.keys(ui['ui:options'])] : keys;
}

/** Problems with one property's UI schema (or a layout decoration cell): an unknown widget or option key. */
export function uiEntryErrors(ui: Json, schema?: Json): string[] {
  const widget = typeof ui['ui:widget'] === 'string' ? ui['ui:widget'] : undefined;
  const errors: string[] = [];
  if (widget !== undefined && !isWidgetName(widget, schema)) errors.push(`unknown widget "${widget}"`);
  const own = new Set(widget ? (WIDGET_OPTIONS[widget] ?? []) : []);
  for (const key of optionKeys(ui)) {
    if (!COMMON_OPTIONS.has(key) && !own.has(key)) errors.push(`ui:options.${key} is read by nothing${widget ? ` (widget "${widget}")` : ''}`);
  }
  return errors;
}

/** Problems with a UI schema's root keys (`ui:layout`, `ui:options`, …). */
export function uiRootErrors(ui: Json): string[] {
  return optionKeys(ui).filter((k) => !ROOT_OPTIONS.has(k)).map((k) => `root ui:options.${k} is read by nothing`);
}
