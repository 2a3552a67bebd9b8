// The messages between a worker and the node:cluster primary (ipc-channel.ts, ipc-primary.ts).

export type ToPrimary =
  | { outpost: 'pub'; subject: string; data: unknown }
  | { outpost: 'bcast'; id: number; subject: string; data: unknown; timeoutMs: number }
  | { outpost: 'ack'; ack: number }
  | { outpost: 'ask'; id: number; subject: string; data: unknown };

export type ToWorker =
  | { outpost: 'msg'; subject: string; data: unknown; ack?: number }
  | { outpost: 'done'; id: number; acked: number; expected: number }
  | { outpost: 'answer'; id: number; data?: unknown; error?: string }
  | { outpost: 'role'; leader: boolean; members: number };

export const isWire = (m: unknown): m is { outpost: string } => typeof m === 'object' && m !== null && typeof (m as { outpost?: unknown }).outpost === 'string';
