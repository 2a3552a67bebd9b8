// Filter/sort identifiers of record lists and API rules → SQL, with PocketBase 0.22's semantics
// (resolvers/record_field_resolver.go and record_field_resolve_runner.go): fields of the
// collection, relation paths joined through their targets (at most 6 deep), back-relations
// `coll_via_field`, @collection.NAME[:alias].*, @request.*, the :each/:length/:isset modifiers and
// multi-match subqueries for multi-valued paths. The collection's table is aliased as its name.
//
// Join aliases are built from the path with `.`/`:`/`@` separators, characters no collection or
// field name can hold, so two different paths can never share an alias, while the same path used
// twice reuses its join (as in PocketBase).
import type { Collection, SchemaField } from '../collections/model';
import type { FieldResolver, ResolvedField } from './field-resolver';
import { compileFilter } from './filter-compiler';
import {
  column,
  findField,
  hasSingleColumnUniqueIndex,
  isArrayable,
  isMultiple,
  jsonArrayLength,
  jsonEach,
  jsonExtract,
  systemFieldNames,
} from './record-fields';
import {
  NULL_FIELD,
  resolveStaticField,
  splitModifier,
  toUniqueStrings,
  type RequestInfo,
} from './record-request';
import { ALLOWED_IDENTIFIERS, Context, fail, leftJoin, type CollectionLookup, type Hop } from './record-resolve-context';
import { joinSql, quoteIdent as q, raw, sql, type Sql } from './sql';
import { isRelationField } from '../../src/fields/relation/field';
import { isJsonField } from '../../src/fields/json/field';

export type { RequestInfo } from './record-request';
export type { CollectionLookup } from './record-resolve-context';

export interface RecordResolverOptions {
  lookup: CollectionLookup;
  collection: Collection;
  /** null = admin / no request context: `@request.*` resolve to NULL. */
  request?: RequestInfo | null;
  /** Whether `email` of auth records matches whatever emailVisibility says. Default: admins and no request. */
  allowHiddenFields?: boolean;
}

/** Relation hops allowed in one path (0.22's maxNestedRels). */
const MAX_NESTED_RELS = 6;


/** Auth values read from the auth record itself, without joining its collection. */
const PLAIN_AUTH_FIELDS = ['id', 'collectionId', 'collectionName', 'username', 'email', 'emailVisibility', 'verified', 'created', 'updated'];

const VIA = /^(\w+)_via_(\w+)$/;

/**
 * Resolves one identifier. Walks the path twice at once: joins on the main query (whose columns
 * the ?-operators compare, one row per element) and the same joins inside a subquery correlated
 * by id, listing every element, which the plain operators require all of to match.
 */
class Runner {
  private collection: Collection;
  private alias: string;
  private readonly mmFrom: string;
  private mmAlias: string;
  private readonly mmJoins: Sql[] = [];
  private multi = false;
  /** Relation hops walked but not yet joined (see flush). */
  private pending: Hop[] = [];
  private readonly allowHidden: boolean;
  private readonly nullify: boolean;

  constructor(
    private readonly ctx: Context,
    head: string,
    options: { nullify?: boolean } = {},
  ) {
    this.collection = ctx.base;
    this.alias = ctx.base.name;
    this.mmFrom = `@mm.${ctx.base.name}`;
    this.mmAlias = this.mmFrom;
    // @request/@collection filters are the rule author's, so hidden fields are fair game there
    this.allowHidden = ctx.allowHidden || head === '@collection' || head === '@request';
    // unknown @request.* fields are NULL, not errors: the request shape is not known in advance
    this.nullify = options.nullify ?? head === '@request';
  }

  run(props: string[]): ResolvedField {
    if (props[0] === '@collection') return this.collectionField(props);
    if (props[0] === '@request') return this.requestField(props);
    return this.walk(props);
  }

  private collectionField(props: string[]): ResolvedField {
    if (props.length < 3) fail(`invalid @collection field path in ${JSON.stringify(props.join('.'))}`);
    const colon = props[1].indexOf(':');
    const nameOrId = colon < 0 ? props[1] : props[1].slice(0, colon);
    const aliasName = colon < 0 ? '' : props[1].slice(colon + 1);
    const target =
      this.ctx.load(nameOrId) ??
      fail(`failed to load collection ${JSON.stringify(props[1])} from field path ${JSON.stringify(props.join('.'))}`);
    this.collection = target;
    this.alias = aliasName ? `@collection:${aliasName}` : `@collection.${target.name}`;
    this.multi = true;
    this.ctx.join(this.alias, leftJoin(q(target.name), this.alias));
    this.mmAlias = `@mm${this.alias}`;
    this.mmJoins.push(leftJoin(q(target.name), this.mmAlias));
    return this.walk(props.slice(2));
  }

