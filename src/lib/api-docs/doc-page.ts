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

export interface DocsContext {
  /** The server's base URL for the examples. */
  baseUrl: string;
  /** Collection id → collection (relation targets by name). */
  lookup: (id: string) => { name: string } | undefined;
}

export const json = (v: unknown) => JSON.stringify(v, null, 2);
export const error = (status: number, message: string, data: Record<string, unknown> = {}) => ({ status, body: json({ code: status, message, data }) });

export const ONLY_ADMINS = 'Only admins can perform this action.';
export const NOT_FOUND = "The requested resource wasn't found.";
export const GENERIC_400 = 'Something went wrong while processing your request.';

/** Who may call an endpoint guarded by `rule`, in words. */
export function ruleInWords(rule: string | null | undefined): string {
  if (rule === null || rule === undefined) return 'Admins only (the rule is locked). Requires an admin Authorization header.';
  if (rule.trim() === '') return 'Anyone, guests included (the rule is empty).';
  const needsAuth = /@request\.auth\./.test(rule);
  return `Admins, and ${needsAuth ? 'signed-in callers' : 'callers'} for whom this rule holds on the record:`;
}

export const param = (name: string, type: string, description: string, required = false): DocParam => ({ name, type, required, description });

export function readQueryParams(collection: CollectionModel): DocParam[] {
  const relations = collection.schema.filter((f) => fieldDefinition(f.type).expandable && !f.toDelete).map((f) => f.name);
  return [
    param(
      'expand',
      'String',
      `Relations to return in "expand", comma separated, nested with dots (up to 6 levels)${relations.length ? `; e.g. ${relations.join(', ')}` : ''}. Expanded records follow their own view rule.`,
    ),
    param('fields', 'String', 'Only these keys in the response, comma separated (e.g. "id,created,expand.rel.name"); "*" for all; ":excerpt(200,true)" shortens a text value.'),
  ];
}

export function sdkHeader(ctx: DocsContext): string {
  return `import PocketBase from 'pocketbase';\n\nconst pb = new PocketBase('${ctx.baseUrl}');\n\n...\n\n`;
}
