// What one page of a collection's API docs holds, and the pieces the record and auth pages share:
// error responses, parameters, the read query parameters, the SDK example header, rules in words.
import { fieldDefinition } from '../../fields/registry';
import type { CollectionModel } from '../collections/types';
import type { DocParam } from './fields';

interface DocResponse {
  status: number;
  body: string;
}

export interface DocPage {
  id: string;
  /** The navigation label (spec wording). */
  tab: string;
  title: string;
  intro: string[];
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Who may call it, in words. */
  access: string;
  /** The rule behind `access`, when one applies (shown as code). */
  rule?: string | null;
  pathParams: DocParam[];
  queryParams: DocParam[];
  bodyParams: DocParam[];
  /** The fields of the returned record (read endpoints). */
  fields: DocParam[];
  responses: DocResponse[];
  /** A JavaScript SDK example. */
  sdk: string;
  notes: string[];
}

/**
 * The dashboard's t(): the docs' words are keys `apiDocs.*` in locales/<lang>/ui.json (src/lib
 * reads no catalog itself). Code, JSON, paths and field names stay as they are.
 */
export type Words = (key: string, params?: Readonly<Record<string, unknown>>) => string;

export interface DocsContext {
  /** The server's base URL for the examples. */
  baseUrl: string;
  words: Words;
  /** Collection id → collection (relation targets by name). */
  lookup: (id: string) => { name: string } | undefined;
}

export const json = (v: unknown) => JSON.stringify(v, null, 2);
export const error = (status: number, message: string, data: Record<string, unknown> = {}) => ({ status, body: json({ code: status, message, data }) });

export const ONLY_ADMINS = 'Only admins can perform this action.';
export const NOT_FOUND = "The requested resource wasn't found.";
export const GENERIC_400 = 'Something went wrong while processing your request.';

/** Who may call an endpoint guarded by `rule`, in words. */
export function ruleInWords(rule: string | null | undefined, words: Words): string {
  if (rule === null || rule === undefined) return words('apiDocs.access.locked');
  if (rule.trim() === '') return words('apiDocs.access.anyone');
  const needsAuth = /@request\.auth\./.test(rule);
  return words(needsAuth ? 'apiDocs.access.signedIn' : 'apiDocs.access.callers');
}

export const param = (name: string, type: string, description: string, required = false): DocParam => ({ name, type, required, description });

export function readQueryParams(collection: CollectionModel, words: Words): DocParam[] {
  const relations = collection.schema.filter((f) => fieldDefinition(f.type).expandable && !f.toDelete).map((f) => f.name);
  return [
    param('expand', 'String', relations.length ? words('apiDocs.param.expandWith', { relations: relations.join(', ') }) : words('apiDocs.param.expand')),
    param('fields', 'String', words('apiDocs.param.fields')),
  ];
}

/** A page's title: its tab and the collection. */
export const pageTitle = (words: Words, tab: string, name: string) => words('apiDocs.pageTitle', { tab, name });

export function sdkHeader(ctx: DocsContext): string {
  return `import PocketBase from 'pocketbase';\n\nconst pb = new PocketBase('${ctx.baseUrl}');\n\n...\n\n`;
}
