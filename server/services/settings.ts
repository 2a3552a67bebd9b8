// STUB (to be replaced): the settings row in _params, with PocketBase 0.22's defaults.
import type { DB } from '../db/database';
export interface LogsSettings { maxDays: number; minLevel: number; logIp: boolean }
export interface Settings { logs: LogsSettings; [section: string]: any }
export interface SettingsStore {
  get(): Settings;
  save(next: Settings): void;
  subscribe(fn: (s: Settings) => void): () => void;
}
export function createSettingsStore(_db: DB): SettingsStore {
  let current: Settings = { logs: { maxDays: 5, minLevel: 0, logIp: true } };
  const subs = new Set<(s: Settings) => void>();
  return {
    get: () => current,
    save(next) { current = next; subs.forEach((f) => f(next)); },
    subscribe(fn) { subs.add(fn); return () => subs.delete(fn); },
  };
}
