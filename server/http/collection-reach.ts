// What a scoped admin's collection may reach (issue 36: admin roles). A role that edits a
// collection's schema writes its API rules and, for a view, its query; neither may read a
// collection whose records the role does not read. A view over users, _admins or the audit trail,
// or a rule such as `@collection.secret.code ?= "x"` (then asked as a guest, one record at a
// time), would hand the admin what its role withholds. Only what the admin changes is judged: a
// collection given to the role as it stands keeps its rules and query.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { collectionLookup } from '../collections/store';
import { previewCollection } from '../collections/service';
import { forbidden } from '../core/errors';
import { checkRule } from '../query/record-resolver';
import { FilterError } from '../query/filter-ast';
import type { AdminAccess } from '../../src/lib/roles';
import { scopedAccess } from './permissions';

const RULES = ['listRule', 'viewRule', 'createRule', 'updateRule', 'deleteRule'] as const;

const refusal = (name: string, by: 'view' | 'rule') =>
  forbidden(
    by === 'view'
      ? `Your role may not read "${name}": a view may only read collections whose records your role lists.`
      : `Your role may not read "${name}": a rule may only read collections whose records your role lists.`,
  );

/** 403 when a scoped admin's create or update of a collection reaches beyond its role (nothing for full admins). */
export function requireRoleReach(ctx: AppContext, req: FastifyRequest, body: unknown, existing: Collection | null): void {
  const access = scopedAccess(req);
  if (!access) return;
  // the collection as the save would leave it (an invalid form fails here as it would there)
  const candidate = previewCollection(ctx, body, existing?.id ?? null);
  checkViewQuery(ctx, access, candidate, existing);
  checkRules(ctx, access, candidate, existing);
}

function checkViewQuery(ctx: AppContext, access: AdminAccess, candidate: Collection, existing: Collection | null): void {
  const query = candidate.options.query;
  if (candidate.type !== 'view' || typeof query !== 'string') return;
  if (existing?.type === 'view' && existing.options.query === query) return;
  const byName = ctx.collections.cached().byName;
  for (const table of ctx.collections.tablesReadBy(query)) {
    const collection = byName.get(table.toLowerCase());
    if (!collection || !access.records(collection, 'read')) throw refusal(table, 'view');
  }
}

function checkRules(ctx: AppContext, access: AdminAccess, candidate: Collection, existing: Collection | null): void {
  const base = collectionLookup(ctx);
  // the resolver turns any error into its own FilterError, so the refused name is kept aside
  let refused: string | null = null;
  const lookup = (nameOrId: string) => {
    const found = base(nameOrId);
    if (found && found.id !== candidate.id && !access.records(found, 'read')) {
      refused = found.name;
      throw new FilterError(`the role may not read ${JSON.stringify(found.name)}`);
    }
    return found;
  };
  const rules: Array<[unknown, unknown]> = RULES.map((r) => [candidate[r], existing?.[r]]);
  rules.push([candidate.options.manageRule, existing?.options.manageRule]);
  for (const [rule, before] of rules) {
    if (typeof rule !== 'string' || rule === '' || (existing && rule === before)) continue;
    try {
      checkRule(lookup, candidate, rule);
    } catch (err) {
      if (refused !== null) throw refusal(refused, 'rule');
      // a rule that does not compile has already failed the form's own validation
      if (!(err instanceof FilterError)) throw err;
    }
  }
}
