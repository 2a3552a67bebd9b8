/** What a role is, and what becomes of it under PocketBase 0.22 (the section and the editor say it). */
export const ROLES_NOTE =
  "An admin without a role is a full admin. A role limits an admin to some collections and settings areas, and the server enforces it. Roles are Outpost's own: opened by PocketBase 0.22, this pb_data has no roles and every admin is a full admin again.";
