// An admin as a hook event carries it (e.admin, e.admins, e.model: 0.22's models.Admin, secret
// columns included, as a tagged snapshot: models-wire.ts) and back: the row the handlers left.
import { adminJson, type AdminRow } from '../services/admins';
import { adminWire } from './models-wire';

/** The snapshot of `row` for an event field. */
export const adminEventWire = (row: AdminRow, isNew = false) =>
  adminWire({ ...adminJson(row), tokenKey: row.tokenKey, passwordHash: row.passwordHash, lastResetSentAt: row.lastResetSentAt }, isNew);

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The admin a handler left in an event field: its row; null when a handler put null there;
 * undefined when the value is no admin (a handler's mistake: the flow answers a plain 400).
 */
export function adminRowFromWire(value: unknown): AdminRow | null | undefined {
  if (value === null) return null;
  const tagged = value as { __model?: unknown; json?: unknown } | undefined;
  if (!tagged || tagged.__model !== 'admin' || !tagged.json || typeof tagged.json !== 'object') return undefined;
  const json = tagged.json as Record<string, unknown>;
  const avatar = Number(json.avatar);
  return {
    id: text(json.id),
    avatar: Number.isInteger(avatar) ? avatar : 0,
    email: text(json.email),
    tokenKey: text(json.tokenKey),
    passwordHash: text(json.passwordHash),
    lastResetSentAt: text(json.lastResetSentAt),
    created: text(json.created),
    updated: text(json.updated),
  };
}
