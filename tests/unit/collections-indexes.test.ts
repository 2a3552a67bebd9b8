// CREATE INDEX parsing and rebuilding (PocketBase 0.22 tools/dbutils/index.go behaviour).
import { describe, expect, it } from 'vitest';
import { buildIndex, isValidIndex, parseIndex, renameInIndex } from '../../src/lib/collections/indexes';
import { columnDefinition, createTableSql } from '../../server/collections/ddl';
import { decodeField, normalizeDateTime } from '../../server/collections/normalize';
import { goRegexError } from '../../src/lib/schema/go-regex';

describe('parseIndex / buildIndex', () => {
  it('parses every part and rebuilds the normalised statement', () => {
    const idx = parseIndex('create unique index if not exists "main"."idx_a" on "posts" (title collate nocase desc, lower(body), `x`) where title != \'\'');
    expect(idx).toEqual({
      unique: true,
      optional: true,
      schemaName: 'main',
      indexName: 'idx_a',
      tableName: 'posts',
      columns: [
        { name: 'title', collate: 'nocase', sort: 'DESC' },
        { name: 'lower(body)', collate: '', sort: '' },
        { name: 'x', collate: '', sort: '' },
      ],
      where: "title != ''",
    });
    expect(buildIndex(idx)).toBe(
      "CREATE UNIQUE INDEX IF NOT EXISTS `main`.`idx_a` ON `posts` (\n  `title` COLLATE nocase DESC,\n  lower(body),\n  `x`\n) WHERE title != ''",
    );
    expect(buildIndex(parseIndex('CREATE INDEX "idx_demo2_active" ON "demo2" (\n"active"\n)'))).toBe('CREATE INDEX `idx_demo2_active` ON `demo2` (`active`)');
    expect(buildIndex(parseIndex('create index i on t(a)'))).toBe('CREATE INDEX `i` ON `t` (`a`)');
  });

  it('treats statements without a name, table or column as invalid', () => {
    for (const s of ['', 'drop table x', 'create index on t (a)', 'create index i on t ()']) {
      expect(isValidIndex(parseIndex(s)), s).toBe(false);
      expect(buildIndex(parseIndex(s))).toBe('');
    }
  });

  it('follows table and field renames unless the client already rewrote the columns', () => {
    const renames = new Map([['a', 'c'], ['b', 'a']]);
    const now = new Set(['c', 'a']);
    const stale = renameInIndex(parseIndex('create index i on old (a, b, lower(a))'), 'new', renames, now);
    expect(buildIndex(stale)).toBe('CREATE INDEX `i` ON `new` (\n  `c`,\n  `a`,\n  lower(a)\n)');
    const rewritten = renameInIndex(parseIndex('create index i on old (c, a)'), 'new', renames, now);
    expect(buildIndex(rewritten)).toBe('CREATE INDEX `i` ON `new` (\n  `c`,\n  `a`\n)');
  });
});

describe('column definitions', () => {
  it('uses the 0.22 type and default of each field type', () => {
    const def = (type: string, options: Record<string, unknown> = {}) => columnDefinition(decodeField({ type, options }).field);
    expect(def('number')).toBe('NUMERIC DEFAULT 0 NOT NULL');
    expect(def('bool')).toBe('BOOLEAN DEFAULT FALSE NOT NULL');
    expect(def('json')).toBe('JSON DEFAULT NULL');
    expect(def('text')).toBe("TEXT DEFAULT '' NOT NULL");
    expect(def('select', { maxSelect: 1 })).toBe("TEXT DEFAULT '' NOT NULL");
    expect(def('select', { maxSelect: 2 })).toBe("JSON DEFAULT '[]' NOT NULL");
    expect(def('relation', { maxSelect: null })).toBe("JSON DEFAULT '[]' NOT NULL");
    expect(def('relation', { maxSelect: 1 })).toBe("TEXT DEFAULT '' NOT NULL");
    expect(def('file', { maxSelect: 99 })).toBe("JSON DEFAULT '[]' NOT NULL");
  });

  it('sorts columns bytewise like Go', () => {
    const sql = createTableSql({ name: 't', type: 'base', schema: [decodeField({ name: 'Zed', type: 'text' }).field, decodeField({ name: 'alpha', type: 'text' }).field] });
    expect(sql.indexOf('`Zed`')).toBeLessThan(sql.indexOf('`alpha`'));
  });
});

describe('decoding', () => {
  it('fills Go zero values and reports wrongly typed options', () => {
    expect(decodeField({ name: 'x', type: 'file', options: { maxSelect: 2, extra: 1 } })).toMatchObject({
      field: { options: { mimeTypes: null, thumbs: null, maxSelect: 2, maxSize: 0, protected: false } },
      invalidOptions: [],
    });
    expect(decodeField({ name: 'x', type: 'text', options: { min: 1.5 } }).invalidOptions).toEqual(['min']);
    expect(decodeField({ name: 'x', type: 'nope' }).unknownType).toBe(true);
  });

  it('normalises dates to the stored format', () => {
    expect(normalizeDateTime('2024-01-02')).toBe('2024-01-02 00:00:00.000Z');
    expect(normalizeDateTime('2024-01-02T03:04:05+01:00')).toBe('2024-01-02 02:04:05.000Z');
    expect(normalizeDateTime('')).toBe('');
    expect(normalizeDateTime('soon')).toBeUndefined();
  });

  it('checks patterns as Go (RE2) would', () => {
    expect(goRegexError('^[a-z]+$')).toBeNull();
    expect(goRegexError('(?i)^abc$')).toBeNull();
    expect(goRegexError('(?P<year>\\d{4})')).toBeNull();
    expect(goRegexError('(')).toMatch(/^error parsing regexp: /);
    expect(goRegexError('a(?=b)')).toMatch(/unsupported Perl syntax/);
    expect(goRegexError('(a)\\1')).toMatch(/invalid escape sequence/);
  });
});
