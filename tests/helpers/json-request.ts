// One request through node:http, JSON in and out, for what fetch cannot choose: the connection
// (a cluster member's keep-alive agent) or the local address (a client behind a proxy).
import http from 'node:http';

export interface JsonReply {
  status: number;
  /** The parsed JSON, or the text when it is not JSON (a proxy's own error page). */
  body: any;
  headers: http.IncomingHttpHeaders;
}

export interface JsonRequestOptions extends Omit<http.RequestOptions, 'headers'> {
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** The Authorization header. */
  token?: string;
}

export function requestJson(url: string, { body: json, token, headers: extra, ...options }: JsonRequestOptions): Promise<JsonReply> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers: Record<string, string> = { ...(extra ?? {}) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = token;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { ...options, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: any = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
