// Migration files as PocketBase 0.22's migratecmd writes them, written out by hand from
// plugins/migratecmd/templates.go (the types directive, Go's MarshalIndent with a two-space prefix,
// %q ids, the diff template's blank lines), so tests run what 0.22 itself would have produced.
export const POSTS_ID = 'p0sts0000000001';

const TITLE_200 = `{
    "system": false,
    "id": "f1title0",
    "name": "title",
    "type": "text",
    "required": true,
    "presentable": false,
    "unique": false,
    "options": {
      "min": null,
      "max": 200,
      "pattern": ""
    }
  }`;

/** `<ts>_created_posts.js`: jsCreateTemplate. */
export const CREATED_POSTS = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const collection = new Collection({
    "id": "${POSTS_ID}",
    "created": "2024-05-01 10:00:00.000Z",
    "updated": "2024-05-01 10:00:00.000Z",
    "name": "posts",
    "type": "base",
    "system": false,
    "schema": [
      {
        "system": false,
        "id": "f1title0",
        "name": "title",
        "type": "text",
        "required": true,
        "presentable": false,
        "unique": false,
        "options": {
          "min": null,
          "max": 200,
          "pattern": ""
        }
      },
      {
        "system": false,
        "id": "f2author",
        "name": "author",
        "type": "relation",
        "required": false,
        "presentable": false,
        "unique": false,
        "options": {
          "collectionId": "_pb_users_auth_",
          "cascadeDelete": false,
          "minSelect": null,
          "maxSelect": 1,
          "displayFields": null
        }
      }
    ],
    "indexes": [
      "CREATE INDEX \`idx_posts_title\` ON \`posts\` (\`title\`)"
    ],
    "listRule": null,
    "viewRule": null,
    "createRule": null,
    "updateRule": null,
    "deleteRule": null,
    "options": {}
  });

  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId("${POSTS_ID}");

  return dao.deleteCollection(collection);
})
`;

/** `<ts>_updated_posts.js`: jsDiffTemplate (two rules, a field added, a field changed). */
export const UPDATED_POSTS = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId("${POSTS_ID}")

  collection.listRule = ""
  collection.viewRule = "title != \\"\\""

  // add
  collection.schema.addField(new SchemaField({
    "system": false,
    "id": "f3views0",
    "name": "views",
    "type": "number",
    "required": false,
    "presentable": false,
    "unique": false,
    "options": {
      "min": null,
      "max": null,
      "noDecimal": true
    }
  }))

  // update
  collection.schema.addField(new SchemaField({
    "system": false,
    "id": "f1title0",
    "name": "title",
    "type": "text",
    "required": true,
    "presentable": true,
    "unique": false,
    "options": {
      "min": null,
      "max": 300,
      "pattern": ""
    }
  }))

  return dao.saveCollection(collection)
}, (db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId("${POSTS_ID}")

  collection.listRule = null
  collection.viewRule = null

  // remove
  collection.schema.removeField("f3views0")

  // update
  collection.schema.addField(new SchemaField(${TITLE_200}))

  return dao.saveCollection(collection)
})
`;

const TMP_JSON = `{
    "id": "tmp000000000001",
    "created": "2024-05-01 10:00:00.000Z",
    "updated": "2024-05-01 10:00:00.000Z",
    "name": "tmp",
    "type": "base",
    "system": false,
    "schema": [
      {
        "system": false,
        "id": "tmpnote0",
        "name": "note",
        "type": "text",
        "required": false,
        "presentable": false,
        "unique": false,
        "options": {
          "min": null,
          "max": null,
          "pattern": ""
        }
      }
    ],
    "indexes": [],
    "listRule": null,
    "viewRule": null,
    "createRule": null,
    "updateRule": null,
    "deleteRule": null,
    "options": {}
  }`;

/** `<ts>_created_tmp.js` then `<ts>_deleted_tmp.js`: jsCreateTemplate and jsDeleteTemplate. */
export const CREATED_TMP = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const collection = new Collection(${TMP_JSON});

  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId("tmp000000000001");

  return dao.deleteCollection(collection);
})
`;

export const DELETED_TMP = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId("tmp000000000001");

  return dao.deleteCollection(collection);
}, (db) => {
  const collection = new Collection(${TMP_JSON});

  return Dao(db).saveCollection(collection);
})
`;

