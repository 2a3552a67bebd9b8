// Bytes over the wire as Chromium received them (CDP Network.loadingFinished encodedDataLength:
// headers plus the body as sent, compressed or not), per resource, for one page of a fresh context
// (no cache). Used by the sign-in and records page budgets.
import type { Page } from 'playwright-core';

interface WireResource {
  url: string;
  type: string;
  encoding: string;
  bytes: number;
}

export interface WireMeter {
  resources: WireResource[];
  total(): number;
  /** Resolves once no request has been in flight for `quietMs`. */
  idle(quietMs?: number, timeoutMs?: number): Promise<void>;
  /** One line per resource, largest first. */
  lines(): string[];
}

export async function meterWire(page: Page): Promise<WireMeter> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const pending = new Map<string, Omit<WireResource, 'bytes'>>();
  const resources: WireResource[] = [];
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e: any) => {
    lastActivity = Date.now();
    pending.set(e.requestId, { url: e.request.url, type: e.type ?? '', encoding: '' });
  });
  cdp.on('Network.responseReceived', (e: any) => {
    const r = pending.get(e.requestId);
    if (!r) return;
    const headers = Object.fromEntries(Object.entries(e.response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    r.encoding = headers['content-encoding'] ?? 'identity';
  });
  const finish = (e: any, bytes: number) => {
    lastActivity = Date.now();
    const r = pending.get(e.requestId);
    if (!r) return;
    pending.delete(e.requestId);
    resources.push({ ...r, bytes });
  };
  cdp.on('Network.loadingFinished', (e: any) => finish(e, e.encodedDataLength ?? 0));
  cdp.on('Network.loadingFailed', (e: any) => finish(e, 0));
  return {
    resources,
    total: () => resources.reduce((n, r) => n + r.bytes, 0),
    async idle(quietMs = 1000, timeoutMs = 30_000) {
      const t0 = Date.now();
      while (Date.now() - t0 < timeoutMs) {
        if (pending.size === 0 && Date.now() - lastActivity >= quietMs) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    lines: () =>
      [...resources]
        .sort((a, b) => b.bytes - a.bytes)
        .map((r) => `    ${(r.bytes / 1024).toFixed(1).padStart(8)} KB  ${r.encoding.padEnd(8)} ${r.type.padEnd(10)} ${new URL(r.url).pathname.replace(/^\/_\/assets\//, '').slice(0, 70)}`),
  };
}