  private requestField(props: string[]): ResolvedField {
    const { request, tree, base } = this.ctx;
    // without a request (a rule being checked) every @request.* path is NULL, as 0.22's resolver
    // answers: a rule may name auth fields that no auth collection has yet
    if (!request || !tree) return NULL_FIELD;
    if (props[1] === 'auth') return this.authField(request, props);
    if (props[1] === 'data' && props.length > 2) {
      const { name, modifier } = splitModifier(props[2]);
      const field = findField(base, name);
      if (isRelationField(field) && props.length > 3) return this.dataRelation(request, field, props.slice(3));
      if (field && isArrayable(field) && props.length === 3) {
        if (modifier === 'each') return this.dataEach(request, field);
        if (modifier === 'length') return raw(String(toUniqueStrings(request.data?.[field.name]).length));
      }
    }
    return resolveStaticField(tree, base, props.slice(1));
  }

  private authField(request: RequestInfo, props: string[]): ResolvedField {
    if (props.length === 3 && PLAIN_AUTH_FIELDS.includes(props[2])) return resolveStaticField(this.ctx.tree!, this.ctx.base, props.slice(1));
    const auth = request.auth;
    const ref = auth ? String(auth.collectionId ?? auth.collectionName ?? '') : '';
    const target = ref ? this.ctx.load(ref) : undefined;
    if (!auth || !target) return NULL_FIELD;
    this.collection = target;
    this.alias = '@request.auth';
    this.ctx.join(this.alias, leftJoin(q(target.name), this.alias, sql`${raw(column(this.alias, 'id'))} = ${{ sql: '?', params: [auth.id] }}`));
    this.mmAlias = `@mm${this.alias}`;
    this.mmJoins.push(leftJoin(q(target.name), this.mmAlias, sql`${raw(column(this.mmAlias, 'id'))} = ${{ sql: '?', params: [auth.id] }}`));
    return this.walk(props.slice(2));
  }

  /** `@request.data.rel.x`: the submitted ids joined from the relation's target. */
  private dataRelation(request: RequestInfo, field: SchemaField, rest: string[]): ResolvedField {
    const target =
      this.ctx.load(String(field.options?.collectionId ?? '')) ??
      fail(`failed to load collection ${JSON.stringify(field.options?.collectionId)} from data field ${JSON.stringify(field.name)}`);
    const ids = toUniqueStrings(request.data?.[field.name]);
    if (ids.length === 0) return NULL_FIELD;
    const inIds = (alias: string): Sql => ({ sql: `${column(alias, 'id')} IN (${ids.map(() => '?').join(', ')})`, params: ids });
    this.collection = target;
    this.alias = `@request.data.${field.name}`;
    this.ctx.join(this.alias, leftJoin(q(target.name), this.alias, inIds(this.alias)));
    if (isMultiple(field)) this.multi = true;
    this.mmAlias = `@mm${this.alias}`;
    this.mmJoins.push(leftJoin(q(target.name), this.mmAlias, inIds(this.mmAlias)));
    return this.walk(rest);
  }

  /** `@request.data.field:each`: the submitted values as rows. */
  private dataEach(request: RequestInfo, field: SchemaField): ResolvedField {
    const values = JSON.stringify(toUniqueStrings(request.data?.[field.name]));
    const alias = `@request.data.${field.name}:each`;
    this.ctx.join(alias, { sql: `LEFT JOIN json_each(?) ${q(alias)}`, params: [values] });
    if (isMultiple(field)) this.multi = true;
    const mmAlias = `@mm${alias}`;
    this.mmJoins.push({ sql: `LEFT JOIN json_each(?) ${q(mmAlias)}`, params: [values] });
    return this.result(`${q(alias)}.value`, `${q(mmAlias)}.value`);
  }

  /** Record fields from the active collection on: relations and back-relations, then the last prop. */
  walk(props: string[]): ResolvedField {
    for (let i = 0; i < props.length; i++) {
      const prop = props[i];
      if (i === props.length - 1) {
        this.flush();
        return this.lastProp(prop);
      }

      const field = findField(this.collection, prop);
      if (isJsonField(field)) {
        this.flush();
        // the rest of the path is a path inside the json value
        const path = props.slice(i + 1);
        return {
          ...this.result(jsonExtract(column(this.alias, prop), path), jsonExtract(column(this.mmAlias, prop), path)),
          noCoalesce: true,
        };
      }
      if (i >= MAX_NESTED_RELS) fail(`max nested relations reached for field ${JSON.stringify(prop)}`);
      if (!field) {
        const missing = this.backRelation(prop);
        if (missing) return missing;
        continue;
      }
      if (!isRelationField(field)) fail(`field ${JSON.stringify(prop)} is not a valid relation`);
      this.relation(field);
    }
    return fail(`failed to resolve field ${JSON.stringify(props.join('.'))}`);
  }

