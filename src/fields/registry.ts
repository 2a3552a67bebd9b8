// The field types: one folder each (./<type>/field.ts), listed here in PocketBase 0.22's order.
// The server and the dashboard read what a type means only through this registry; the
// dashboard's drawing parts are listed by ./views.ts. "How to add a field type" in README.md.
import type { FieldType } from '../lib/collections/types';
import { bool } from './bool/field';
import { date } from './date/field';
import { editor } from './editor/field';
import { email } from './email/field';
import { file } from './file/field';
import { json } from './json/field';
import { number } from './number/field';
import { relation } from './relation/field';
import { select } from './select/field';
import { text } from './text/field';
import type { FieldDefinition } from './types';
import { url } from './url/field';

export const FIELD_DEFINITIONS: readonly FieldDefinition[] = [text, editor, number, bool, email, url, date, select, json, file, relation];

const byType = new Map<string, FieldDefinition>(FIELD_DEFINITIONS.map((d) => [d.type, d]));

/** The definition of a field type; unknown types read as plain text (as the dashboard always drew them). */
export function fieldDefinition(type: string): FieldDefinition {
  return byType.get(type) ?? text;
}

/** Whether a type is one of the registry's. */
export const isFieldType = (type: string): type is FieldType => byType.has(type);
