// Between the editor's model and the documents the engine's forms edit: a field ⇄ its options
// form document ({...options, required, presentable, multiple}), auth options ⇄ their form, and
// the UI schema hints computed from the data (mutually exclusive lists disabled while the other
// has a value). Pure.
import type { UiSchema } from '@rjsf/utils';
import { fieldDefinition } from '../../fields/registry';
import { defaultOptions, multipleSwitch, setMultiple } from '../../lib/collections/fields';
import type { SchemaField } from '../../lib/collections/types';

type Doc = Record<string, unknown>;

/** Whether the type has the single/multiple switch. */
const hasMultiple = (field: SchemaField) => fieldDefinition(field.type).multiple !== undefined;

/** Null lists become [] for the list widgets. */
function listsForForm(o: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(o)) out[k] = v === null && /Domains$|^mimeTypes$|^thumbs$/.test(k) ? [] : v;
  return out;
}

export function fieldToDoc(field: SchemaField): Doc {
  const doc: Doc = { ...listsForForm(field.options ?? {}), required: field.required, presentable: field.presentable };
  if (hasMultiple(field)) doc.multiple = multipleSwitch(field);
  return doc;
}

/** Applies an options form document to the field (the single/multiple switch through setMultiple). */
export function docToField(field: SchemaField, doc: Doc): SchemaField {
  const { required, presentable, multiple, ...rest } = doc;
  const defaults = defaultOptions(field.type);
  const options: Doc = { ...field.options };
  for (const [k, v] of Object.entries(rest)) {
    const before = field.options?.[k];
    if (v === undefined) options[k] = k in defaults && (defaults[k] === null || defaults[k] === '') ? defaults[k] : undefined;
    else if (Array.isArray(v) && v.length === 0 && (before === null || before === undefined)) options[k] = null;
    else options[k] = v;
  }
  let next: SchemaField = { ...field, required: required === true, presentable: presentable === true, options };
  if (required === true && 'nullable' in field) next.nullable = false;
  if (hasMultiple(field) && typeof multiple === 'boolean' && multiple !== multipleSwitch(field)) next = setMultiple(next, multiple);
  return next;
}

/** Auth options for the form: null lists as []. */
export function authOptionsToDoc(options: Doc): Doc {
  return listsForForm(options);
}

export function docToAuthOptions(before: Doc, doc: Doc): Doc {
  const out: Doc = { ...before };
  for (const [k, v] of Object.entries(doc)) {
    if (Array.isArray(v) && v.length === 0 && (before[k] === null || before[k] === undefined)) out[k] = null;
    else out[k] = v;
  }
  return out;
}

const hasItems = (v: unknown) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' ? v.trim() !== '' : false);

/**
 * `ui:options.exclusiveWith: "other"` on a property: disabled (with a hint) while `other` holds a
 * value. Returns a new UI schema only when something is disabled, so lite forms stay lite.
 */
export function withExclusions(ui: UiSchema, doc: Doc): UiSchema {
  let out: UiSchema | null = null;
  for (const [key, value] of Object.entries(ui)) {
    if (key.startsWith('ui:') || !value || typeof value !== 'object') continue;
    const other = (value as Doc)['ui:options'] && ((value as Doc)['ui:options'] as Doc).exclusiveWith;
    if (typeof other === 'string' && hasItems(doc[other]) && !hasItems(doc[key])) {
      out ??= { ...ui };
      out[key] = { ...(value as Doc), 'ui:disabled': true };
    }
  }
  return out ?? ui;
}

/**
 * Server errors of one field's options, flattened for the form: a list's item errors
 * (`thumbs.0`) show under the list itself.
 */
export function flattenListErrors(errors: unknown): Doc | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const out: Doc = {};
  for (const [k, v] of Object.entries(errors as Doc)) {
    if (v && typeof v === 'object' && !('message' in v) && !('code' in v)) {
      const first = Object.values(v as Doc)[0];
      out[k] = first ?? v;
    } else out[k] = v;
  }
  return out;
}
