import { describe, expect, it } from 'vitest';
import type { CollectionModel, SchemaField } from '../../src/lib/collections/types';
import { applySuggestion, insideQuotes, searchAutocompleteKeys, suggest, tokenAt } from '../../src/pages/records/list/autocomplete';

const f = (name: string, type: SchemaField['type'], options: Record<string, unknown> = {}): SchemaField => ({
  id: name,
  name,
  type,
  system: false,
  required: false,
  presentable: false,
  options,
});
const users = { id: 'u', name: 'users', type: 'auth' as const, schema: [f('name', 'text')] };
const posts = { id: 'p', name: 'posts', type: 'base' as const, schema: [f('title', 'text'), f('author', 'relation', { collectionId: 'u' })] };
const view = { id: 'v', name: 'stats', type: 'view' as const, schema: [f('total', 'number')] };
const all = [users, posts, view] as unknown as CollectionModel[];

describe('records search autocomplete', () => {
  it('keys: fields, relation paths and macros', () => {
    const keys = searchAutocompleteKeys(posts as unknown as CollectionModel, all);
    expect(keys).toContain('title');
    expect(keys).toContain('author.name');
    expect(keys).toContain('author.email');
    expect(keys).toContain('@now');
    expect(keys).toContain('@todayStart');
    expect(keys).not.toContain('@request.auth.id');
    expect(searchAutocompleteKeys(view as unknown as CollectionModel, all).filter((k) => !k.startsWith('@'))).toEqual(['id', 'total']);
  });

  it('token at the caret and quotes', () => {
    expect(tokenAt('title = "x" && auth', 19)).toEqual({ start: 15, end: 19, token: 'auth' });
    expect(tokenAt('created > @to', 13).token).toBe('@to');
    expect(tokenAt('', 0).token).toBe('');
    expect(insideQuotes('title = "ab', 11)).toBe(true);
    expect(insideQuotes('title = "ab" && ', 16)).toBe(false);
  });

  it('suggests prefix matches first and never the exact token', () => {
    const keys = ['title', 'author', 'author.title', '@today', '@todayStart'];
    expect(suggest(keys, 'ti')).toEqual(['title', 'author.title']);
    expect(suggest(keys, '@today')).toEqual(['@todayStart']);
    expect(suggest(keys, '')).toEqual([]);
    expect(suggest(keys, 't', 1)).toEqual(['title']);
  });

  it('applies a suggestion in place', () => {
    expect(applySuggestion('aut = 1', 0, 3, 'author')).toEqual({ text: 'author = 1', caret: 6 });
  });
});
