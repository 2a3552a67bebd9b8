// `?expand=` (daos/record_expand.go in 0.22): relation paths with dots (at most 6 levels), several
// paths, back-relations `<collection>_via_<field>` or the soft-deprecated `<collection>(<field>)`
// (keyed as sent: `expand["comments(post)"]`); what is expanded is fetched under the target's
// viewRule (a null rule drops the path for non-admins, failing records are left out). Each level
// of each path costs a constant number of queries (one fetch, one back-relation lookup, one
// manageRule check), however many records are expanded.
import type { AppContext } from '../context';
import { QueryTimeoutError } from '../db/database';
import type { Collection, SchemaField } from '../collections/model';
import { findCollection, refusedViewReason } from '../collections/store';
import { isMultiple } from '../collections/normalize';
import { hasSingleColumnUniqueIndex, jsonEach } from '../query/record-fields';
import type { RequestInfo } from '../query/record-resolver';
import { quoteIdent as q } from '../query/sql';
import { recordFromRow, stringsOf, type RecordModel } from './model';
import { compileRule } from './rules';
import { queryCounter, readRowsByIds } from './store';
import { isRelationField } from '../../src/fields/relation/field';

const MAX_EXPAND_DEPTH = 6;
/** At most this many expand paths per request (the rest are ignored). */
const MAX_EXPAND_PATHS = 50;
/** Back-relations expand at most this many records per record. */
const MAX_BACK_RELATIONS = 1000;

export type FetchFunc = (collection: Collection, ids: string[]) => Promise<RecordModel[]>;

/**
 * Records a response may carry in its expands. Expanded records are shared between parents, but
 * the JSON repeats them under each: `rel.rel.rel.rel.rel.rel` over records linking to 8 others
 * is 8^6 records per item, minutes of serialising on the event loop.
 */
export const MAX_EXPANDED_RECORDS = 10_000;

/** How many expanded records `records` carry in total, counting stops past `cap`. */
export function countExpanded(records: RecordModel[], cap = MAX_EXPANDED_RECORDS): number {
  let count = 0;
  const stack: RecordModel[] = [...records];
  while (stack.length > 0 && count <= cap) {
    const r = stack.pop()!;
    for (const value of Object.values(r.expand ?? {})) {
      for (const child of Array.isArray(value) ? value : [value]) {
        count++;
        stack.push(child);
      }
    }
  }
  return count;
}

/** normalizeExpands: no spaces, no dangling dots, paths contained in longer ones merged. */
export function normalizeExpands(paths: string[]): string[] {
  const normalized = paths.map((p) => p.replace(/ /g, '').replace(/^\.+|\.+$/g, '')).filter((p) => p !== '');
  const result = normalized.filter((p1, i) => !normalized.some((p2, j) => i !== j && p2.startsWith(p1 + '.')));
  return [...new Set(result)].slice(0, MAX_EXPAND_PATHS);
}

/**
 * Sets `showEmail` on auth records the caller may see the email of: admins, the owner, and
 * records matching the collection's manageRule (one query for the whole batch).
 */
export async function resolveEmailVisibility(ctx: AppContext, records: RecordModel[], info: RequestInfo | null): Promise<void> {
  if (records.length === 0 || records[0].collection.type !== 'auth') return;
  if (!info || info.isAdmin) {
    if (info?.isAdmin) for (const r of records) r.showEmail = true;
    return;
  }
  const collection = records[0].collection;
  const auth = info.auth;
  if (auth) {
    for (const r of records) {
      if (String(r.data.id) === String(auth.id) && (auth.collectionId ?? collection.id) === collection.id) r.showEmail = true;
    }
  }
  const manageRule = collection.options.manageRule;
  if (typeof manageRule !== 'string' || manageRule === '' || !auth) return;
  let cond;
  try {
    cond = compileRule(ctx, collection, manageRule, info, true);
  } catch {
    return; // an uncompilable manageRule grants nothing
  }
  const rows = await readRowsByIds(ctx, collection, records.map((r) => String(r.data.id)), cond);
  const managed = new Set(rows.map((row) => String(row.id)));
  for (const r of records) if (managed.has(String(r.data.id))) r.showEmail = true;
}

/** The fetch used for API expands: the target's viewRule applies to non-admins. */
export function expandFetch(ctx: AppContext, info: RequestInfo | null): FetchFunc {
  return async (collection, ids) => {
    let cond = null;
    // a scoped admin expands only into the collections its role reads
    if (info?.adminReads && !info.adminReads(collection)) return [];
    if (info && !info.isAdmin) {
      if (collection.viewRule === null) return [];
      if (collection.viewRule !== '') {
        try {
          cond = compileRule(ctx, collection, collection.viewRule, info, true);
        } catch {
          return [];
        }
      }
    }
    const records = (await readRowsByIds(ctx, collection, ids, cond)).map((row) => recordFromRow(collection, row));
    await resolveEmailVisibility(ctx, records, info);
    return records;
  };
}

/**
 * Expands `records` (all of one collection) in place. Failing paths are skipped silently; a
 * query that outlives the request budget is not (the request fails with the clear timeout error).
 */
export async function expandRecords(ctx: AppContext, records: RecordModel[], expands: string[], fetch: FetchFunc): Promise<void> {
  if (records.length === 0) return;
  for (const path of normalizeExpands(expands)) {
    try {
      await expandPath(ctx, records, path, fetch, 1);
    } catch (err) {
      // unknown or non-relation field, unknown or unserved collection: 0.22 only logs these
      if (err instanceof QueryTimeoutError) throw err;
    }
  }
}

