import { describe, expect, it } from 'vitest';
import { joinFilters, looksLikeFilterExpression, normalizeSearchFilter, quoteFilterTerm } from '../../src/lib/filter-normalize';

describe('normalizeSearchFilter', () => {
  const fields = ['id', 'email'];

  it('returns an empty string for empty input', () => {
    expect(normalizeSearchFilter('', fields)).toBe('');
    expect(normalizeSearchFilter('   ', fields)).toBe('');
    expect(normalizeSearchFilter(undefined, fields)).toBe('');
    expect(normalizeSearchFilter(null, fields)).toBe('');
  });

  it('turns a plain term into an OR of contains matches, quoted', () => {
    expect(normalizeSearchFilter('bob', fields)).toBe("id~'bob' || email~'bob'");
    expect(normalizeSearchFilter('  bob  ', fields)).toBe("id~'bob' || email~'bob'");
    expect(normalizeSearchFilter('john doe', ['email'])).toBe("email~'john doe'");
  });

  it('does not quote numbers and booleans', () => {
    expect(normalizeSearchFilter('42', fields)).toBe('id~42 || email~42');
    expect(normalizeSearchFilter('-4', ['level'])).toBe('level~-4');
    expect(normalizeSearchFilter('true', fields)).toBe('id~true || email~true');
    expect(normalizeSearchFilter('false', ['a'])).toBe('a~false');
  });

  it('passes an expression with a comparison operator through', () => {
    expect(normalizeSearchFilter("email='a@b.c'", fields)).toBe("email='a@b.c'");
    expect(normalizeSearchFilter('created > "2022-01-01"', fields)).toBe('created > "2022-01-01"');
    expect(normalizeSearchFilter('email ~ "x" && id != ""', fields)).toBe('email ~ "x" && id != ""');
    expect(normalizeSearchFilter('level<=4', fields)).toBe('level<=4');
  });

  it('returns the term as is without searchable fields', () => {
    expect(normalizeSearchFilter('bob', [])).toBe('bob');
  });

  it('uses the logs searchable fields', () => {
    expect(normalizeSearchFilter('timeout', ['level', 'message', 'data'])).toBe(
      "level~'timeout' || message~'timeout' || data~'timeout'",
    );
  });

  it('strips quotes typed around the term and handles quotes inside', () => {
    expect(normalizeSearchFilter('"bob"', ['email'])).toBe("email~'bob'");
    expect(normalizeSearchFilter("'bob'", ['email'])).toBe("email~'bob'");
    expect(normalizeSearchFilter("o'neil", ['email'])).toBe('email~"o\'neil"');
  });
});

describe('quoteFilterTerm', () => {
  it('escapes a single quote when both quote kinds are present', () => {
    expect(quoteFilterTerm(`a'b"c`)).toBe(`'a\\'b"c'`);
  });
});

describe('looksLikeFilterExpression', () => {
  it('detects operators', () => {
    expect(looksLikeFilterExpression('a=1')).toBe(true);
    expect(looksLikeFilterExpression('a ?= 1')).toBe(true);
    expect(looksLikeFilterExpression('hello world')).toBe(false);
  });
});

describe('joinFilters', () => {
  it('omits empty parts', () => {
    expect(joinFilters('', undefined, null)).toBe('');
    expect(joinFilters('a=1', '')).toBe('a=1');
    expect(joinFilters('', "level~'x' || message~'x'")).toBe("level~'x' || message~'x'");
  });
  it('joins with && and keeps each part grouped', () => {
    expect(joinFilters('data.auth!="admin"', "level~'x' || message~'x'")).toBe(
      `(data.auth!="admin") && (level~'x' || message~'x')`,
    );
  });
});
