// Compiled filters are executed against a real SQLite table: the assertions are about which rows
// match, which is what PocketBase's semantics promise.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilterError } from '../../server/query/filter-ast';
import { compileFilter, likePattern } from '../../server/query/filter-compiler';
import { createSimpleResolver, type FieldResolver } from '../../server/query/field-resolver';
import { macroValue } from '../../server/query/macros';
import { compileSort, parseSort } from '../../server/query/sort';

let db: Database.Database;

const ROWS = [
  // id, title, n, flag, created, data, tags
  ['r1', 'Hello World', 1, 1, '2024-01-03 09:01:55.630Z', { auth: 'guest', status: 200 }, ['a', 'b']],
  ['r2', 'hello_world', 2, 0, '2024-01-04 10:00:00.000Z', { auth: 'admin', status: 404, nested: { x: 1 } }, ['a']],
  ['r3', '50% off', 3, 0, '2024-02-01 00:00:00.000Z', { auth: 'guest', status: 500, empty: '' }, []],
  ['r4', String.raw`back\slash`, 4, 1, '2023-12-31 23:59:59.999Z', { auth: 'authRecord', status: 201, n: null }, ['b']],
  ['r5', '', 0, 0, '2025-06-15 12:00:00.000Z', {}, ['c', 'a']],
  ['r6', null, null, null, '', { list: [10, 20] }, ['a', 'a']],
] as const;

const resolver = createSimpleResolver({
  columns: { id: 't.id', title: 't.title', n: 't.n', flag: 't.flag', created: 't.created', data: 't.data' },
  jsonColumns: ['data'],
});

beforeAll(() => {
  db = new Database(':memory:');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, title TEXT, n INTEGER, flag INTEGER, created TEXT, data JSON, tags JSON)');
  db.exec('CREATE TABLE x (v TEXT)');
  db.exec("INSERT INTO x VALUES ('keep me')");
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const [id, title, n, flag, created, data, tags] of ROWS) {
    insert.run(id, title, n, flag, created, JSON.stringify(data), JSON.stringify(tags));
  }
});
afterAll(() => db.close());

function ids(filter: string, r: FieldResolver = resolver, now?: Date): string[] {
  const where = compileFilter(filter, r, { now });
  const joins = r.joins?.() ?? [];
  const from = ['t', ...joins.map((j) => j.sql)].join(' ');
  return db
    .prepare(`SELECT DISTINCT t.id FROM ${from} WHERE ${where.sql} ORDER BY t.id`)
    .pluck()
    .all(...joins.flatMap((j) => j.params), ...where.params) as string[];
}

