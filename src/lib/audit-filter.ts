// The audit trail's filter: the query of GET /api/outpost/audit and its export, as the dashboard
// sends it and the server reads it (server/http/audit.ts parses and checks each value).

export interface AuditFilter {
  /** Matches the actor's id or email (substring, case-insensitive). */
  actor?: string;
  /** A collection's id or name. */
  collection?: string;
  action?: string;
  area?: string;
  target?: string;
  /** Dates, inclusive: sent as ISO (UTC), held by the server as stored dates ('2026-01-01 00:00:00.000Z'). */
  from?: string;
  to?: string;
}
