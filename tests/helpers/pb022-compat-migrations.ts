// A project's pb_migrations as real PocketBase 0.16–0.22 projects write them, our own minimal
// reproductions of what issue 33 found in public projects (each file says which item): written by
// hand in the style of 0.22's templates and of hand-written seed files. PocketBase 0.22 applies
// every one of them; so must Outpost, with the same schema.
export const IDS = { posts: 'posts', tags: 'tagstagstagstag', members: 'members_auth_01', legacy: 'legacy_json_001' };

const header = '/// <reference path="../pb_data/types.d.ts" />\n';

const json = (v: unknown) => JSON.stringify(v, null, 2).replace(/\n/g, '\n  ');

const field = (id: string, name: string, type: string, options: object, extra: object = {}) => ({
  system: false,
  id,
  name,
  type,
  required: false,
  presentable: false,
  unique: false,
  options,
  ...extra,
});

const created = (collection: object) => `${header}migrate((db) => {
  const collection = new Collection(${json(collection)});

  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  return dao.deleteCollection(dao.findCollectionByNameOrId(${JSON.stringify((collection as { id: string }).id)}));
})
`;

export const PROJECT: Record<string, string> = {
  // 9: an id of 5 characters; 1: a JSON field as 0.16-0.19 wrote it ({} options, no maxSize);
  // 3: a relation to a collection the next file creates, a rule through a field a later file adds,
  // a rule a later file replaces; 2: @request.auth.role where no auth collection has a role;
  // a field id shorter than 5 characters
  '1690000000_created_posts.js': created({
    id: IDS.posts,
    name: 'posts',
    type: 'base',
    system: false,
    schema: [
      field('t1', 'title', 'text', { min: null, max: null, pattern: '' }),
      field('d1data00', 'data', 'json', {}),
      field('r1tags00', 'tags', 'relation', { collectionId: IDS.tags, cascadeDelete: false, minSelect: null, maxSelect: null, displayFields: null }),
      field('r2owner0', 'owner', 'relation', { collectionId: '_pb_users_auth_', cascadeDelete: false, minSelect: null, maxSelect: 1, displayFields: null }),
    ],
    indexes: [],
    listRule: '@request.auth.role = "editor"',
    viewRule: 'status = "published"',
    createRule: null,
    updateRule: null,
    deleteRule: null,
    options: {},
  }),
  '1690000001_created_tags.js': created({
    id: IDS.tags,
    name: 'tags',
    type: 'base',
    schema: [field('n1name00', 'name', 'text', { min: null, max: null, pattern: '' })],
    listRule: '',
    viewRule: '',
    options: {},
  }),
  // 6: minPasswordLength 5
  '1690000002_created_members.js': created({
    id: IDS.members,
    name: 'members',
    type: 'auth',
    schema: [field('m1nick00', 'nick', 'text', { min: null, max: null, pattern: '' })],
    listRule: null,
    options: { allowEmailAuth: true, allowOAuth2Auth: false, allowUsernameAuth: true, exceptEmailDomains: null, manageRule: null, minPasswordLength: 5, onlyEmailDomains: null, onlyVerified: false, requireEmail: false },
  }),
  // 1 (a JSON field that keeps maxSize 0: 0.22 then refuses every value)
  '1690000003_created_legacy.js': created({
    id: IDS.legacy,
    name: 'legacy',
    type: 'base',
    schema: [field('l1meta00', 'meta', 'json', {}), field('l2name00', 'name', 'text', {})],
    listRule: '',
    viewRule: '',
    createRule: '',
    options: {},
  }),
  // 3: a field added, a size given, a relation moved to another collection, a rule replaced
  '1690000004_updated_posts.js': `${header}migrate((db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId("posts")

  collection.listRule = "@request.auth.id != \\"\\""

  // add
  collection.schema.addField(new SchemaField({
    "system": false,
    "id": "s1status",
    "name": "status",
    "type": "select",
    "required": false,
    "presentable": false,
    "unique": false,
    "options": {
      "maxSelect": 1,
      "values": ["draft", "published"]
    }
  }))

  // update
  collection.schema.addField(new SchemaField({
    "system": false,
    "id": "d1data00",
    "name": "data",
    "type": "json",
    "required": false,
    "presentable": false,
    "unique": false,
    "options": {
      "maxSize": 2000000
    }
  }))

  // update
  collection.schema.addField(new SchemaField({
    "system": false,
    "id": "r2owner0",
    "name": "owner",
    "type": "relation",
    "required": false,
    "presentable": false,
    "unique": false,
    "options": {
      "collectionId": "${IDS.members}",
      "cascadeDelete": false,
      "minSelect": null,
      "maxSelect": 1,
      "displayFields": null
    }
  }))

  return dao.saveCollection(collection)
}, (db) => {
  return null
})
`,
  // 4: a double-quoted string literal in a view query
  '1690000005_created_published.js': created({
    id: 'published_posts',
    name: 'published',
    type: 'view',
    schema: [],
    listRule: '',
    viewRule: '',
    options: { query: 'SELECT id, title, owner FROM posts WHERE status = "published" AND title != "hidden"' },
  }),
  // 8: a view SQLite only refuses when it is read (an aggregate in WHERE)
  '1690000006_created_stats.js': created({
    id: 'posts_stats_000',
    name: 'stats',
    type: 'view',
    schema: [],
    listRule: '',
    viewRule: '',
    options: { query: 'SELECT (ROW_NUMBER() OVER()) AS id, owner, COUNT(id) AS total FROM posts WHERE COUNT(id) > 0 GROUP BY owner' },
  }),
  // a view reading secret columns (0.22 saves it; Outpost saves it too and refuses to serve it)
  '1690000007_created_user_keys.js': created({
    id: 'user_keys_view0',
    name: 'user_keys',
    type: 'view',
    schema: [],
    listRule: '',
    options: { query: 'SELECT id, username, tokenKey FROM users' },
  }),
  // 5: two hand-written seed files sharing a round timestamp, run in name order (the second needs
  // the first's record); 7: Dao.findAuthRecordByEmail probed inside try/catch, and a 0.22 method
  // Outpost lacks, caught by the file
  '1700000000_seed.js': `${header}migrate((db) => {
  const dao = new Dao(db);
  let member = null;
  try {
    member = dao.findAuthRecordByEmail("members", "ann@example.com");
  } catch (e) {
    // not there yet
  }
  if (!member) {
    member = new Record(dao.findCollectionByNameOrId("members"));
    member.setEmail("ann@example.com");
    member.setUsername("ann");
    member.setPassword("12345");
    member.setVerified(true);
    dao.saveRecord(member);
  }
  try {
    dao.expandRecord(member, ["nothing"], null);
  } catch (e) {
    console.log("expand skipped");
  }
}, (db) => {})
`,
  // 4: a double-quoted string literal in raw SQL
  '1700000000_seed_posts.js': `${header}migrate((db) => {
  const dao = new Dao(db);
  const ann = dao.findAuthRecordByEmail("members", "ann@example.com");
  const post = new Record(dao.findCollectionByNameOrId("posts"), { title: "first", status: "published", owner: ann.id, data: { a: 1 } });
  dao.saveRecord(post);
  db.newQuery('UPDATE posts SET title = "renamed" WHERE title = "first"').execute();
}, (db) => {})
`,
};
