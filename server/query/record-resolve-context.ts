// The state one filter's identifiers share while they resolve (./record-resolver.ts): the
// collections loaded so far, the joins registered by alias, the request's static values; plus the
// hop and join helpers the path walker builds on.
import type { Collection } from '../collections/model';
import { FilterError } from './filter-ast';
import { staticRequestInfo, type RequestInfo } from './record-request';
import { quoteIdent as q, raw, sql, type Sql } from './sql';

/**
 * Finds a collection by id or (case-insensitive) name. When it also carries `all()`, rule checks
 * validate `@request.auth.<field>` against the fields of every auth collection; without it such
 * fields are accepted as PocketBase accepts them.
 */
export type CollectionLookup = ((nameOrId: string) => Collection | undefined) & { all?: () => Collection[] };

/** The identifier shapes a filter may use (anything else is refused before resolving). */
export const ALLOWED_IDENTIFIERS = [
  /^\w+[\w.:]*$/,
  /^@request\.context$/,
  /^@request\.method$/,
  /^@request\.auth\.[\w.:]*\w$/,
  /^@request\.data\.[\w.:]*\w$/,
  /^@request\.query\.[\w.:]*\w$/,
  /^@request\.headers\.\w+$/,
  /^@collection\.\w+(:\w+)?\.[\w.:]*\w$/,
];

/** One relation or back-relation step of a path, joined later by Runner.flush. */
export interface Hop {
  /** The path segment (field name or `coll_via_field`). */
  name: string;
  target: Collection;
  /** The joins of this hop alone, from alias `from` to alias `to` (PocketBase's). */
  joins(from: string, to: string): [string, Sql][];
  /** SQL for the JSON array of record ids one hop away from the ids in the JSON array `set`. */
  step(set: string, n: number): string;
}

export const fail = (message: string): never => {
  throw new FilterError(message);
};

/** State shared by all identifiers of one filter: loaded collections and registered joins. */
export class Context {
  readonly joins = new Map<string, Sql>();
  readonly tree: Record<string, unknown> | null;
  private readonly loaded: Collection[];

  constructor(
    readonly base: Collection,
    readonly lookup: CollectionLookup,
    readonly request: RequestInfo | null,
    readonly allowHidden: boolean,
  ) {
    // the base collection first: a collection being created or edited is not (yet) what lookup knows
    this.loaded = [base];
    this.tree = request ? staticRequestInfo(request) : null;
  }

  load(nameOrId: string): Collection | undefined {
    const lower = nameOrId.toLowerCase();
    const known = this.loaded.find((c) => c.id === nameOrId || c.name.toLowerCase() === lower);
    if (known) return known;
    const found = this.lookup(nameOrId);
    // a scoped admin's filter or sort may not reach (relation, back-relation, @collection.*) into
    // a collection its role does not read: comparing through it would reveal its values
    if (found && this.request?.adminReads && !this.request.adminReads(found)) fail(`your role may not read the collection ${JSON.stringify(found.name)}`);
    if (found) this.loaded.push(found);
    return found;
  }

  /** Same alias → same join, replaced in place (PocketBase's registerJoin). */
  join(alias: string, clause: Sql): void {
    this.joins.set(alias, clause);
  }
}

export const leftJoin = (table: string, alias: string, on?: Sql): Sql =>
  on ? sql`LEFT JOIN ${raw(`${table} ${q(alias)}`)} ON ${on}` : raw(`LEFT JOIN ${table} ${q(alias)}`);
