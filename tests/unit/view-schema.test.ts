// View schema inference against PocketBase 0.22.12's own fixture: the schema it stored for its
// three views is the expected answer for their queries (compared on a copy of data.db).
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection, SchemaField } from '../../server/collections/model';
import { inferViewSchema, normalizeViewQuery, validateViewQuery } from '../../server/collections/view-schema';
import type { CollectionLookup } from '../../server/query/record-resolver';

const FIXTURE = '/work/shared/fixtures/pocketbase-0.22.12-pb_data/data.db';

let dir: string;
let db: Database.Database;
let collections: Collection[];
let lookup: CollectionLookup;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'view-schema-'));
  cpSync(FIXTURE, join(dir, 'data.db'));
  db = new Database(join(dir, 'data.db'));
  collections = (db.prepare('SELECT * FROM _collections').all() as Record<string, string>[]).map((r) => ({
    ...(r as unknown as Collection),
    schema: JSON.parse(r.schema),
    options: JSON.parse(r.options),
    indexes: JSON.parse(r.indexes),
  }));
  lookup = (nameOrId) => collections.find((c) => c.id === nameOrId || c.name.toLowerCase() === nameOrId.toLowerCase());
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const view = (name: string) => collections.find((c) => c.name === name)!;
const withoutIds = (fields: SchemaField[]) => fields.map(({ id: _id, ...rest }) => rest);
const infer = (query: string) => inferViewSchema(db, query, lookup);
const summary = (query: string) => infer(query).map((f) => [f.name, f.type]);

describe('the fixture views', () => {
  it.each(['view1', 'view2', 'numeric_id_view'])('%s: same fields, types and options as PocketBase stored', (name) => {
    const stored = view(name);
    const inferred = infer(String(stored.options.query));
    expect(inferred.map((f) => [f.name, f.type])).toEqual(stored.schema.map((f) => [f.name, f.type]));
    expect(withoutIds(inferred)).toEqual(withoutIds(stored.schema));
  });

  it('gives every field a fresh 8-character id', () => {
    const fields = infer(String(view('view1').options.query));
    const demo1Ids = new Set(view('demo1').schema.map((f) => f.id));
    for (const f of fields) {
      expect(f.id).toMatch(/^[a-z0-9]{8}$/);
      expect(demo1Ids.has(f.id)).toBe(false);
    }
  });

  it('leaves id, created and updated out of the schema', () => {
    expect(summary('select id, created, updated, text from demo1')).toEqual([['text', 'text']]);
  });
});

describe('inference rules', () => {
  it('count()/total() and numeric casts are numbers, CAST AS text/bool are text/bool, other expressions json', () => {
    expect(
      summary(
        `select id, count(*) as c, total(number) t, CAST(text AS INTEGER) i, cast(number as real) r, cast(number as text) s, ` +
          `cast(bool as boolean) b, cast(number as varchar) v, (number + 1) as plus, 'x' as lit from demo1 group by id`,
      ),
    ).toEqual([
      ['c', 'number'],
      ['t', 'number'],
      ['i', 'number'],
      ['r', 'number'],
      ['s', 'text'],
      ['b', 'bool'],
      ['v', 'json'],
      ['plus', 'json'],
      ['lit', 'json'],
    ]);
    expect(infer('select id, (number + 1) as plus from demo1')[0].options).toEqual({ maxSize: 1 });
  });

  it('an aliased id is a single relation to its collection; auth system columns keep their types', () => {
    const fields = infer(
      'select demo1.id, demo1.id as me, u.id as owner, u.email, u.username as handle, u.verified, u.emailVisibility ev, demo1.updated as upd ' +
        'from demo1 left join users u on u.id = demo1.rel_many',
    );
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['me', 'relation'],
      ['owner', 'relation'],
      ['email', 'email'],
      ['handle', 'text'],
      ['verified', 'bool'],
      ['ev', 'bool'],
      ['upd', 'date'],
    ]);
    expect(fields[0].options).toEqual({ collectionId: 'wsmn24bux7wo113', cascadeDelete: false, minSelect: null, maxSelect: 1, displayFields: null });
    expect(fields[1].options.collectionId).toBe('_pb_users_auth_');
  });

  it('keeps field options through aliases, joins, views and CTEs', () => {
    const [rel] = infer('with x as (select id, rel_many as people from demo1) select id, people from x');
    expect([rel.name, rel.type, rel.options.collectionId, rel.options.maxSelect]).toEqual(['people', 'relation', '_pb_users_auth_', null]);
    expect(summary('select v.id, v.state as s, v.rel_many from view2 v')).toEqual([
      ['s', 'bool'],
      ['rel_many', 'relation'],
    ]);
    const [sel] = infer('select d.id, d.select_many as picks from demo1 as d');
    expect(sel.options).toEqual({ maxSelect: 3, values: ['optionA', 'optionB', 'optionC'] });
  });

  it('reads a column SQLite lost the origin of through the FROM alias (an expression column of a view)', () => {
    db.exec('CREATE TEMP VIEW counted AS SELECT id, count(*) AS total FROM demo1 GROUP BY id');
    collections.push({ ...view('view2'), id: 'counted_id_123', name: 'counted', schema: infer('select id, count(*) as total from demo1 group by id') });
    try {
      expect(summary('select c.id, c.total from counted c')).toEqual([['total', 'number']]);
    } finally {
      collections.pop();
      db.exec('DROP VIEW temp.counted');
    }
  });

  it('columns of tables that are not collections are json', () => {
    db.exec('CREATE TABLE plain_table (id TEXT PRIMARY KEY, email TEXT)');
    try {
      expect(summary('select id, email from plain_table')).toEqual([['email', 'json']]);
    } finally {
      db.exec('DROP TABLE plain_table');
    }
  });

  it('refuses queries that read secrets (password hashes, token keys, settings), column by column', () => {
    expect(summary('select id, email from _admins')).toEqual([['email', 'json']]);
    expect(() => infer('select id, passwordHash as email from _admins')).toThrow('the view may not read the column "passwordHash" of "_admins"');
    expect(() => infer('select id, tokenKey as k from users')).toThrow('the view may not read the column "tokenKey" of "users"');
    expect(() => infer('select id, value from _params')).toThrow('the view may not read the column "value" of "_params"');
  });
});

