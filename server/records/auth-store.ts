// Auth records as the auth flows need them: raw rows by id / email / username, the few updates
// the flows make (password, tokenKey, verified, email, the "last sent" stamps), the auth options
// of a collection read over 0.22's defaults, and rule checks against one record (CanAccessRecord).
//
// Serialisation, rule compilation and row reads come from the records module (records/*.ts).
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { findCollection } from '../collections/store';
import { nowDateTime } from '../db/layout';
import type { RequestInfo } from '../query/record-resolver';
import { recordFromRow } from './model';
import { compileRule } from './rules';
import { publicValues } from './serialize';
import { findRowById } from './store';

/** A raw row of an auth collection table (every column, passwordHash and tokenKey included). */
export type AuthRow = Record<string, unknown> & { id: string; tokenKey: string; passwordHash: string };

export interface AuthOptionsResolved {
  allowEmailAuth: boolean;
  allowOAuth2Auth: boolean;
  allowUsernameAuth: boolean;
  exceptEmailDomains: string[];
  onlyEmailDomains: string[];
  manageRule: string | null;
  minPasswordLength: number;
  onlyVerified: boolean;
  requireEmail: boolean;
}

/** An auth collection's options; a missing option is off (0.22 decodes into a zero struct). */
export function authOptions(collection: Collection): AuthOptionsResolved {
  const o = (collection.options ?? {}) as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    allowEmailAuth: o.allowEmailAuth === true,
    allowOAuth2Auth: o.allowOAuth2Auth === true,
    allowUsernameAuth: o.allowUsernameAuth === true,
    exceptEmailDomains: list(o.exceptEmailDomains),
    onlyEmailDomains: list(o.onlyEmailDomains),
    manageRule: typeof o.manageRule === 'string' ? o.manageRule : null,
    minPasswordLength: typeof o.minPasswordLength === 'number' && Number.isFinite(o.minPasswordLength) ? o.minPasswordLength : 0,
    onlyVerified: o.onlyVerified === true,
    requireEmail: o.requireEmail === true,
  };
}

function asRow(row: unknown): AuthRow | null {
  if (!row || typeof row !== 'object') return null;
  const r = row as Record<string, unknown>;
  return { ...r, id: String(r.id), tokenKey: String(r.tokenKey ?? ''), passwordHash: String(r.passwordHash ?? '') } as AuthRow;
}

export function findAuthRowById(ctx: AppContext, collection: Collection, id: string): AuthRow | null {
  if (collection.type !== 'auth' || !id) return null;
  return asRow(findRowById(ctx, collection, id));
}

/** Email look-up is exact (case-sensitive), as 0.22's FindAuthRecordByEmail. */
export function findAuthRowByEmail(ctx: AppContext, collection: Collection, email: string): AuthRow | null {
  if (collection.type !== 'auth' || !email) return null;
  return asRow(ctx.records.findBy(collection, 'email', email));
}

/** Username look-up ignores case, as 0.22's FindAuthRecordByUsername (LOWER(username) = lower(input)). */
export function findAuthRowByUsername(ctx: AppContext, collection: Collection, username: string): AuthRow | null {
  if (collection.type !== 'auth' || !username) return null;
  return asRow(ctx.records.findBy(collection, 'username', username.toLowerCase(), true));
}

/** Whether another record of the collection already uses `email` (exact match, like IsRecordValueUnique). */
export function isEmailTaken(ctx: AppContext, collection: Collection, email: string, exceptId = ''): boolean {
  return !ctx.records.isValueUnique(collection, 'email', email, exceptId);
}

/** Columns the auth flows may change; every update also bumps `updated`. */
export type AuthRowChanges = Partial<
  Pick<AuthRow, 'tokenKey' | 'passwordHash'> & {
    email: string;
    verified: boolean;
    lastResetSentAt: string;
    lastVerificationSentAt: string;
  }
>;

const CHANGEABLE = ['tokenKey', 'passwordHash', 'email', 'verified', 'lastResetSentAt', 'lastVerificationSentAt'] as const;

/** Applies `changes` to one auth row; returns the fresh row (null when it vanished). */
export function updateAuthRow(ctx: AppContext, collection: Collection, id: string, changes: AuthRowChanges): AuthRow | null {
  const sets: Array<[string, unknown]> = [];
  for (const key of CHANGEABLE) {
    if (!(key in changes)) continue;
    const value = changes[key];
    sets.push([key, typeof value === 'boolean' ? (value ? 1 : 0) : value]);
  }
  sets.push(['updated', nowDateTime()]);
  ctx.records.updateColumns(collection, id, sets);
  return findAuthRowById(ctx, collection, id);
}

/** The auth collection a token's claims point at (by id), or null for anything else. */
export function findAuthCollection(ctx: AppContext, nameOrId: string): Collection | null {
  const collection = findCollection(ctx, nameOrId);
  return collection && collection.type === 'auth' ? collection : null;
}

// ---------------------------------------------------------------------------------------------
// Serialisation and rules: the records module's (records/serialize.ts, records/rules.ts)

/** The `@request.auth` value for an auth row (public values plus email, collectionId/Name). */
export function ruleAuthOf(collection: Collection, row: Record<string, unknown>): Record<string, unknown> {
  return { ...publicValues(recordFromRow(collection, row), true), collectionId: collection.id, collectionName: collection.name };
}

/**
 * Whether the request may access record `recordId` of `collection` under `rule` (0.22's
 * Dao.CanAccessRecord): null = admins only, '' = everyone, otherwise the rule (hidden fields
 * allowed, as there) must match the record. A rule that fails to compile denies, never a 500.
 */
export function canAccessRecord(
  ctx: AppContext,
  collection: Collection,
  recordId: unknown,
  rule: string | null,
  request: RequestInfo,
): boolean {
  if (request.isAdmin) return true;
  if (rule === null) return false;
  if (rule.trim() === '') return true;
  try {
    return ctx.records.matches(collection, recordId, compileRule(ctx, collection, rule, request, true));
  } catch (err) {
    console.error(`[auth] rule check on ${collection.name} failed:`, err instanceof Error ? err.message : err);
    return false;
  }
}
