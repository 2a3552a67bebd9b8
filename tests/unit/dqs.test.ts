// Double-quoted string literals (server/db/dqs.ts): SQL that PocketBase 0.22's SQLite accepts
// prepares here too, with exactly the tokens SQLite could not resolve as names rewritten as strings.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { requoteToken, withStringLiterals } from '../../server/db/dqs';

const db = new Database(':memory:');
db.exec('CREATE TABLE users (id TEXT, name TEXT, "x y" TEXT)');
const prepare = (sql: string) => withStringLiterals(sql, (s) => db.prepare(s)).sql;

describe('withStringLiterals', () => {
  it('leaves SQL that prepares as it is untouched (no second attempt)', () => {
    let calls = 0;
    const sql = `SELECT id, "name" FROM users WHERE name != 'x'`;
    expect(withStringLiterals(sql, (s) => (calls++, db.prepare(s))).sql).toBe(sql);
    expect(calls).toBe(1);
  });

  it('rewrites only the double-quoted tokens that name no column', () => {
    expect(prepare('SELECT id, name FROM users WHERE name != "nobody"')).toBe("SELECT id, name FROM users WHERE name != 'nobody'");
    expect(prepare('SELECT "name" FROM users WHERE "x y" = "zz" AND name = "it\'s"')).toBe(`SELECT "name" FROM users WHERE "x y" = 'zz' AND name = 'it''s'`);
    expect(db.prepare(prepare('SELECT id FROM users WHERE name IN ("a", "b")')).all()).toEqual([]);
  });

  it('throws any other error as SQLite gave it', () => {
    expect(() => prepare('SELECT id FROM nope WHERE name = "a"')).toThrow(/no such table: nope/);
    expect(() => prepare('SELEC id FROM users')).toThrow(/syntax error/);
  });
});

describe('requoteToken', () => {
  it('skips strings, other quoted names and comments', () => {
    expect(requoteToken(`a "b" 'x "b"' \`b\` [b] -- "b"\n/* "b" */ "b" "bb"`, 'b')).toBe(`a 'b' 'x "b"' \`b\` [b] -- "b"\n/* "b" */ 'b' "bb"`);
  });
  it('unescapes doubled quotes inside the token', () => {
    expect(requoteToken('x = "say ""hi"""', 'say "hi"')).toBe(`x = 'say "hi"'`);
  });
  it('leaves an unterminated token as it is', () => {
    expect(requoteToken('x = "open', 'open')).toBe('x = "open');
  });
});