describe('comparison operators', () => {
  it('= and != on text are case-sensitive; != includes NULL rows', () => {
    expect(ids(`title = 'Hello World'`)).toEqual(['r1']);
    expect(ids(`title = 'hello world'`)).toEqual([]);
    expect(ids(`title != 'Hello World'`)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6']);
  });

  it('numbers: < <= > >= = !=', () => {
    expect(ids('n > 2')).toEqual(['r3', 'r4']);
    expect(ids('n >= 2')).toEqual(['r2', 'r3', 'r4']);
    expect(ids('n < 2')).toEqual(['r1', 'r5']);
    expect(ids('n <= 2')).toEqual(['r1', 'r2', 'r5']);
    expect(ids('n = 3')).toEqual(['r3']);
    expect(ids('n != 3')).toEqual(['r1', 'r2', 'r4', 'r5', 'r6']);
    expect(ids('n > -1.5 && n < 1.5')).toEqual(['r1', 'r5']);
  });

  it('true/false/null keywords when no such field exists', () => {
    expect(ids('flag = true')).toEqual(['r1', 'r4']);
    expect(ids('flag = false')).toEqual(['r2', 'r3', 'r5']);
    // 0 is a value, not empty: only the NULL row
    expect(ids('n = null')).toEqual(['r6']);
  });

  it('~ is a case-insensitive contains; !~ its negation', () => {
    expect(ids(`title ~ 'hello'`)).toEqual(['r1', 'r2']);
    expect(ids(`title ~ 'WORLD'`)).toEqual(['r1', 'r2']);
    expect(ids(`title !~ 'hello'`)).toEqual(['r3', 'r4', 'r5']);
  });

  it('~ escapes _ \\ and %-free values, but uses a value with an unescaped % as the pattern', () => {
    expect(ids(`title ~ '_'`)).toEqual(['r2']);
    expect(ids(`title ~ 'o_w'`)).toEqual(['r2']);
    expect(ids(String.raw`title ~ 'k\s'`)).toEqual(['r4']);
    expect(ids(String.raw`title ~ '50\%'`)).toEqual(['r3']);
    expect(ids(`title ~ '50%'`)).toEqual(['r3']);
    expect(ids(`title ~ 'hello%'`)).toEqual(['r1', 'r2']);
    expect(ids(`title ~ '%world'`)).toEqual(['r1', 'r2']);
    expect(ids(`title ~ '%orl%'`)).toEqual(['r1', 'r2']);
    // an explicit pattern must match the whole value
    expect(ids(`title ~ 'h%o_w'`)).toEqual([]);
    expect(ids(`title ~ 'h%o_w%'`)).toEqual(['r1', 'r2']);
  });

  it('builds LIKE patterns as PocketBase does', () => {
    expect(likePattern('abc')).toBe('%abc%');
    expect(likePattern('a_b')).toBe(String.raw`%a\_b%`);
    expect(likePattern('__')).toBe(String.raw`%\_\_%`);
    expect(likePattern(String.raw`a\b`)).toBe(String.raw`%a\\b%`);
    expect(likePattern(String.raw`a\_b`)).toBe(String.raw`%a\_b%`);
    expect(likePattern(String.raw`100\%`)).toBe(String.raw`%100\%%`);
    expect(likePattern('a%')).toBe('a%');
    expect(likePattern(5)).toBe('%5%');
    expect(likePattern(null)).toBe('%%');
  });

  it('~ with a field on the right wraps the field in % (the field itself is a raw pattern)', () => {
    // hello_world's `_` is a wildcard here, as in PocketBase
    expect(ids(`'xx Hello World yy' ~ title && title != ''`)).toEqual(['r1', 'r2']);
    expect(ids(`'xx Hello World yy' !~ title`)).toEqual(['r3', 'r4']);
  });

  it('any-of operators behave like the plain ones on single values', () => {
    expect(ids('n ?> 2')).toEqual(ids('n > 2'));
    expect(ids(`title ?= 'Hello World'`)).toEqual(['r1']);
    expect(ids(`title ?~ 'hello'`)).toEqual(['r1', 'r2']);
    expect(ids(`title ?!= ''`)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(ids('n ?<= 1')).toEqual(['r1', 'r5']);
  });
});

describe('empty and null', () => {
  it("= '' and = null both mean empty or NULL", () => {
    expect(ids(`title = ''`)).toEqual(['r5', 'r6']);
    expect(ids('title = null')).toEqual(['r5', 'r6']);
    expect(ids(`'' = title`)).toEqual(['r5', 'r6']);
    expect(ids(`title != ''`)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(ids('title != null')).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(ids(`'' = null`)).toHaveLength(6);
    expect(ids(`'' != null`)).toEqual([]);
  });

  it('json paths compare with IS: missing and null differ from an empty string', () => {
    expect(ids(`data.empty = ''`)).toEqual(['r3']);
    expect(ids('data.empty = null')).toEqual(['r1', 'r2', 'r4', 'r5', 'r6']);
    expect(ids('data.n = null')).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(ids(`data.empty != ''`)).toEqual(['r1', 'r2', 'r4', 'r5', 'r6']);
  });

  it('compares two columns with COALESCE', () => {
    expect(ids('title = id')).toEqual([]);
    expect(ids('title = title')).toHaveLength(6);
  });
});

describe('json paths', () => {
  it('reads nested keys and array indexes', () => {
    expect(ids('data.status >= 400')).toEqual(['r2', 'r3']);
    expect(ids(`data.auth = 'guest'`)).toEqual(['r1', 'r3']);
    expect(ids('data.nested.x = 1')).toEqual(['r2']);
    expect(ids('data.list.1 = 20')).toEqual(['r6']);
    expect(ids(`data.auth ~ 'AUTH'`)).toEqual(['r4']);
  });

  it('rejects unknown fields and paths of non-json columns', () => {
    expect(() => ids('nope = 1')).toThrow(/invalid left operand "nope"/);
    expect(() => ids(`title.x = 1`)).toThrow(FilterError);
    expect(() => ids(`n = other`)).toThrow(/invalid right operand "other"/);
  });
});

describe('precedence and grouping', () => {
  it('&& binds tighter than ||', () => {
    expect(ids('n = 1 || n = 2 && flag = 1')).toEqual(['r1']);
    expect(ids('(n = 1 || n = 2) && flag = 0')).toEqual(['r2']);
    expect(ids('flag = 1 && n = 4 || n = 2')).toEqual(['r2', 'r4']);
    expect(ids('n = 3 || n = 4 && flag = 1 || n = 1')).toEqual(['r1', 'r3', 'r4']);
  });

  it('combines json and plain conditions (the logs page filter)', () => {
    expect(ids(`data.status >= 400 && data.auth = "guest"`)).toEqual(['r3']);
    expect(ids(`n > 0 && data.auth = "guest"`)).toEqual(['r1', 'r3']);
  });
});

describe('date macros', () => {
  const now = new Date(Date.UTC(2024, 0, 3, 9, 30, 15, 250));

  it('evaluates every macro in UTC with PocketBase formats', () => {
    expect(macroValue('@now', now)).toBe('2024-01-03 09:30:15.250Z');
    expect(macroValue('@second', now)).toBe(15);
    expect(macroValue('@minute', now)).toBe(30);
    expect(macroValue('@hour', now)).toBe(9);
    expect(macroValue('@day', now)).toBe(3);
    expect(macroValue('@month', now)).toBe(1);
    expect(macroValue('@weekday', now)).toBe(3);
    expect(macroValue('@year', now)).toBe(2024);
    expect(macroValue('@todayStart', now)).toBe('2024-01-03 00:00:00.000Z');
    expect(macroValue('@todayEnd', now)).toBe('2024-01-03 23:59:59.999Z');
    expect(macroValue('@monthStart', now)).toBe('2024-01-01 00:00:00.000Z');
    expect(macroValue('@monthEnd', now)).toBe('2024-01-31 23:59:59.999Z');
    expect(macroValue('@monthEnd', new Date(Date.UTC(2024, 1, 10)))).toBe('2024-02-29 23:59:59.999Z');
    expect(macroValue('@yearStart', now)).toBe('2024-01-01 00:00:00.000Z');
    expect(macroValue('@yearEnd', now)).toBe('2024-12-31 23:59:59.999Z');
    expect(macroValue('@unknown', now)).toBeUndefined();
  });

  it('filters rows with macros as bound values', () => {
    expect(ids(`created > @now && created != ''`, resolver, now)).toEqual(['r2', 'r3', 'r5']);
    expect(ids(`created >= @todayStart && created <= @todayEnd`, resolver, now)).toEqual(['r1']);
    expect(ids(`created >= @monthStart && created <= @monthEnd`, resolver, now)).toEqual(['r1', 'r2']);
    expect(ids(`created > @yearEnd`, resolver, now)).toEqual(['r5']);
    expect(ids(`created < @yearStart && created != ''`, resolver, now)).toEqual(['r4']);
    expect(ids(`n = @month`, resolver, now)).toEqual(['r1']);
    expect(ids(`n = @weekday`, resolver, now)).toEqual(['r3']);
  });
});

describe('hostile input', () => {
  it('binds every value: quotes and SQL in strings are just text', () => {
    const where = compileFilter(`title = "'; DROP TABLE x; --" || title ~ "' OR 1=1 --"`, resolver);
    expect(where.sql).not.toContain('DROP');
    expect(where.sql).not.toContain('1=1');
    expect(where.params).toContain("'; DROP TABLE x; --");
    expect(ids(`title = "'; DROP TABLE x; --"`)).toEqual([]);
    expect(ids(`title ~ "' OR 1=1 --"`)).toEqual([]);
    expect(db.prepare('SELECT v FROM x').pluck().all()).toEqual(['keep me']);
  });

  it.each([
    [`'; DROP TABLE x; --`],
    [`title = ''; DROP TABLE x; --`],
    [`title = 'unbalanced`],
    [`title = "unbalanced`],
    [`(title = 'x'`],
    [`title = 'x')`],
    [`id = 1 OR 1 = 1`],
    [`id = 1 -- comment`],
    [`"a" = "a" UNION SELECT 1`],
    ['('.repeat(10_000) + 'n = 1' + ')'.repeat(10_000)],
    ['n = 1' + ' || n = 1'.repeat(1000)],
  ])('rejects hostile filter #%# with a FilterError', (input) => {
    expect(() => compileFilter(input, resolver)).toThrow(FilterError);
    expect(db.prepare('SELECT count(*) FROM x').pluck().get()).toBe(1);
  });

  it('resolver output is the only SQL text that reaches the query', () => {
    const where = compileFilter(`data.auth = 'x' && title ~ 'y' && n > 1`, resolver);
    expect(where.sql).toBe(`(json_extract(t.data, ?) IS ? AND t.title LIKE ? ESCAPE '\\' AND t.n > ?)`);
    expect(where.params).toEqual(['$."auth"', 'x', '%y%', 1]);
  });
});

describe('multi-match through a custom resolver', () => {
  // `tags:each` stands for the elements of the tags array: a LEFT JOIN fans rows out for the
  // ?-operators and a correlated subquery lists the elements for the plain ("every") operators.
  const tagsResolver: FieldResolver = {
    resolve(name) {
      if (name === 'tags:each') {
        return {
          sql: '__tags.value',
          params: [],
          multiMatch: { sql: 'SELECT value AS multiMatchValue FROM json_each(t.tags)', params: [] },
        };
      }
      if (name === 'tags') return { sql: 't.tags', params: [] };
      return resolver.resolve(name);
    },
    joins: () => [{ sql: 'LEFT JOIN json_each(t.tags) __tags', params: [] }],
  };

  it('?= matches when any element matches, = only when every element does', () => {
    expect(ids(`tags:each ?= 'a'`, tagsResolver)).toEqual(['r1', 'r2', 'r5', 'r6']);
    expect(ids(`tags:each = 'a'`, tagsResolver)).toEqual(['r2', 'r6']);
    // r3 has no elements: its single LEFT JOIN row is NULL, which IS NOT 'a'
    expect(ids(`tags:each ?!= 'a'`, tagsResolver)).toEqual(['r1', 'r3', 'r4', 'r5']);
    // plain operators hold vacuously for a row without elements (r3), as in PocketBase
    expect(ids(`tags:each != 'a'`, tagsResolver)).toEqual(['r3', 'r4']);
    expect(ids(`tags:each ?~ 'B'`, tagsResolver)).toEqual(['r1', 'r4']);
    expect(ids(`tags:each ~ 'b'`, tagsResolver)).toEqual(['r4']);
  });

  it('a bare multi-value field compares as its stored JSON text', () => {
    expect(ids(`tags ~ 'a'`, tagsResolver)).toEqual(['r1', 'r2', 'r5', 'r6']);
    expect(ids(`tags = '["b"]'`, tagsResolver)).toEqual(['r4']);
  });
});

describe('sort', () => {
  it('parses directions and resolves fields', () => {
    expect(parseSort('-created, +title,n')).toEqual([
      { name: 'created', direction: 'DESC' },
      { name: 'title', direction: 'ASC' },
      { name: 'n', direction: 'ASC' },
    ]);
    expect(compileSort(parseSort('-n,@random,data.status'), resolver)?.sql).toBe('t.n DESC, RANDOM(), json_extract(t.data, ?) ASC');
  });

  it('rejects unknown fields and literals', () => {
    expect(() => compileSort(parseSort('nope'), resolver)).toThrow(/invalid sort field "nope"/);
    expect(() => compileSort(parseSort('-n,'), resolver)).toThrow(FilterError);
    expect(() => compileSort(parseSort('n;DROP TABLE x'), resolver)).toThrow(FilterError);
  });
});
