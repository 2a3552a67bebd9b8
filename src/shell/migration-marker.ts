// Outpost's automigrate names the migration file a collection change wrote in the answer's
// X-Outpost-Migration header; the SDK returns bodies only, so the save goes through a fetch that
// notes the header. PocketBase 0.22 sends no such header: nothing is shown then.
import { addInfoToast } from './toasts';

const MIGRATION_HEADER = 'X-Outpost-Migration';
const migrationMessage = (file: string): string => `Migration written: ${file}`;

/** A fetch for one SDK call (its `fetch` option) and what the answer named. */
export function migrationCapture(): { fetch: (url: RequestInfo | URL, config?: RequestInit) => Promise<Response>; show: () => void } {
  let written: string | null = null;
  return {
    fetch: async (url, config) => {
      const res = await fetch(url, config);
      written = res.headers.get(MIGRATION_HEADER);
      return res;
    },
    show: () => {
      if (written) addInfoToast(migrationMessage(written), 8000);
    },
  };
}
