/**
 * The zone dates are shown in (src/lib/date-display.ts): UTC unless the admin chose the browser's
 * time zone in the avatar menu. Kept like the theme, per browser in localStorage; another tab's
 * choice takes effect here too (the storage event).
 */
import { useSyncExternalStore } from 'react';
import { DEFAULT_DATE_ZONE, isDateZone, type DateZone } from '../lib/date-display';

const DATE_ZONE_STORAGE_KEY = 'outpost_date_zone';

const listeners = new Set<() => void>();

// read once (every date cell asks on each render), then kept in step with the choice
let cached: DateZone | null = null;

/** The zone in effect: the stored choice, else UTC. */
function currentDateZone(): DateZone {
  if (cached) return cached;
  try {
    const v = localStorage.getItem(DATE_ZONE_STORAGE_KEY);
    cached = isDateZone(v) ? v : DEFAULT_DATE_ZONE;
  } catch {
    cached = DEFAULT_DATE_ZONE; // storage disabled
  }
  return cached;
}

export function setDateZone(zone: DateZone): void {
  cached = zone;
  try {
    localStorage.setItem(DATE_ZONE_STORAGE_KEY, zone);
  } catch {
    /* not remembered: applied until the page reloads */
  }
  listeners.forEach((l) => l());
}

function onStorage(e: StorageEvent): void {
  if (e.key !== DATE_ZONE_STORAGE_KEY && e.key !== null) return;
  cached = null;
  listeners.forEach((l) => l());
}

function subscribe(cb: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(cb);
  return () => {
    listeners.delete(cb);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

export function useDateZone(): DateZone {
  return useSyncExternalStore(subscribe, currentDateZone, () => DEFAULT_DATE_ZONE);
}
