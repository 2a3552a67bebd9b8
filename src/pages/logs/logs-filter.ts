// The filter the Logs list and stats send, from the search and 'Include requests by admins' (the
// URL's adminRequests, else the stored choice). Small on purpose: the app's boot code uses it to
// ask for the first rows while the page's code loads.
import type { QueryParams } from '../../shell/navigation';
import { joinFilters, normalizeSearchFilter } from '../../lib/filter-normalize';

/** local storage key of the 'Include requests by admins' checkbox */
export const ADMIN_LOGS_STORAGE_KEY = 'adminLogRequests';
/** Fields a plain search term is matched against, and the autocomplete keys. */
export const LOGS_SEARCH_FIELDS = ['level', 'message', 'data'] as const;

/** The preset filter: only requests not made by an admin unless admin requests are included. */
function adminPreset(includeAdmins: boolean): string {
  return includeAdmins ? '' : 'data.auth!="admin"';
}

/** What the list and the stats send: the preset and the normalised search joined with '&&'. */
export function logsFilter(search: string, includeAdmins: boolean): string {
  return joinFilters(adminPreset(includeAdmins), normalizeSearchFilter(search, LOGS_SEARCH_FIELDS));
}

function storedIncludeAdmins(): boolean {
  try {
    return window.localStorage.getItem(ADMIN_LOGS_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/** 'Include requests by admins' as the page shows it: the URL's adminRequests, else the stored choice. */
export function includeAdminsOf(query: QueryParams): boolean {
  return query.adminRequests !== undefined ? query.adminRequests === '1' : storedIncludeAdmins();
}
