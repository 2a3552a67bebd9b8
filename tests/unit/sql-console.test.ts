// The SQL console's plain parts: NDJSON lines cut anywhere by the network, CSV row counting, the
// query plan as a tree, and the editor's completions of tables and columns.
import { describe, expect, it } from 'vitest';
import { countCsvRows, lineSplitter } from '../../src/lib/sql-console/ndjson';
import { planTree } from '../../src/lib/sql-console/plan-tree';
import { sqlCompletions, sqlTables } from '../../src/lib/sql-console/completions';

describe('lineSplitter', () => {
  it('gives complete lines only, whatever the chunks', () => {
    const text = '{"kind":"query","columns":["a"]}\n{"rows":[[1],[2]]}\n{"done":true}\n';
    for (const size of [1, 3, 7, 100]) {
      const s = lineSplitter();
      const lines: string[] = [];
      for (let i = 0; i < text.length; i += size) lines.push(...s.push(text.slice(i, i + size)));
      lines.push(...s.end());
      expect(lines.map((l) => JSON.parse(l))).toEqual([{ kind: 'query', columns: ['a'] }, { rows: [[1], [2]] }, { done: true }]);
    }
  });

  it('keeps a last line without its newline for the end', () => {
    const s = lineSplitter();
    expect(s.push('a\nb')).toEqual(['a']);
    expect(s.end()).toEqual(['b']);
  });
});

it('counts CSV rows by their CRLF', () => {
  expect(countCsvRows('a,b\r\n1,2\r\n')).toBe(2);
  expect(countCsvRows('"x\ny",1\r\n')).toBe(1);
  expect(countCsvRows('')).toBe(0);
});

it('builds the plan tree from id and parent', () => {
  const rows = [
    [2, 0, 0, 'SCAN u'],
    [5, 0, 0, 'CORRELATED SCALAR SUBQUERY 1'],
    [9, 5, 0, 'SEARCH c USING INDEX idx (name=?)'],
    [20, 0, 0, 'USE TEMP B-TREE FOR ORDER BY'],
  ];
  expect(planTree(rows)).toEqual([
    { id: 2, detail: 'SCAN u', children: [] },
    { id: 5, detail: 'CORRELATED SCALAR SUBQUERY 1', children: [{ id: 9, detail: 'SEARCH c USING INDEX idx (name=?)', children: [] }] },
    { id: 20, detail: 'USE TEMP B-TREE FOR ORDER BY', children: [] },
  ]);
});

describe('completions', () => {
  const tables = sqlTables([
    { name: 'posts', type: 'base', schema: [{ name: 'title' }, { name: 'author' }] },
    { name: 'users', type: 'auth', schema: [{ name: 'name' }] },
    { name: 'stats', type: 'view', schema: [{ name: 'total' }] },
  ]);

  it('knows every table and its columns, without the secret columns', () => {
    expect(tables.get('posts')).toEqual(['id', 'created', 'updated', 'title', 'author']);
    expect(tables.get('users')).toEqual(['id', 'created', 'updated', 'username', 'email', 'emailVisibility', 'verified', 'lastResetSentAt', 'lastVerificationSentAt', 'name']);
    expect(tables.get('stats')).toEqual(['id', 'total']);
    expect(tables.get('_admins')).not.toContain('passwordHash');
    expect(tables.get('_params')).not.toContain('value');
    expect([...tables.values()].flat()).not.toContain('tokenKey');
  });

  it("offers a table's columns after `table.`, else the tables and every column", () => {
    expect(sqlCompletions(tables, 'SELECT posts.ti').map((c) => c.value)).toEqual(['id', 'created', 'updated', 'title', 'author']);
    expect(sqlCompletions(tables, 'SELECT Users.').every((c) => c.tables?.[0] === 'users')).toBe(true);
    const all = sqlCompletions(tables, 'SELECT ');
    expect(all.filter((c) => c.meta === 'table').map((c) => c.value)).toEqual(expect.arrayContaining(['posts', 'users', 'stats', '_collections']));
    expect(all.find((c) => c.value === 'title')).toEqual({ value: 'title', meta: 'column', tables: ['posts'] });
    expect(all.find((c) => c.value === 'id')?.tables).toEqual(expect.arrayContaining(['posts', 'users', 'stats', '_admins']));
  });
});
