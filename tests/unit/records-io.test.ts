// The pure parts of records import/export: 0.22's multipart casting of cells, lists, the column
// mapping, row judging with the record schema (the server's strict ajv), and CSV chunks.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import type { CollectionModel } from '../../src/lib/collections/types';
import { exportChunk, exportColumns, exportHead, exportTail, idsFilter } from '../../src/lib/records-io/export-rows';
import { unescapeFormulaCell } from '../../src/lib/records-io/csv-formulas';
import { autoMapping, castBool, castList, castNumber, importTargets, rowData, rowJudge, type DataValidator } from '../../src/lib/records-io/import-rows';

const field = (name: string, type: string, options: Record<string, unknown> = {}, required = false) =>
  ({ system: false, id: name, name, type, required, presentable: false, options }) as CollectionModel['schema'][number];

const posts = {
  id: 'posts0000000000',
  name: 'posts',
  type: 'base',
  schema: [
    field('title', 'text', { max: 10 }, true),
    field('views', 'number'),
    field('ok', 'bool'),
    field('kind', 'select', { maxSelect: 1, values: ['a', 'b'] }),
    field('rel', 'relation', { collectionId: 'x', maxSelect: null }),
    field('meta', 'json', { maxSize: 2000000 }),
    field('cover', 'file', { maxSelect: 1 }),
  ],
} as unknown as CollectionModel;

const ajv = createStrictAjv({ unicodeRegExp: false, verbose: true });
const compile = (s: Record<string, unknown>) => ajv.compile(s) as DataValidator;

describe('import casting', () => {
  it('casts as 0.22 casts multipart values', () => {
    expect(['1', 't', 'TRUE', 'true', 'True', 'yes', '0', ''].map(castBool)).toEqual([true, true, true, true, true, false, false, false]);
    expect(['12', '2.5', '-1e3', 'abc', '', ' 7 '].map(castNumber)).toEqual([12, 2.5, -1000, 0, 0, 7]);
    expect(castList('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(castList('["x","y"]')).toEqual(['x', 'y']);
    expect(castList('')).toEqual([]);
  });

  it('maps columns by name and leaves files and unknown columns out', () => {
    const targets = importTargets(posts);
    expect(targets.map((t) => t.name)).not.toContain('cover');
    expect(autoMapping(['Title', 'VIEWS', 'other', 'cover'], targets)).toEqual({ Title: 'title', VIEWS: 'views', other: '', cover: '' });
    const data = rowData({ Title: 'hi', VIEWS: 'x', rel: 'a,b', meta: '{"a":1}', id: '' }, { Title: 'title', VIEWS: 'views', rel: 'rel', meta: 'meta', id: 'id' }, targets);
    expect(data).toEqual({ title: 'hi', views: 0, rel: ['a', 'b'], meta: '{"a":1}' });
  });

  it('judges rows with the record schema', () => {
    const judge = rowJudge(posts, compile);
    expect(judge.errors({ title: 'ok', kind: 'a' })).toEqual({});
    expect(judge.errors({ title: '' })).toEqual({ title: { code: 'validation_required', message: 'Missing required value.' } });
    expect(judge.errors({ title: 'ok', kind: 'zzz' }).kind.message).toBe('Invalid value zzz.');
    expect(Object.keys(judge.errors({ title: 'far too long a title' }))).toEqual(['title']);
  });
});

describe('export chunks', () => {
  it('writes CSV that reads back, and JSON that parses', () => {
    const cols = exportColumns(posts);
    const records = [
      { id: 'r1', title: 'a, "quoted"\nline', views: 1, ok: true, kind: 'a', rel: ['x1', 'x2'], meta: { n: 1 }, cover: 'c.png', created: '2024-01-01 00:00:00.000Z', updated: '' },
      { id: 'r2', title: '=1+1', views: 0, ok: false, kind: '', rel: [], meta: null, cover: '', created: '', updated: '' },
    ];
    const opts = { format: 'csv' as const, relationNames: false, fileUrls: true, baseUrl: 'http://h' };
    const csv = exportHead(cols, 'csv') + exportChunk(records, cols, posts, opts, new Map(), 0) + exportTail('csv', 2);
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
    expect(rows[0]).toMatchObject({ id: 'r1', title: 'a, "quoted"\nline', ok: 'true', rel: 'x1,x2', meta: '{"n":1}', cover: 'http://h/api/files/posts0000000000/r1/c.png' });
    expect(rows[1]).toMatchObject({ id: 'r2', meta: '', rel: '', cover: '' });
    const jsonOpts = { ...opts, format: 'json' as const };
    const json = exportHead(cols, 'json') + exportChunk(records.slice(0, 1), cols, posts, jsonOpts, new Map(), 0) + exportChunk(records.slice(1), cols, posts, jsonOpts, new Map(), 1) + exportTail('json', 2);
    expect((JSON.parse(json) as Array<{ rel: unknown }>).map((r) => r.rel)).toEqual([['x1', 'x2'], []]);
    expect(JSON.parse(exportHead(cols, 'json') + exportTail('json', 0))).toEqual([]);
    expect(idsFilter(['a"b', 'c'])).toBe('id="a\\"b" || id="c"');
  });
});

describe('CSV formula cells (OWASP CSV injection)', () => {
  const notes = { ...posts, schema: [field('title', 'text'), field('views', 'number')] } as unknown as CollectionModel;
  const columns = exportColumns(notes);
  const hostile = ['=HYPERLINK("http://x","y")', '+cmd|/C calc!A0', '@SUM(1+1)', '-2+3', '\tTAB', '\rCR', "'=already", "''+twice", "it's fine", 'plain', '', "'"];

  it('exports text that a spreadsheet would run with a leading quote; numbers stay numbers', () => {
    const records = hostile.map((title, i) => ({ id: `r${i}`, collectionId: notes.id, title, views: -2 }));
    const csv = exportHead(columns, 'csv') + exportChunk(records, columns, notes, { format: 'csv', relationNames: false, fileUrls: false, baseUrl: '' }, new Map(), 0);
    const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.slice(1);
    const titleAt = columns.findIndex((c) => c.name === 'title');
    const viewsAt = columns.findIndex((c) => c.name === 'views');
    const cells = rows.map((r) => r[titleAt]);
    expect(cells.slice(0, 8)).toEqual(["'" + hostile[0], "'+cmd|/C calc!A0", "'@SUM(1+1)", "'-2+3", "'\tTAB", "'\rCR", "''=already", "'''+twice"]);
    expect(cells.slice(8)).toEqual(["it's fine", 'plain', '', "'"]);
    // no exported cell opens with a formula character any more
    for (const c of cells) expect(c).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows.every((r) => r[viewsAt] === '-2')).toBe(true);
  });

  it('imports the escaped file back to the same values', () => {
    const records = hostile.map((title, i) => ({ id: `r${i}`, collectionId: notes.id, title, views: 1 }));
    const csv = exportHead(columns, 'csv') + exportChunk(records, columns, notes, { format: 'csv', relationNames: false, fileUrls: false, baseUrl: '' }, new Map(), 0);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: 'greedy', transform: unescapeFormulaCell });
    expect(parsed.data.map((r) => r.title)).toEqual(hostile);
  });
});
