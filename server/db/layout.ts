// STUB (to be replaced): creates PocketBase 0.22's data.db tables on a new data dir.
import type { DB } from './database';
export function initDataLayout(_db: DB): void {}
