// `Dao(db)` / `new Dao(db)` / `$app.dao()` of 0.22's JS migrations, over the server's own domain
// services, all inside the runner's transaction. As 0.22's Dao it saves without the API's
// validation (collections in 'dao' mode, records unchecked). Its methods are split by what they
// act on (./js-dao-*.ts); a 0.22 method Outpost does not offer throws an error naming it, which
// the file may catch (./js-unsupported.ts).
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { saveCollection, deleteCollection } from '../collections/service';
import { importCollections } from '../collections/import';
import { getCollections } from '../collections/store';
import { collectionJson } from '../collections/normalize';
import type { Collection as StoredCollection } from '../collections/model';
import type { RecordModel } from '../records/model';
import { Admin, Collection, JsRecord } from './js-models';
import { createDbBuilder } from './js-db';
import { strict, unsupported } from './js-unsupported';
import { collectionOf, fail, toCollection } from './js-dao-shared';
import { recordMethods } from './js-dao-records';
import { adminMethods } from './js-dao-admins';
import { tableMethods } from './js-dao-tables';

export interface Dao {
  [key: string]: unknown;
}

function collectionMethods(ctx: AppContext): Record<string, unknown> {
  return {
    findCollectionByNameOrId: (nameOrId: string) => toCollection(collectionOf(ctx, nameOrId)),
    findCollectionsByType: (type: string) => getCollections(ctx).filter((c) => c.type === type).map(toCollection),
    isCollectionNameUnique: (name: string, ...excludeIds: string[]) =>
      !getCollections(ctx).some((c) => c.name.toLowerCase() === String(name).toLowerCase() && !excludeIds.includes(c.id)),
    saveCollection(c: unknown) {
      if (!(c instanceof Collection)) throw new Error('saveCollection expects a Collection');
      let saved: StoredCollection;
      try {
        saved = saveCollection(ctx, c.toJSON(), c.isNew() ? null : c.id, 'dao');
      } catch (err) {
        throw fail(`saveCollection(${JSON.stringify(c.name)})`, err);
      }
      c.load(collectionJson(saved));
      c.markAsNotNew();
    },
    deleteCollection(c: unknown) {
      const target = collectionOf(ctx, c);
      try {
        deleteCollection(ctx, target.id);
      } catch (err) {
        throw fail(`deleteCollection(${JSON.stringify(target.name)})`, err);
      }
    },
    importCollections(list: unknown, deleteMissing: unknown, afterSync: unknown) {
      if (typeof afterSync === 'function') unsupported('Dao.importCollections with an afterSync callback');
      const items = Array.isArray(list) ? list.map((c) => (c instanceof Collection ? c.toJSON() : c)) : [];
      if (!items.length) throw new Error('No collections to import');
      try {
        importCollections(ctx, { collections: items, deleteMissing: deleteMissing === true }, 'dao');
      } catch (err) {
        throw fail('importCollections', err);
      }
    },
  };
}

/** `deleted` collects the records its deletes removed; `afterCommit` the realtime work they announced. */
export function createDao(ctx: AppContext, raw: DB, deleted: RecordModel[] = [], afterCommit?: Array<() => void>): Dao {
  const db = createDbBuilder(ctx, raw);
  const records = recordMethods(ctx, raw, deleted, afterCommit);
  const collections = collectionMethods(ctx);
  const admins = adminMethods(ctx);
  const call = (methods: Record<string, unknown>, name: string, arg: unknown) => (methods[name] as (m: unknown) => unknown)(arg);
  const dao: Dao = {
    db: () => db,
    concurrentDB: () => db,
    nonconcurrentDB: () => db,
    // a migration's Dao fires no hooks already
    withoutHooks: () => proxy,
    clone: () => proxy,
    runInTransaction: (fn: (tx: Dao) => unknown) => ctx.transaction(() => fn(proxy)),
    ...collections,
    ...records,
    ...admins,
    ...tableMethods(ctx, raw),
    /** Dao.save / Dao.delete of any model: the method of its kind. */
    save(model: unknown) {
      if (model instanceof Collection) return call(collections, 'saveCollection', model);
      if (model instanceof JsRecord) return call(records, 'saveRecord', model);
      if (model instanceof Admin) return call(admins, 'saveAdmin', model);
      return unsupported('Dao.save() of this model');
    },
    delete(model: unknown) {
      if (model instanceof Collection) return call(collections, 'deleteCollection', model);
      if (model instanceof JsRecord) return call(records, 'deleteRecord', model);
      if (model instanceof Admin) return call(admins, 'deleteAdmin', model);
      return unsupported('Dao.delete() of this model');
    },
  };
  const proxy = strict('Dao', dao);
  return proxy;
}