describe('the query the SQL view is created from', () => {
  it('wraps a non-text id in a text cast, as PocketBase does, and keeps a text id as is', () => {
    expect(normalizeViewQuery(db, 'select (ROW_NUMBER() OVER()) as id, email from clients;', lookup)).toBe(
      'SELECT cast(`id` as text) `id`,`email` FROM (select (ROW_NUMBER() OVER()) as id, email from clients)',
    );
    expect(normalizeViewQuery(db, 'select id, text from demo1', lookup)).toBe('select id, text from demo1');
  });
});

describe('bad queries', () => {
  it.each([
    ['select * from demo1', '*: dynamic column names are not supported'],
    ['select id, demo1.* from demo1', 'demo1.*: dynamic column names are not supported'],
    ['select text from demo1', 'id: missing required id column'],
    ['select id as ID2, text from demo1', 'id: missing required id column'],
    ['select id, count(*) from demo1', 'count(*): the expression needs an alias'],
    ['select id, text, text from demo1', 'text: duplicated column name'],
    ['delete from demo1', 'only SELECT queries are supported'],
    ['DELETE FROM demo1 WHERE id = 1', 'only SELECT queries are supported'],
    ['insert into demo2 (id) values (1)', 'only SELECT queries are supported'],
    ['update demo1 set text = 1', 'only SELECT queries are supported'],
    [`ATTACH DATABASE '/tmp/x.db' AS x`, 'only SELECT queries are supported'],
    ['pragma table_info(demo1)', 'only SELECT queries are supported'],
    ['select id from demo1; delete from demo1', 'multiple statements are not supported'],
    ['select id from demo1; select id from demo2', 'multiple statements are not supported'],
    ['select id, ? as x from demo1', 'query parameters are not supported'],
    ['', 'must not be empty'],
    [`select id, 'unterminated from demo1`, 'unterminated'],
  ])('validateViewQuery rejects %j', (query, message) => {
    expect(() => validateViewQuery(query)).toThrow(message);
    expect(() => infer(query)).toThrow(message);
  });

  it.each([
    ['selec id from demo1', 'near "selec": syntax error'],
    ['select id, text from demo1 where id = = 1', 'near "=": syntax error'],
    ['select id, nope from demo1', 'no such column: nope'],
    ['select id from nope', 'no such table: nope'],
  ])('inferViewSchema rejects %j with SQLite\'s message', (query, message) => {
    expect(() => infer(query)).toThrow(message);
  });

  it('accepts a trailing semicolon, comments and semicolons inside strings', () => {
    expect(() => validateViewQuery(`select id, 'a;b' as t -- note; here\nfrom demo1;`)).not.toThrow();
    expect(summary(`select id, 'a;b' as t /* ; */ from demo1;;`)).toEqual([['t', 'json']]);
  });

  it('never changes the database', () => {
    const before = db.prepare('select count(*) from demo1').pluck().get();
    expect(() => infer('select id from demo1; delete from demo1')).toThrow();
    expect(() => infer('with x as (select id from demo1) delete from demo1')).toThrow();
    expect(db.prepare('select count(*) from demo1').pluck().get()).toBe(before);
  });
});
