// Set-up shared by the body encoding tests (tests/server/body-encodings-*.test.ts): the file's
// fixture server (tests/helpers/fixture-server.ts) with an app URL and mail to a real SMTP server on
// loopback, a request sent as JSON, multipart/form-data or url-encoded, and 0.22's load messages.
import { afterAll, beforeAll, expect } from 'vitest';
import { srv, withFixtureServer } from './fixture-server';
import { FIXTURE_PASSWORD, http } from './server';
import { startSmtp, type TestSmtp } from './smtp';
import type { SseClient } from './sse';

export type Encoding = 'json' | 'multipart' | 'urlencoded';
export const ENCODINGS: Encoding[] = ['json', 'multipart', 'urlencoded'];
export const FORMS: Encoding[] = ['multipart', 'urlencoded'];

export const LOAD = 'An error occurred while loading the submitted data.';
export const INVALID_FORMAT = 'Failed to load the submitted data due to invalid formatting.';
export const GENERIC = 'Something went wrong while processing your request.';

export const ADMIN = 'test@example.com';
export const USER = { id: '4q1xlclmfloku33', username: 'users75657', email: 'test@example.com' };

export let smtp: TestSmtp;
export const sse: SseClient[] = [];

/**
 * The body in one encoding. Forms carry scalars as text and string lists as repeated values;
 * anything else (objects, lists of objects, null, []) goes in `@jsonPayload`, as 0.22 expects.
 */
function encode(fields: Record<string, unknown>, enc: Encoding): { body: string | FormData | URLSearchParams; headers: Record<string, string> } {
  if (enc === 'json') return { body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } };
  const form = enc === 'multipart' ? new FormData() : new URLSearchParams();
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') form.append(key, String(value));
    else if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) for (const v of value) form.append(key, v);
    else payload[key] = value;
  }
  if (Object.keys(payload).length) form.append('@jsonPayload', JSON.stringify(payload));
  // fetch writes the form's Content-Type (with the multipart boundary)
  return { body: form, headers: {} };
}

export async function send(method: string, path: string, fields: Record<string, unknown>, enc: Encoding, token?: string) {
  const { body, headers } = encode(fields, enc);
  if (token) headers.Authorization = token;
  return parse(await fetch(srv.url + path, { method, headers, body }));
}

/** A raw body with its Content-Type. */
export async function sendRaw(method: string, path: string, body: string, contentType: string, token?: string) {
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (token) headers.Authorization = token;
  return parse(await fetch(srv.url + path, { method, headers, body }));
}

export async function parse(res: Response): Promise<{ status: number; body: any }> {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Sends the request in every encoding; all answers must be the same (after `normalize`). */
export async function sameInEvery(
  request: (enc: Encoding) => Promise<{ status: number; body: any }>,
  normalize: (body: any, enc: Encoding) => unknown = (b) => b,
): Promise<Record<Encoding, { status: number; body: any }>> {
  const results = {} as Record<Encoding, { status: number; body: any }>;
  for (const enc of ENCODINGS) results[enc] = await request(enc);
  const json = { status: results.json.status, body: normalize(results.json.body, 'json') };
  for (const enc of FORMS) {
    expect({ status: results[enc].status, body: normalize(results[enc].body, enc) }, enc).toEqual(json);
  }
  return results;
}

/** One unreadable body per encoding. */
export const BAD_BODIES: Record<Encoding, { body: string; type: string }> = {
  json: { body: '{"identity":', type: 'application/json' },
  multipart: { body: 'this is not a multipart body', type: 'multipart/form-data; boundary=XyZ' },
  urlencoded: { body: 'identity=%zz&password=x', type: 'application/x-www-form-urlencoded' },
};

export const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
export const db = () => srv.app.db;

export function tokenFrom(html: string, action: string): string {
  const m = new RegExp(`${action}/([\\w.-]+)`).exec(html);
  if (!m) throw new Error(`no ${action} link in ${html}`);
  return m[1];
}

export async function userToken(identity = USER.username, password = FIXTURE_PASSWORD): Promise<string> {
  const res = await http(srv.url, 'POST', '/api/collections/users/auth-with-password', { body: { identity, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

/** The fixture server with an app URL and SMTP on `smtp`; closes the `sse` streams after the file. */
export function withEncodingsServer() {
  withFixtureServer();
  beforeAll(async () => {
    smtp = await startSmtp();
    const settings = srv.app.ctx.settings;
    const current = settings.get();
    settings.save({
      ...current,
      meta: { ...current.meta, appUrl: 'https://app.example.com' },
      smtp: { ...current.smtp, enabled: true, host: '127.0.0.1', port: smtp.port, tls: false },
    });
  });
  afterAll(async () => {
    for (const c of sse) c.close();
    await smtp?.close();
  });
}