/** The blank template filled in by hand: records, finders, settings, an admin, raw SQL, \`$app.dao()\`. */
export const SEED = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const dao = new Dao(db);

  const posts = dao.findCollectionByNameOrId("posts");
  const record = new Record(posts, { "title": "Hello from a migration" });
  dao.saveRecord(record);

  const again = dao.findRecordById("posts", record.id);
  again.set("views", 7);
  dao.saveRecord(again);

  db.newQuery("UPDATE {{posts}} SET [[views]] = [[views]] + {:n} WHERE [[id]] = {:id}").bind({ "n": 1, "id": record.id }).execute();

  const found = dao.findRecordsByFilter("posts", "title ~ {:q} && views >= {:min}", "-created", 10, 0, { "q": "Hello", "min": 8 });
  if (found.length !== 1 || found[0].getInt("views") !== 8) throw new Error("findRecordsByFilter: " + JSON.stringify(found));
  if (dao.findFirstRecordByFilter("posts", "id = {:id}", { "id": record.id }).getString("title") !== "Hello from a migration") throw new Error("findFirstRecordByFilter");
  if (dao.findRecordsByIds("posts", [record.id, "missing"]).length !== 1) throw new Error("findRecordsByIds");

  const settings = dao.findSettings();
  settings.meta.appName = "Migrated app";
  dao.saveSettings(settings);

  const admin = new Admin();
  admin.email = "migrated@example.com";
  admin.setPassword("migrated-pass-123");
  dao.saveAdmin(admin);

  const collection = $app.dao().findCollectionByNameOrId("posts");
  if (!collection.schema.getFieldById("f3views0")) throw new Error("the views field is missing");
}, (db) => {
  const dao = new Dao(db);
  dao.deleteAdmin(dao.findAdminByEmail("migrated@example.com"));
})
`;

/** \`migrate collections\` on a fresh 0.22 project with one extra collection: jsSnapshotTemplate. */
export const SNAPSHOT = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const snapshot = [
    {
      "id": "_pb_users_auth_",
      "created": "2024-05-01 09:00:00.000Z",
      "updated": "2024-05-01 09:00:00.000Z",
      "name": "users",
      "type": "auth",
      "system": false,
      "schema": [
        {
          "system": false,
          "id": "users_name",
          "name": "name",
          "type": "text",
          "required": false,
          "presentable": false,
          "unique": false,
          "options": {
            "min": null,
            "max": null,
            "pattern": ""
          }
        }
      ],
      "indexes": [],
      "listRule": "id = @request.auth.id",
      "viewRule": "id = @request.auth.id",
      "createRule": "",
      "updateRule": "id = @request.auth.id",
      "deleteRule": "id = @request.auth.id",
      "options": {
        "allowEmailAuth": true,
        "allowOAuth2Auth": true,
        "allowUsernameAuth": true,
        "exceptEmailDomains": null,
        "manageRule": null,
        "minPasswordLength": 8,
        "onlyEmailDomains": null,
        "onlyVerified": false,
        "requireEmail": false
      }
    },
    {
      "id": "n0tes0000000001",
      "created": "2024-05-01 10:00:00.000Z",
      "updated": "2024-05-01 10:00:00.000Z",
      "name": "notes",
      "type": "base",
      "system": false,
      "schema": [
        {
          "system": false,
          "id": "notebody",
          "name": "body",
          "type": "editor",
          "required": false,
          "presentable": false,
          "unique": false,
          "options": {
            "convertUrls": false
          }
        },
        {
          "system": false,
          "id": "noteownr",
          "name": "owner",
          "type": "relation",
          "required": false,
          "presentable": false,
          "unique": false,
          "options": {
            "collectionId": "_pb_users_auth_",
            "cascadeDelete": true,
            "minSelect": null,
            "maxSelect": 1,
            "displayFields": null
          }
        }
      ],
      "indexes": [],
      "listRule": "owner = @request.auth.id",
      "viewRule": null,
      "createRule": null,
      "updateRule": null,
      "deleteRule": null,
      "options": {}
    }
  ];

  const collections = snapshot.map((item) => new Collection(item));

  return Dao(db).importCollections(collections, true, null);
}, (db) => {
  return null;
})
`;
