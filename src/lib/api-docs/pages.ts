// The API docs of one collection: one page per tab, generated from
// the collection itself: its fields, its rules in words, the query parameters, request bodies,
// response examples built from the schema, error responses and JavaScript SDK examples.
// Which tabs exist follows 0.22: view collections only List/Search and View; auth collections
// add the 12 auth tabs (without 'Auth with password' when neither username nor email sign-in is
// on, without 'Auth with OAuth2' when OAuth2 is off).
import type { CollectionModel } from '../collections/types';
import { authPages } from './auth-pages';
import type { DocPage, DocsContext } from './doc-page';
import { recordPages } from './record-pages';

export type { DocParam } from './fields';
export type { DocPage, DocsContext } from './doc-page';
export { ruleInWords } from './doc-page';

export const BASE_TABS = ['List/Search', 'View', 'Create', 'Update', 'Delete', 'Realtime'] as const;
export const AUTH_TABS = [
  'Auth with password',
  'Auth with OAuth2',
  'Auth refresh',
  'Request verification',
  'Confirm verification',
  'Request password reset',
  'Confirm password reset',
  'Request email change',
  'Confirm email change',
  'List auth methods',
  'List OAuth2 accounts',
  'Unlink OAuth2 account',
] as const;

/** Every page of the collection's API docs, in tab order. */
export function apiDocsPages(collection: CollectionModel, ctx: DocsContext): DocPage[] {
  const pages = recordPages(collection, ctx);
  if (collection.type === 'auth') pages.push(...authPages(collection, ctx));
  return pages;
}
