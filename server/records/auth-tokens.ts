// Auth record tokens read back (0.22's Dao.FindAuthRecordByToken): the unverified claims name the
// collection and record, and the signature must verify with that record's tokenKey plus the
// secret of the expected token kind. Claims without `type: authRecord` never pass (0.22 does not
// look at the type here, but every record token it signs carries it, and refusing others keeps
// an admin token from ever being read as a record one).
import type { AppContext } from '../context';
import type { Collection } from '../collections/model';
import { decodeJwtUnverified, TOKEN_TYPE_AUTH_RECORD, verifyAccountToken, type Claims, type TokenKind } from '../services/tokens';
import { findAuthCollection, findAuthRowById, type AuthRow } from './auth-store';

export interface TokenRecord {
  collection: Collection;
  row: AuthRow;
  claims: Claims;
}

type RecordTokenKind = Extract<TokenKind, `record${string}`>;

export function findAuthRecordByToken(ctx: AppContext, token: string, kind: RecordTokenKind): TokenRecord | null {
  const raw = typeof token === 'string' ? token.trim() : '';
  if (!raw) return null;
  const unverified = decodeJwtUnverified(raw);
  if (!unverified || unverified.type !== TOKEN_TYPE_AUTH_RECORD) return null;
  const { id, collectionId } = unverified;
  if (typeof id !== 'string' || !id || typeof collectionId !== 'string' || !collectionId) return null;
  const collection = findAuthCollection(ctx, collectionId);
  if (!collection || collection.id !== collectionId) return null;
  const row = findAuthRowById(ctx, collection, id);
  if (!row) return null;
  const claims = verifyAccountToken(ctx.settings.get(), kind, row.tokenKey, raw);
  return claims ? { collection, row, claims } : null;
}