const VIA = /^(\w+)_via_(\w+)$/;
/** 0.22.0 renamed `<collection>(<field>)` to `_via_` but still expands the old form. */
const VIA_LEGACY = /^(\w+)\((\w+)\)$/;

/** `[collection, field]` of a back-relation segment; as in 0.22, a segment with `(` is only read as the old form. */
function backRelationOf(segment: string): [string, string] | null {
  const m = (segment.includes('(') ? VIA_LEGACY : VIA).exec(segment);
  return m ? [m[1], m[2]] : null;
}

async function expandPath(ctx: AppContext, records: RecordModel[], path: string, fetch: FetchFunc, level: number): Promise<void> {
  // 0.22 expands the first 6 levels of a longer path and ignores the rest (no failure)
  if (level > MAX_EXPAND_DEPTH || records.length === 0) return;
  const main = records[0].collection;
  const dot = path.indexOf('.');
  const name = dot < 0 ? path : path.slice(0, dot);
  const rest = dot < 0 ? '' : path.slice(dot + 1);

  let relField: Pick<SchemaField, 'name' | 'type' | 'options'> | undefined;
  let idsOf: (r: RecordModel) => string[];
  let target: Collection | undefined;

  // the back-relation forms are tried before fields, as in 0.22 (no field may match them there)
  const backRel = backRelationOf(name);
  if (backRel) {
    const [backName, backFieldName] = backRel;
    const backFound = findCollection(ctx, backName);
    const back = backFound && !refusedViewReason(ctx, backFound) ? backFound : undefined;
    const backField = back?.schema.find((f) => f.name === backFieldName);
    if (!back || !backField || !isRelationField(backField) || backField.options.collectionId !== main.id) {
      throw new Error(`invalid back relation ${name}`);
    }
    const found = await backRelationIds(ctx, back, backField, records.map((r) => String(r.data.id)));
    for (const r of records) {
      const ids = found.get(String(r.data.id));
      if (ids && ids.length) (r.via ??= {})[name] = ids;
    }
    relField = {
      name,
      type: 'relation',
      options: { collectionId: back.id, maxSelect: hasSingleColumnUniqueIndex(backField.name, back.indexes) ? 1 : null },
    };
    target = back;
    idsOf = (r) => r.via?.[name] ?? [];
  } else {
    relField = main.schema.find((f) => f.name === name);
    if (!relField || !isRelationField(relField)) throw new Error(`no relation field ${name}`);
    target = findCollection(ctx, String(relField.options.collectionId ?? ''));
    if (!target) throw new Error(`missing collection of ${name}`);
    if (refusedViewReason(ctx, target)) throw new Error(`the view ${target.name} is not served`);
    const field = relField;
    idsOf = (r) => stringsOf(r.data[field.name]);
  }

  const allIds = [...new Set(records.flatMap(idsOf))];
  if (allIds.length === 0) return;
  const rels = await fetch(target, allIds);
  if (rest) await expandPath(ctx, rels, rest, fetch, level + 1);

  const byId = new Map(rels.map((r) => [String(r.data.id), r]));
  const single = !isMultiple(relField as SchemaField);
  for (const record of records) {
    const valid = idsOf(record)
      .map((id) => byId.get(id))
      .filter((r): r is RecordModel => !!r);
    if (valid.length === 0) continue;
    const expand = (record.expand ??= {});
    const old = expand[relField.name];
    const oldList = old === undefined ? [] : Array.isArray(old) ? old : [old];
    // records expanded by an earlier path keep what that path expanded inside them
    const fresh = valid.map((rel) => {
      const prev = oldList.find((o) => o.data.id === rel.data.id);
      const copy: RecordModel = { ...rel, expand: rel.expand ? { ...rel.expand } : undefined };
      if (prev?.expand) copy.expand = { ...prev.expand, ...(copy.expand ?? {}) };
      return copy;
    });
    expand[relField.name] = single ? fresh[0] : fresh;
  }
}

/** Per main id, the ids of `back` records whose `field` points at it (one query, ≤1000 each). */
async function backRelationIds(ctx: AppContext, back: Collection, field: SchemaField, mainIds: string[]): Promise<Map<string, string[]>> {
  const table = q(back.name);
  const col = `${table}.${q(field.name)}`;
  // views have no rowid: their order is whatever the view yields
  const rowid = back.type === 'view' ? '0' : `${table}.rowid`;
  const inner = isMultiple(field)
    ? `SELECT ${table}.id AS rid, je.value AS ref, ${rowid} AS rn0 FROM ${table}, ${jsonEach(col)} je WHERE je.value IN (SELECT value FROM json_each(?))`
    : `SELECT ${table}.id AS rid, ${col} AS ref, ${rowid} AS rn0 FROM ${table} WHERE ${col} IN (SELECT value FROM json_each(?))`;
  const sql =
    `SELECT rid, ref FROM (SELECT rid, ref, rn0, ROW_NUMBER() OVER (PARTITION BY ref ORDER BY rn0) AS rn FROM (${inner})) ` +
    `WHERE rn <= ${MAX_BACK_RELATIONS} ORDER BY rn0`;
  queryCounter(ctx).queries++;
  const rows = await ctx.reads.all<{ rid: string; ref: string }>(sql, [JSON.stringify(mainIds)]);
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const list = out.get(String(row.ref)) ?? [];
    if (!list.includes(String(row.rid))) list.push(String(row.rid));
    out.set(String(row.ref), list);
  }
  return out;
}
