// Admin roles in server tests (issue 36): a full admin and a scoped one signed in, and a new role
// the full admin makes and gives to an admin.
import { expect } from 'vitest';
import { http } from './server';
import type { Area, CollectionGrant } from '../../src/lib/roles';

/** The token and id of the admin `email` (the fixtures' password by default). */
async function adminSignIn(url: string, email: string, password = '1234567890'): Promise<{ token: string; id: string }> {
  const res = await http(url, 'POST', '/api/admins/auth-with-password', { body: { identity: email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.token, id: res.body.admin.id };
}

let made = 0;

/** Makes a role of `areas` and `collections` as the full admin `fullToken` and gives it to `adminId`; its id. */
export async function giveNewRole(url: string, fullToken: string, adminId: string, areas: Area[], collections: CollectionGrant[]): Promise<string> {
  const role = { name: `role${made++}`, areas: Object.fromEntries(areas.map((a) => [a, true])), collections };
  const res = await http(url, 'POST', '/api/outpost/roles', { token: fullToken, body: role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await http(url, 'PUT', `/api/outpost/admin-roles/${adminId}`, { token: fullToken, body: { role: res.body.id } })).status).toBe(200);
  return res.body.id;
}

/**
 * On a server with no admin yet: full@example.com (the installer's first admin) and
 * scoped@example.com (made by it, to be given roles), both signed in.
 */
export async function fullAndScopedAdmins(url: string): Promise<{ full: string; fullId: string; scoped: string; scopedId: string }> {
  const body = (email: string) => ({ email, password: '1234567890', passwordConfirm: '1234567890' });
  expect((await http(url, 'POST', '/api/admins', { body: body('full@example.com') })).status).toBe(200);
  const full = await adminSignIn(url, 'full@example.com');
  expect((await http(url, 'POST', '/api/admins', { token: full.token, body: body('scoped@example.com') })).status).toBe(200);
  const scoped = await adminSignIn(url, 'scoped@example.com');
  return { full: full.token, fullId: full.id, scoped: scoped.token, scopedId: scoped.id };
}
