/**
 * Which forms the lightweight renderer (LiteForm) can draw exactly as the rjsf renderer would:
 * a flat object of string and boolean properties drawn with known widgets, no conditionals, no
 * $refs, no arrays, no defaults. Everything else goes to rjsf. The same predicate decides, at build
 * time, which validators are emitted for which renderer (src/engine/vite-plugin-validators.ts), so
 * it must stay pure and deterministic.
 *
 * Pure module: no React, no Node APIs, no ajv.
 */
import { isObject } from '../lib/json';

type Json = Record<string, unknown>;

/** The widgets LiteForm draws; text-like ones go through the theme's BaseInputTemplate with this input type. */
export type LiteWidget = 'text' | 'email' | 'password' | 'url' | 'textarea' | 'secret' | 'csv' | 'checkbox' | 'toggle';

export interface LiteField {
  name: string;
  type: 'string' | 'boolean';
  schema: Json;
  /** rjsf's ui options for the property (`ui:x` keys and `ui:options` merged, prefix dropped). */
  options: Json;
  widget: LiteWidget;
  required: boolean;
}

export interface LitePlan {
  fields: LiteField[];
  /** Root ui options (`layout`, `columns`). */
  options: Json;
}

const ROOT_KEYS = new Set(['$schema', '$id', 'title', 'description', 'type', 'required', 'properties', 'additionalProperties']);
const STRING_KEYS = new Set(['type', 'title', 'description', 'minLength', 'maxLength', 'pattern', 'format', 'x-messages', 'x-form-messages', 'x-codes', 'x-sameAs']);
const BOOLEAN_KEYS = new Set(['type', 'title', 'description', 'x-messages', 'x-form-messages', 'x-codes']);
const ROOT_UI_OPTIONS = new Set(['layout', 'columns']);
const FIELD_UI_OPTIONS = new Set(['widget', 'autofocus', 'autocomplete', 'help', 'placeholder', 'title', 'classNames', 'rows', 'badge']);
const STRING_WIDGETS: Record<string, LiteWidget> = {
  text: 'text',
  email: 'email',
  password: 'password',
  url: 'url',
  uri: 'url',
  textarea: 'textarea',
  secret: 'secret',
  csv: 'csv',
};
/** rjsf picks a widget named after the format when no `ui:widget` is given. */
const FORMAT_WIDGETS: Record<string, LiteWidget> = { email: 'email', uri: 'url' };
const BOOLEAN_WIDGETS: Record<string, LiteWidget> = { checkbox: 'checkbox', toggle: 'toggle' };

/** Widgets LiteForm draws as `ui:layout` decoration cells (no property, e.g. a check's status label). */
const LITE_DECORATIONS = ['statusLabel'] as const;
export type LiteDecoration = (typeof LITE_DECORATIONS)[number];

/** A layout cell LiteForm can place: a property name or a decoration it knows. */
const isLiteCell = (cell: unknown): boolean =>
  typeof cell === 'string' ||
  (isObject(cell) &&
    (LITE_DECORATIONS as readonly unknown[]).includes(cell['ui:widget']) &&
    Object.keys(cell).every((k) => k === 'ui:widget' || k === 'ui:options') &&
    (cell['ui:options'] === undefined || isObject(cell['ui:options'])));

/** rjsf's getUiOptions: `ui:options` spread and every other `ui:x` key as `x`. */
function uiOptionsOf(ui: unknown): Json {
  if (!isObject(ui)) return {};
  let out: Json = {};
  for (const [key, value] of Object.entries(ui)) {
    if (!key.startsWith('ui:')) continue;
    if (key === 'ui:options' && isObject(value)) out = { ...out, ...value };
    else out[key.slice(3)] = value;
  }
  return out;
}

function plainUi(ui: unknown, allowed: Set<string>): Json | null {
  if (ui === undefined) return {};
  if (!isObject(ui)) return null;
  if (Object.keys(ui).some((k) => k.startsWith('ui:') && k !== 'ui:options' && !allowed.has(k.slice(3)))) return null;
  const options = uiOptionsOf(ui);
  return Object.keys(options).every((k) => allowed.has(k)) ? options : null;
}

function fieldOf(name: string, prop: unknown, ui: unknown, required: boolean): LiteField | null {
  if (!isObject(prop) || (prop.type !== 'string' && prop.type !== 'boolean')) return null;
  if (isObject(ui) && Object.keys(ui).some((k) => !k.startsWith('ui:'))) return null;
  const options = plainUi(ui, FIELD_UI_OPTIONS);
  if (!options) return null;
  const named = options.widget;
  if (named !== undefined && typeof named !== 'string') return null;
  if (prop.type === 'string') {
    if (Object.keys(prop).some((k) => !STRING_KEYS.has(k))) return null;
    const format = prop.format;
    if (format !== undefined && typeof format !== 'string') return null;
    const widget = named !== undefined ? STRING_WIDGETS[named] : format ? FORMAT_WIDGETS[format] : 'text';
    if (!widget) return null;
    return { name, type: 'string', schema: prop, options, widget, required };
  }
  if (Object.keys(prop).some((k) => !BOOLEAN_KEYS.has(k))) return null;
  const widget = BOOLEAN_WIDGETS[named ?? 'checkbox'];
  if (!widget) return null;
  return { name, type: 'boolean', schema: prop, options, widget, required };
}

/** The fields LiteForm would draw for this schema and UI schema, or null when rjsf must draw it. */
export function litePlan(schema: unknown, uiSchema: unknown = {}): LitePlan | null {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return null;
  if (Object.keys(schema).some((k) => !ROOT_KEYS.has(k))) return null;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return null;
  const required = schema.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) return null;
  const ui = isObject(uiSchema) ? uiSchema : {};
  const rootUi: Json = Object.fromEntries(Object.entries(ui).filter(([k]) => k.startsWith('ui:')));
  const options = plainUi(rootUi, ROOT_UI_OPTIONS);
  if (!options) return null;
  if (options.layout !== undefined && !(Array.isArray(options.layout) && options.layout.every((r) => Array.isArray(r) && r.every(isLiteCell)))) {
    return null;
  }
  const fields: LiteField[] = [];
  for (const [name, prop] of Object.entries(schema.properties)) {
    const field = fieldOf(name, prop, ui[name], required.includes(name));
    if (!field) return null;
    fields.push(field);
  }
  return { fields, options };
}
