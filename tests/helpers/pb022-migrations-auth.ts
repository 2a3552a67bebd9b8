// More files in PocketBase 0.22's migration templates (see ./pb022-migrations.ts): an auth
// collection, a view over it, a rename with new auth options, and a hand-written file using them.
/** An auth collection, a view over it, the auth collection renamed with new options (jsDiffTemplate). */
export const CREATED_MEMBERS = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const collection = new Collection({
    "id": "m3mb3rs00000001",
    "created": "2024-05-01 10:00:00.000Z",
    "updated": "2024-05-01 10:00:00.000Z",
    "name": "members",
    "type": "auth",
    "system": false,
    "schema": [
      {
        "system": false,
        "id": "mnick000",
        "name": "nick",
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
  });

  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId("m3mb3rs00000001");

  return dao.deleteCollection(collection);
})
`;

export const CREATED_NICKS_VIEW = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const collection = new Collection({
    "id": "n1cksv1ew000001",
    "created": "2024-05-01 10:00:00.000Z",
    "updated": "2024-05-01 10:00:00.000Z",
    "name": "nicks",
    "type": "view",
    "system": false,
    "schema": [
      {
        "system": false,
        "id": "vnick000",
        "name": "nick",
        "type": "json",
        "required": false,
        "presentable": false,
        "unique": false,
        "options": {
          "maxSize": 1
        }
      }
    ],
    "indexes": [],
    "listRule": null,
    "viewRule": null,
    "createRule": null,
    "updateRule": null,
    "deleteRule": null,
    "options": {
      "query": "SELECT id, nick FROM members"
    }
  });

  return Dao(db).saveCollection(collection);
}, (db) => {
  const dao = new Dao(db);
  const collection = dao.findCollectionByNameOrId("n1cksv1ew000001");

  return dao.deleteCollection(collection);
})
`;

export const UPDATED_MEMBERS = `/// <reference path="../pb_data/types.d.ts" />
migrate((db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId("m3mb3rs00000001")

  collection.name = "people"
  collection.options = {
    "allowEmailAuth": true,
    "allowOAuth2Auth": false,
    "allowUsernameAuth": true,
    "exceptEmailDomains": null,
    "manageRule": null,
    "minPasswordLength": 10,
    "onlyEmailDomains": null,
    "onlyVerified": false,
    "requireEmail": true
  }

  return dao.saveCollection(collection)
}, (db) => {
  const dao = new Dao(db)
  const collection = dao.findCollectionByNameOrId("m3mb3rs00000001")

  collection.name = "members"
  collection.options = {
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

  return dao.saveCollection(collection)
})
`;

/** Records through an auth collection, `arrayOf(new DynamicModel(...))` / `.one()` over the view, findFirstRecordByData, deleteRecord. */
export const SEED_PEOPLE = `migrate((db) => {
  const dao = new Dao(db)
  const c = dao.findCollectionByNameOrId("people")
  const r = new Record(c)
  r.setEmail("a@example.com")
  r.setUsername("alice")
  r.setPassword("1234567890")
  r.set("nick", "Al")
  dao.saveRecord(r)
  const rows = arrayOf(new DynamicModel({ id: "", nick: "" }))
  db.newQuery("SELECT id, nick FROM nicks").all(rows)
  if (rows.length !== 1 || rows[0].nick !== "Al") throw new Error("view: " + JSON.stringify(rows))
  const one = new DynamicModel({ total: 0 })
  db.newQuery("SELECT count(*) AS total FROM people WHERE verified = {:v}").bind({ v: false }).one(one)
  if (one.total !== 1) throw new Error("count " + one.total)
  const found = dao.findFirstRecordByData("people", "username", "alice")
  if (!found.validatePassword("1234567890")) throw new Error("password")
  dao.deleteRecord(found)
}, (db) => {})
`;
