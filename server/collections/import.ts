// PUT /api/collections/import (PocketBase 0.22 forms/collections_import.go + daos ImportCollections):
// collections are matched by id; without deleteMissing an existing schema is extended (fields
// added or replaced by id), with it every collection and field missing from the import is
// deleted. Everything runs in one transaction and every resulting collection is validated, so
// an error anywhere leaves the database untouched. The writes are planned first (planImport: the
// model writes 0.22's Dao makes, in its order), so the API's hooks can run per write before the
// transaction (they are asynchronous, it is not) and a failing one leaves everything as it was.
import { auditImport } from '../audit/changes';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { nowDateTime } from '../db/layout';
import { ApiError } from '../core/errors';
import { newId } from '../services/passwords';
import type { Collection, CollectionType } from './model';
import { decodeCollectionOptions } from './normalize';
import { bindSchema, LOAD_FAILED } from './form';
import { deleteCollectionRow, invalidateCollections, notifyCollectionsChanged, readCollections, writeCollectionRow, writeSchema } from './store';
import { createRecordTable, createViewFor, dropRecordTable, IndexCreateError, updateRecordTable } from './sync';
import { validateCollection, type FieldDecodeIssues } from './validate';
import { REQUIRED, type ErrorTree } from './error-codes';
import { inferViewFields, lookupOver, refreshViewCollections } from './views';
import { ruleChecker, type SaveMode } from './service';
import { isObject } from '../../src/lib/json';

const IMPORT_FAILED = 'Failed to import the submitted collections.';

interface Imported {
  collection: Collection;
  fieldIssues: FieldDecodeIssues[];
  invalidOptions: string[];
}

const loadError = (detail: string) => new ApiError(400, LOAD_FAILED, {}, detail);

/** Decodes one collection of the import list the way json.Unmarshal fills a models.Collection. */
function bindImported(raw: unknown): Imported {
  if (!isObject(raw)) throw loadError('invalid collection');
  const text = (key: string): string => {
    const v = raw[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw loadError(`invalid type for "${key}"`);
    return v;
  };
  const rule = (key: string): string | null => {
    const v = raw[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw loadError(`invalid type for "${key}"`);
    return v;
  };
  if (raw.system !== undefined && raw.system !== null && typeof raw.system !== 'boolean') throw loadError('invalid type for "system"');
  if (raw.schema !== undefined && raw.schema !== null && !Array.isArray(raw.schema)) throw loadError('invalid type for "schema"');
  const indexes = raw.indexes ?? [];
  if (!Array.isArray(indexes) || !indexes.every((i) => typeof i === 'string')) throw loadError('invalid type for "indexes"');
  if (raw.options !== undefined && raw.options !== null && !isObject(raw.options)) throw loadError('invalid type for "options"');

  const type = (text('type') || 'base') as CollectionType;
  const { schema, issues } = bindSchema((raw.schema as unknown[] | null | undefined) ?? []);
  const options = decodeCollectionOptions(['auth', 'view'].includes(type) ? type : 'base', raw.options ?? {});
  return {
    collection: {
      id: text('id') || newId(),
      created: '',
      updated: '',
      name: text('name'),
      type,
      system: raw.system === true,
      schema,
      indexes: [...(indexes as string[])],
      listRule: rule('listRule'),
      viewRule: rule('viewRule'),
      createRule: rule('createRule'),
      updateRule: rule('updateRule'),
      deleteRule: rule('deleteRule'),
      options: options.options,
    },
    fieldIssues: issues,
    invalidOptions: options.invalid,
  };
}

function importFailure(code: string, message: string): ApiError {
  return new ApiError(400, IMPORT_FAILED, { collections: { code, message } });
}

/** A failed write of the import (0.22's raw error: a DDL error, a system collection, a model hook's error). */
export const importWriteFailure = (reason: string): ApiError =>
  importFailure('collections_import_failure', `Failed to import the collections configuration. Raw error:\n${reason}`);

/** ozzo encodes nested errors as their messages only. */
function messagesOf(tree: ErrorTree): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    out[key] = typeof (value as { code?: unknown }).code === 'string' ? (value as { message: string }).message : messagesOf(value as ErrorTree);
  }
  return out;
}

function validationFailure(c: Collection, errors: ErrorTree): ApiError {
  return importFailure(
    'collections_import_validate_failure',
    `Data validations failed for collection "${c.name}" (${c.id}):\n${JSON.stringify(messagesOf(errors), null, 2)}`,
  );
}

