// STUB (to be replaced): creates PocketBase 0.22's logs.db (_logs) on a new data dir.
import type { DB } from './database';
export function initLogsLayout(_db: DB): void {}
