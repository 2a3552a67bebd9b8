/** The localStorage key of the admin session (the SDK's store, src/api/admin-session.ts); the boot script reads it too. */
export const AUTH_STORAGE_KEY = 'pocketbase_auth';
/** The original PocketBase dashboard's admin session key. */
export const ADMIN_AUTH_STORAGE_KEY = 'pb_admin_auth';