/** The bound import: its collections (the last entry wins when an id repeats) and deleteMissing. */
export interface ImportInput {
  items: Imported[];
  deleteMissing: boolean;
}

/** Reads the import body as 0.22's form binds and validates it (before any hook runs). */
export function readImport(body: unknown): ImportInput {
  if (body === undefined || body === null) body = {};
  if (!isObject(body)) throw loadError('the body is not an object');
  if (body.collections !== undefined && body.collections !== null && !Array.isArray(body.collections)) {
    throw loadError('invalid type for "collections"');
  }
  if (body.deleteMissing !== undefined && body.deleteMissing !== null && typeof body.deleteMissing !== 'boolean') {
    throw loadError('invalid type for "deleteMissing"');
  }
  const list = (body.collections as unknown[] | null | undefined) ?? [];
  if (list.length === 0) throw new ApiError(400, 'Something went wrong while processing your request.', { collections: REQUIRED });
  const byId = new Map<string, Imported>();
  for (const raw of list) {
    const item = bindImported(raw);
    byId.set(item.collection.id, item);
  }
  return { items: [...byId.values()], deleteMissing: body.deleteMissing === true };
}

/** The collections of an import as its hooks see them (0.22's e.collections). */
export const importedCollections = (input: ImportInput): Collection[] => input.items.map((i) => i.collection);

/** One model write of an import, as 0.22's Dao makes them (the model hooks fire per step). */
interface ImportStep {
  action: 'Create' | 'Update' | 'Delete';
  collection: Collection;
}

export interface ImportPlan extends ImportInput {
  mode: SaveMode;
  /**
   * The writes in 0.22's order: the deletes (oldest first), a save of each imported collection,
   * then each view's second save (with its schema from the query).
   */
  steps: ImportStep[];
  /** Set when a system collection is among the deletes: 0.22 fails there, after the deletes before it. */
  refusal: ApiError | null;
  /** Ids of collections a hook kept from being written (left as they are). */
  skipped: Set<string>;
}

/**
 * The import's writes worked out against the stored collections, nothing written: imported
 * collections get their timestamps and, without deleteMissing, the stored fields they extend.
 */
export function planImport(ctx: AppContext, input: ImportInput, mode: SaveMode = 'form'): ImportPlan {
  // 0.22 reads them by `updated`: its deletes run in that order
  const existingList = [...ctx.collections.readAll()].sort((a, b) => (a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : 0));
  const existingById = new Map(existingList.map((c) => [c.id, c]));
  const now = nowDateTime();
  const steps: ImportStep[] = [];
  let refusal: ApiError | null = null;

  if (input.deleteMissing) {
    const importedIds = new Set(input.items.map((i) => i.collection.id));
    for (const c of existingList) {
      if (importedIds.has(c.id)) continue;
      if (c.system) {
        refusal = importWriteFailure(`system collection "${c.name}" cannot be deleted`);
        break;
      }
      steps.push({ action: 'Delete', collection: c });
    }
  }

  for (const item of input.items) {
    const c = item.collection;
    const existing = existingById.get(c.id);
    c.created = existing?.created || now;
    c.updated = now;
    if (existing && !input.deleteMissing) {
      // Extend the stored schema: imported fields replace same-id fields, new ones are appended.
      const merged = existing.schema.map((f) => c.schema.find((n) => n.id === f.id) ?? f);
      const issues = merged.map((f) => item.fieldIssues[c.schema.findIndex((n) => n.id === f.id)] ?? { unknownType: false, invalidOptions: [] });
      c.schema.forEach((f, i) => {
        if (!merged.some((m) => m.id === f.id)) {
          merged.push(f);
          issues.push(item.fieldIssues[i]);
        }
      });
      c.schema = merged;
      item.fieldIssues = issues;
    }
    if (!refusal) steps.push({ action: existing ? 'Update' : 'Create', collection: c });
  }
  if (!refusal) for (const { collection: c } of input.items) if (c.type === 'view') steps.push({ action: 'Update', collection: c });
  return { ...input, mode, steps, refusal, skipped: new Set() };
}

/**
 * Replaces an imported collection with what a hook left in its place (a collection's JSON): bound
 * again; the import's validation checks it as 0.22's does after its writes.
 */
export function replaceImported(plan: ImportPlan, id: string, json: unknown): void {
  const at = plan.items.findIndex((i) => i.collection.id === id);
  if (at < 0) return;
  const item = bindImported(json);
  const { created, updated } = plan.items[at].collection;
  Object.assign(item.collection, { created, updated });
  plan.items[at] = item;
}