  private lastProp(prop: string): ResolvedField {
    if (systemFieldNames(this.collection).includes(prop)) {
      const res = this.result(column(this.alias, prop), column(this.mmAlias, prop));
      if (prop === 'email' && !this.allowHidden) {
        // only auth records that made their email public may match on it
        const visible = raw(`${column(this.alias, 'emailVisibility')} = TRUE`);
        res.afterBuild = (expr) => sql`(${expr} AND ${visible})`;
      }
      return res;
    }

    const { name, modifier } = splitModifier(prop);
    const field = findField(this.collection, name);
    if (!field) return this.nullify ? NULL_FIELD : fail(`unknown field ${JSON.stringify(name)}`);
    const col = column(this.alias, field.name);
    const mmCol = column(this.mmAlias, field.name);

    if (modifier === 'length' && isArrayable(field)) return this.result(jsonArrayLength(col), jsonArrayLength(mmCol));
    if (modifier === 'each' && isArrayable(field)) {
      const je = `${this.alias}.${field.name}:each`;
      this.ctx.join(je, leftJoin(jsonEach(col), je));
      if (isMultiple(field)) this.multi = true;
      const mmJe = `${this.mmAlias}.${field.name}:each`;
      if (this.multi) this.mmJoins.push(leftJoin(jsonEach(mmCol), mmJe));
      return this.result(`${q(je)}.value`, `${q(mmJe)}.value`);
    }
    if (isJsonField(field)) {
      // json_extract so top-level primitives compare like their SQL equivalents
      return { ...this.result(jsonExtract(col, []), jsonExtract(mmCol, [])), noCoalesce: true };
    }
    // other modifiers on other fields are ignored, as in PocketBase
    return this.result(col, mmCol);
  }

  private relation(field: SchemaField): void {
    const target =
      this.ctx.load(String(field.options?.collectionId ?? '')) ?? fail(`failed to load field ${JSON.stringify(field.name)} collection`);
    const multiple = isMultiple(field);
    const owner = this.collection;
    this.pending.push({
      name: field.name,
      target,
      // a multiple relation fans out through json_each first
      joins: (from, to) => {
        if (!multiple) return [[to, leftJoin(q(target.name), to, raw(`${column(to, 'id')} = ${column(from, field.name)}`))]];
        const je = `${from}.${field.name}:each`;
        return [
          [je, leftJoin(jsonEach(column(from, field.name)), je)],
          [to, leftJoin(q(target.name), to, raw(`${column(to, 'id')} = ${q(je)}.value`))],
        ];
      },
      step: (set, n) => {
        const [p, t, j] = [`@p${n}`, `@t${n}`, `@j${n}`];
        const from = `json_each(${set}) ${q(p)} LEFT JOIN ${q(owner.name)} ${q(t)} ON ${column(t, 'id')} = ${q(p)}.value`;
        return multiple
          ? `(SELECT json_group_array(DISTINCT ${q(j)}.value) FROM ${from} LEFT JOIN ${jsonEach(column(t, field.name))} ${q(j)})`
          : `(SELECT json_group_array(DISTINCT ${column(t, field.name)}) FROM ${from})`;
      },
    });
    if (multiple) this.multi = true;
    this.collection = target;
  }

  /** `coll_via_field`: records of `coll` whose relation `field` points at the active record. */
  private backRelation(prop: string): ResolvedField | null {
    const m = VIA.exec(prop);
    if (!m) return this.nullify ? NULL_FIELD : fail(`failed to resolve field ${JSON.stringify(prop)}`);
    const back = this.ctx.load(m[1]);
    if (!back) return this.nullify ? NULL_FIELD : fail(`failed to load back relation field ${JSON.stringify(prop)} collection`);
    const backField = findField(back, m[2]);
    if (!backField) return this.nullify ? NULL_FIELD : fail(`missing back relation field ${JSON.stringify(m[2])}`);
    if (!isRelationField(backField)) fail(`invalid back relation field ${JSON.stringify(m[2])}`);
    if (backField.options?.collectionId !== this.collection.id) {
      fail(`invalid back relation field ${JSON.stringify(backField.name)} collection reference`);
    }
    // a single relation without a unique index can still be pointed at by many records
    const multiple = isMultiple(backField) || !hasSingleColumnUniqueIndex(backField.name, back.indexes ?? []);
    const pointsAt = (id: string, to: string): string =>
      multiple
        ? `${id} IN (SELECT ${q(`${to}:each`)}.value FROM ${jsonEach(column(to, backField.name))} ${q(`${to}:each`)})`
        : `${column(to, backField.name)} = ${id}`;
    this.pending.push({
      name: prop,
      target: back,
      joins: (from, to) => [[to, leftJoin(q(back.name), to, raw(pointsAt(column(from, 'id'), to)))]],
      step: (set, n) => {
        const [p, b] = [`@p${n}`, `@b${n}`];
        return `(SELECT json_group_array(DISTINCT ${column(b, 'id')}) FROM json_each(${set}) ${q(p)} LEFT JOIN ${q(back.name)} ${q(b)} ON ${pointsAt(`${q(p)}.value`, b)})`;
      },
    });
    if (multiple) this.multi = true;
    this.collection = back;
    return null;
  }

