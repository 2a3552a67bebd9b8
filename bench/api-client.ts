// The benches' JSON client for a server they started: one request helper and a signed-in admin.

/** A JSON request to `url` (the answer parsed, whatever its status). */
export type ApiCall = (method: string, path: string, body?: unknown, token?: string) => Promise<any>;

export function apiCall(url: string): ApiCall {
  return async (method, p, body, token) => {
    const res = await fetch(url + p, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
}

/** Creates the admin `email` on a fresh server and signs it in: its token and admin model. */
export async function benchAdmin(call: ApiCall, email: string): Promise<{ token: string; admin: unknown }> {
  const creds = { email, password: '1234567890' };
  await call('POST', '/api/admins', { ...creds, passwordConfirm: creds.password });
  return call('POST', '/api/admins/auth-with-password', { identity: creds.email, password: creds.password });
}

/** A JSON request to `url` that keeps the status: {status, body}. */
export type ApiRequest = (method: string, path: string, body?: unknown, token?: string, signal?: AbortSignal) => Promise<{ status: number; body: any }>;

export function apiRequest(url: string): ApiRequest {
  return async (method, p, body, token, signal) => {
    const res = await fetch(url + p, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
}