/** mode 'dao': a migration's Dao.importCollections, which in 0.22 validates nothing (validate.ts). */
export function importCollections(ctx: AppContext, body: unknown, mode: SaveMode = 'form'): void {
  const plan = planImport(ctx, readImport(body), mode);
  if (plan.refusal) throw plan.refusal;
  applyImportPlan(ctx, plan);
}

/** Writes the plan in one transaction: every resulting collection is validated, any error leaves the database untouched. */
export function applyImportPlan(ctx: AppContext, plan: ImportPlan): void {
  if (plan.refusal) throw plan.refusal;
  try {
    writeSchema(ctx, (db) => {
      const before = readCollections(db);
      applyImport(db, plan);
      auditImport(ctx, before, readCollections(db));
    });
  } catch (err) {
    invalidateCollections(ctx);
    throw err;
  }
  notifyCollectionsChanged(ctx, { action: 'import' });
}

function applyImport(db: DB, plan: ImportPlan): void {
  const { deleteMissing, mode, skipped } = plan;
  const imported = plan.items.filter((i) => !skipped.has(i.collection.id));
  const existingList = readCollections(db);
  const existingById = new Map(existingList.map((c) => [c.id, c]));

  // (a collection a hook kept from its write stays as it is)
  const importedIds = new Set(imported.map((i) => i.collection.id));
  const toDelete = deleteMissing ? existingList.filter((c) => !importedIds.has(c.id) && !skipped.has(c.id)) : [];
  const remaining = existingList.filter((c) => !importedIds.has(c.id) && !toDelete.includes(c));
  const finalList = [...imported.map((i) => i.collection), ...remaining];
  const lookup = lookupOver(finalList);

  for (const c of toDelete) {
    if (c.system) {
      throw importWriteFailure(`system collection "${c.name}" cannot be deleted`);
    }
  }

  const validate = (item: Imported, viewQueryError: string | null = null) => {
    const c = item.collection;
    const existing = existingById.get(c.id) ?? null;
    const errors = validateCollection({
      candidate: c,
      existing,
      others: finalList.filter((o) => o !== c),
      lookup,
      requestedId: c.id,
      fieldIssues: item.fieldIssues,
      invalidOptions: item.invalidOptions,
      viewQueryError,
      checkRule: ruleChecker(lookup, c),
      mode,
    });
    if (Object.keys(errors).length) throw validationFailure(c, errors);
  };

  const tables = imported.filter((i) => i.collection.type !== 'view');
  const views = imported.filter((i) => i.collection.type === 'view');
  for (const item of tables) validate(item);

  const ddl = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const reason = err instanceof IndexCreateError ? JSON.stringify({ indexes: messagesOf(err.errors as ErrorTree) }) : String(err instanceof Error ? err.message : err);
      throw importWriteFailure(reason);
    }
  };

  // Views first: a dropped view must not hold on to a table about to go.
  const deleteOrder = [...toDelete].sort((a, b) => Number(b.type === 'view') - Number(a.type === 'view'));
  ddl(() => {
    for (const c of deleteOrder) {
      dropRecordTable(db, c);
      deleteCollectionRow(db, c.id);
    }
    for (const { collection: c } of tables) {
      const existing = existingById.get(c.id);
      writeCollectionRow(db, c);
      if (existing) updateRecordTable(db, c, existing);
      else createRecordTable(db, c);
    }
  });

  for (const item of views) {
    const c = item.collection;
    const existing = existingById.get(c.id) ?? null;
    const inferred = inferViewFields(db, String(c.options.query ?? ''), lookup, existing?.schema ?? c.schema, mode === 'dao');
    c.schema = inferred.schema;
    item.fieldIssues = c.schema.map(() => ({ unknownType: false, invalidOptions: [] }));
    c.indexes = [];
    validate(item, inferred.error);
    ddl(() => {
      writeCollectionRow(db, c);
      createViewFor(db, c, existing, lookup, mode === 'dao');
    });
  }

  // Collections the import did not touch must still hold together (relations, rules); a Dao import
  // checks nothing of them
  for (const c of mode === 'dao' ? [] : remaining) {
    validate({ collection: c, fieldIssues: c.schema.map(() => ({ unknownType: false, invalidOptions: [] })), invalidOptions: [] });
  }
  refreshViewCollections(db);
}
