// /api/collections over HTTP against the real server on a fresh data dir: view collections
// (the SQL view, its inferred schema, queries refused), rules compiled at save time, bad input (400
// with field errors, nothing changed) and import (with and without deleteMissing, all or nothing);
// each part builds on the collections the one before made.
import { describe, expect, it, beforeAll } from 'vitest';
import { http } from '../helpers/server';
import { api, columns, db, snapshot, srv, tableSql, token, withAdminServer } from '../helpers/collections-api';

withAdminServer();

describe('view collections', () => {
  beforeAll(async () => {
    const res = await api('POST', '/api/collections', {
      name: 'products',
      schema: [
        { name: 'label', type: 'text' },
        { name: 'price', type: 'number' },
        { name: 'owner', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('creates the SQL view and infers the schema from the query', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'cheap',
      type: 'view',
      listRule: '',
      options: { query: 'select id, label, price, owner, count(id) as total from products group by id;' },
      schema: [{ name: 'ignored', type: 'text' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.schema.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
      'label:text', 'price:number', 'owner:relation', 'total:number',
    ]);
    expect(res.body.indexes).toEqual([]);
    expect(tableSql('cheap')).toBe('CREATE VIEW `cheap` AS SELECT * FROM (select id, label, price, owner, count(id) as total from products group by id)');
  });

  it('wraps a non-text id in a text cast, like 0.22', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'numbered',
      type: 'view',
      options: { query: 'select (ROW_NUMBER() OVER()) as id, label from products' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(tableSql('numbered')).toBe(
      'CREATE VIEW `numbered` AS SELECT * FROM (SELECT cast(`id` as text) `id`,`label` FROM (select (ROW_NUMBER() OVER()) as id, label from products))',
    );
  });

  it('accepts only list and view rules, and no indexes', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'ruled',
      type: 'view',
      createRule: '',
      deleteRule: '',
      indexes: ['create index x on ruled (label)'],
      options: { query: 'select id, label from products' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.createRule).toEqual({ code: 'validation_nil', message: 'Must be blank.' });
    expect(res.body.data.deleteRule.code).toBe('validation_nil');
    expect(res.body.data.indexes.code).toBe('validation_indexes_not_supported');
  });

  it('updates the query and name of a view, re-inferring its schema', async () => {
    const res = await api('PATCH', '/api/collections/cheap', { name: 'cheapest', options: { query: 'select id, price from products' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.schema.map((f: { name: string }) => f.name)).toEqual(['price']);
    expect(tableSql('cheap')).toBeUndefined();
    expect(tableSql('cheapest')).toBe('CREATE VIEW `cheapest` AS SELECT * FROM (select id, price from products)');
    const back = await api('PATCH', '/api/collections/cheapest', { name: 'cheap', options: { query: 'select id, label, price, owner, count(id) as total from products group by id' } });
    expect(back.status).toBe(200);
  });

  it.each([
    ['a wildcard', 'select * from products'],
    ['no id column', 'select label from products'],
    ['a syntax error', 'select id, label frm products'],
    ['a DELETE', 'delete from products'],
    ['an ATTACH', "attach database 'x.db' as x"],
    ['a PRAGMA', 'pragma table_info(products)'],
    ['stacked statements', 'select id from products; drop table products'],
    ['an unaliased expression', 'select id, price * 2 from products'],
  ])('rejects a view query with %s', async (_label, query) => {
    const before = snapshot();
    const res = await api('POST', '/api/collections', { name: 'bad_view', type: 'view', options: { query } });
    expect(res.status).toBe(400);
    expect(res.body.data.options.query.code).toBe('validation_invalid_view_query');
    expect(res.body.data.options.query.message).toMatch(/^Invalid query - /);
    expect(snapshot()).toEqual(before);
  });
});

describe('rules', () => {
  it('stores rules as given and compiles them at save time', async () => {
    const res = await api('POST', '/api/collections', {
      name: 'notes',
      schema: [
        { name: 'text', type: 'text' },
        { name: 'owner', type: 'relation', options: { collectionId: '_pb_users_auth_', maxSelect: 1 } },
      ],
      listRule: 'owner = @request.auth.id || owner.name ~ "x"',
      viewRule: "@collection.products.label = text && @request.query.a = '1'",
      createRule: '',
      updateRule: null,
      deleteRule: '@request.data.text != ""',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ createRule: '', updateRule: null, deleteRule: '@request.data.text != ""' });
  });

  it('reports a rule that does not compile as a field error', async () => {
    const before = snapshot();
    const res = await api('PATCH', '/api/collections/notes', { listRule: 'missing = 1', viewRule: 'owner.nope = 1', updateRule: '(' });
    expect(res.status).toBe(400);
    for (const key of ['listRule', 'viewRule', 'updateRule']) {
      expect(res.body.data[key].code, key).toBe('validation_invalid_rule');
      expect(res.body.data[key].message).toMatch(/^Invalid filter rule\. Raw error: /);
    }
    expect(snapshot()).toEqual(before);
  });
});

describe('bad input', () => {
  const field = (name: string, type = 'text', options: Record<string, unknown> = {}) => ({ name, type, options });

  it.each<[string, Record<string, unknown>, string[], string]>([
    ['a name with spaces', { name: 'my posts', schema: [field('a')] }, ['name'], 'validation_match_invalid'],
    ['a duplicate name (case-insensitive)', { name: 'USERS', type: 'auth' }, ['name'], 'validation_collection_name_exists'],
    ['a system table name', { name: '_admins', schema: [field('a')] }, ['name'], 'validation_match_invalid'],
    ['an sqlite_ name', { name: 'sqlite_stat9', schema: [field('a')] }, ['name'], 'validation_invalid_name'],
    ['a _via_ name', { name: 'a_via_b', schema: [field('a')] }, ['name'], 'validation_invalid_name'],
    ['no fields on a base collection', { name: 'empty' }, ['schema'], 'validation_required'],
    ['duplicate field names', { name: 'dups', schema: [field('a'), field('A')] }, ['schema', '1', 'name'], 'validation_duplicated_field_name'],
    ['a system field name', { name: 'sys', schema: [field('created')] }, ['schema', '0', 'name'], 'validation_not_in_invalid'],
    ['a field name with spaces', { name: 'sp', schema: [field('a b')] }, ['schema', '0', 'name'], 'validation_match_invalid'],
    // 0.22 drops a field of an unknown type on decode, which leaves this schema empty
    ['only a field of an unknown type', { name: 'unk', schema: [field('a', 'money')] }, ['schema'], 'validation_required'],
    ['an invalid regex', { name: 're', schema: [field('a', 'text', { pattern: '(' })] }, ['schema', '0', 'options', 'pattern'], 'validation_invalid_regex'],
    ['a lookahead regex', { name: 're2', schema: [field('a', 'text', { pattern: '(?=a)' })] }, ['schema', '0', 'options', 'pattern'], 'validation_invalid_regex'],
    ['text min > max', { name: 'mm', schema: [field('a', 'text', { min: 5, max: 2 })] }, ['schema', '0', 'options', 'max'], 'validation_min_greater_equal_than_required'],
    ['number min > max', { name: 'nm', schema: [field('a', 'number', { min: 5, max: 2 })] }, ['schema', '0', 'options', 'max'], 'validation_min_greater_equal_than_required'],
    ['a select without values', { name: 'sel', schema: [field('a', 'select', { maxSelect: 1 })] }, ['schema', '0', 'options', 'values'], 'validation_required'],
    ['a json field without maxSize', { name: 'js', schema: [field('a', 'json')] }, ['schema', '0', 'options', 'maxSize'], 'validation_required'],
    ['options of the wrong type', { name: 'ot', schema: [field('a', 'text', { min: 'x' })] }, ['schema', '0', 'options'], 'validation_invalid_options'],
    ['a relation to a missing collection', { name: 'rm', schema: [field('a', 'relation', { collectionId: 'nope' })] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    // 0.22 looks the target up before the options' own rules: a blank or absent target does not exist either
    ['a relation without a target', { name: 'rb', schema: [field('a', 'relation', { collectionId: '' })] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    ['a relation with no collectionId', { name: 'rn', schema: [field('a', 'relation', {})] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    ['a relation to a view', { name: 'rv', schema: [field('a', 'relation', { collectionId: 'cheap' })] }, ['schema', '0', 'options', 'collectionId'], 'validation_field_invalid_relation'],
    ['an invalid index statement', { name: 'ii', schema: [field('a')], indexes: ['drop table users'] }, ['indexes', '0'], 'validation_invalid_index_expression'],
    ['a bad custom id', { id: 'short', name: 'cid', schema: [field('a')] }, ['id'], 'validation_length_invalid'],
    ['an unknown type', { name: 'ut', type: 'table', schema: [field('a')] }, ['type'], 'validation_in_invalid'],
    ['a huge schema', { name: 'huge', schema: Array.from({ length: 600 }, (_, i) => field(`f${i}`)) }, ['schema'], 'validation_length_too_long'],
  ])('rejects %s with a field error and changes nothing', async (_label, body, pathParts, code) => {
    const before = snapshot();
    const res = await api('POST', '/api/collections', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    let node = res.body.data;
    for (const part of pathParts) node = node?.[part];
    expect(node?.code, JSON.stringify(res.body.data)).toBe(code);
    expect(snapshot()).toEqual(before);
  });

  it('puts an index naming another table on the collection itself, as 0.22 does', async () => {
    const res = await api('POST', '/api/collections', { name: 'itab', schema: [field('a')], indexes: ['CREATE INDEX `idx_itab_a` ON `users` (`a`)'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(db().prepare("SELECT tbl_name FROM sqlite_master WHERE name = 'idx_itab_a'").get()).toEqual({ tbl_name: 'itab' });
  });

  it('rejects a relation to a view collection as a non-view relation', async () => {
    const view = (await api('GET', '/api/collections/cheap')).body;
    const res = await api('POST', '/api/collections', { name: 'rv2', schema: [field('a', 'relation', { collectionId: view.id })] });
    expect(res.body.data.schema['0'].options.collectionId.code).toBe('validation_field_non_view_base_relation_collection');
  });

  it('answers malformed bodies with the load error', async () => {
    for (const raw of ['{', '[1]', '{"name": 5}', '{"schema": {}}', '{"indexes": [1]}']) {
      const res = await http(srv.url, 'POST', '/api/collections', { token, raw });
      expect(res.status, raw).toBe(400);
      expect(res.body.data).toEqual({});
    }
  });
});

describe('import', () => {
  const exported = async () => (await api('GET', '/api/collections?perPage=500')).body.items as Array<Record<string, any>>;

  it('extends existing schemas and creates new collections without deleteMissing', async () => {
    const all = await exported();
    const notes = all.find((c) => c.name === 'notes')!;
    const res = await api('PUT', '/api/collections/import', {
      collections: [
        { ...notes, schema: [{ name: 'extra', type: 'bool' }] },
        { name: 'imported', schema: [{ name: 'x', type: 'text' }], indexes: ['CREATE INDEX idx_imported_x ON imported (x)'] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const after = await exported();
    expect(after.find((c) => c.name === 'notes')!.schema.map((f: { name: string }) => f.name)).toEqual(['text', 'owner', 'extra']);
    expect(columns('notes')).toContain('extra');
    expect(columns('imported')).toContain('x');
    expect(tableSql('idx_imported_x')).toBeDefined();
    expect(after.length).toBe(all.length + 1);
  });

  it('deletes missing collections and fields with deleteMissing', async () => {
    const all = await exported();
    const keep = all.filter((c) => c.name !== 'imported' && !['cheap', 'numbered'].includes(c.name) && c.type !== 'view');
    const notes = keep.find((c) => c.name === 'notes')!;
    notes.schema = notes.schema.filter((f: { name: string }) => f.name !== 'extra');
    const res = await api('PUT', '/api/collections/import', { collections: keep, deleteMissing: true });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const after = await exported();
    expect(after.map((c) => c.name).sort()).toEqual(keep.map((c) => c.name).sort());
    expect(tableSql('imported')).toBeUndefined();
    expect(tableSql('cheap')).toBeUndefined();
    expect(columns('notes')).not.toContain('extra');
  });

  it('changes nothing when any collection is invalid', async () => {
    const before = snapshot();
    const all = await exported();
    const res = await api('PUT', '/api/collections/import', {
      collections: [...all, { name: 'broken', schema: [{ name: 'r', type: 'relation', options: { collectionId: 'missing' } }] }, { name: 'fine', schema: [{ name: 'x', type: 'text' }] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Failed to import the submitted collections.');
    expect(res.body.data.collections.code).toBe('collections_import_validate_failure');
    expect(res.body.data.collections.message).toMatch(/^Data validations failed for collection "broken"/);
    expect(snapshot()).toEqual(before);

    const badIndex = await api('PUT', '/api/collections/import', { collections: [{ name: 'fine', schema: [{ name: 'x', type: 'text' }], indexes: ['CREATE INDEX i ON fine (nope)'] }] });
    expect(badIndex.body.data.collections.code).toBe('collections_import_failure');
    expect(snapshot()).toEqual(before);
  });

  it('requires a collections list', async () => {
    const res = await api('PUT', '/api/collections/import', {});
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({ collections: { code: 'validation_required', message: 'Cannot be blank.' } });
  });
});