  /**
   * Joins the pending hops. One hop joins as PocketBase does (one row per related record). Two or
   * more join only the records reached at the end, computed hop by hop as a de-duplicated set
   * (a correlated subquery), so a deep path costs the sum of the hop sizes rather than their
   * product (`rel.rel.rel.rel.rel.rel.x` over 60 linked records: milliseconds instead of minutes).
   * Dead ends stay as NULL rows, as in the joined form. Intermediate records of such a path are not
   * shared with other identifiers of the filter (the one departure from PocketBase's joins).
   */
  private flush(): void {
    const hops = this.pending.splice(0);
    if (hops.length === 0) return;
    const suffix = hops.map((h) => h.name).join('.');
    const target = hops[hops.length - 1].target;
    const joins = (from: string, to: string): [string, Sql][] => {
      if (hops.length === 1) return hops[0].joins(from, to);
      let set = `json_array(${column(from, 'id')})`;
      hops.forEach((h, i) => (set = h.step(set, i + 1)));
      const setAlias = `${to}:set`;
      return [
        [setAlias, raw(`LEFT JOIN json_each(${set}) ${q(setAlias)}`)],
        [to, leftJoin(q(target.name), to, raw(`${column(to, 'id')} = ${q(setAlias)}.value`))],
      ];
    };
    const next = `${this.alias}.${suffix}`;
    const mmNext = `${this.mmAlias}.${suffix}`;
    for (const [alias, clause] of joins(this.alias, next)) this.ctx.join(alias, clause);
    for (const [, clause] of joins(this.mmAlias, mmNext)) this.mmJoins.push(clause);
    this.alias = next;
    this.mmAlias = mmNext;
  }

  /** The main-query expression, plus the multi-match subquery when the path fans out. */
  private result(expr: string, mmValue: string): ResolvedField {
    const res: ResolvedField = { sql: expr, params: [] };
    if (this.multi) {
      const joins = joinSql(this.mmJoins, ' ');
      res.multiMatch = {
        sql:
          `SELECT ${mmValue} AS multiMatchValue FROM ${q(this.ctx.base.name)} ${q(this.mmFrom)}` +
          (joins.sql ? ` ${joins.sql}` : '') +
          ` WHERE ${column(this.mmFrom, 'id')} = ${column(this.ctx.base.name, 'id')}`,
        params: joins.params,
      };
    }
    return res;
  }
}

function resolveIdentifier(ctx: Context, name: string): ResolvedField {
  if (!ALLOWED_IDENTIFIERS.some((re) => re.test(name))) fail(`failed to resolve field ${JSON.stringify(name)}`);
  const props = name.split('.');
  return new Runner(ctx, props[0]).run(props);
}

/** The FieldResolver for list filters, sort and rules of `collection`'s records. */
export function createRecordResolver(opts: RecordResolverOptions): FieldResolver {
  const request = opts.request ?? null;
  const ctx = new Context(opts.collection, opts.lookup, request, opts.allowHiddenFields ?? (!request || request.isAdmin));
  return {
    resolve: (identifier) => resolveIdentifier(ctx, identifier),
    joins: () => [...ctx.joins.values()],
  };
}

/**
 * Compiles `rule` against `collection` (as saved: fields, relations, back-relations, @request.*,
 * @collection.*, modifiers, macros) and throws a FilterError naming the problem when it cannot
 * be compiled. '' (everyone) is valid; null rules are the caller's business.
 */
export function checkRule(lookup: CollectionLookup, collection: Collection, rule: string): void {
  if (rule === '') return;
  const ctx = new Context(collection, lookup, null, true);
  compileFilter(rule, { resolve: (identifier) => resolveIdentifier(ctx, identifier) });
}
