// The client's address, the one thing the sign-in limiters, read admission, the realtime caps and
// the request log key on. Behind a reverse proxy the socket's peer is the proxy, the same for every
// user; the settings' `trustedProxy` (PocketBase 0.23's) names the headers the proxy writes the
// client's address into. Only those headers are read: any other forwarding header is the sender's
// claim and never decides anything (0.22's request log read them unasked).
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { TrustedProxySettings } from '../services/settings';

/** Headers proxies commonly set, checked for the dashboard's hint (0.23's list, plus nginx's X-Real-IP). */
const COMMON_PROXY_HEADERS = ['CF-Connecting-IP', 'Fly-Client-IP', 'X-Forwarded-For', 'X-Real-IP'];

/** The socket peer's address (an IPv4 peer of a dual-stack socket without its `::ffff:` prefix). */
export function socketAddress(req: FastifyRequest): string {
  const ip = req.raw.socket?.remoteAddress ?? '';
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** The client's address: from the trusted proxy headers when they hold one, else the socket's. */
export function clientAddress(ctx: AppContext, req: FastifyRequest): string {
  return resolveClientAddress(socketAddress(req), req.raw.rawHeaders, ctx.settings.get().trustedProxy);
}

/**
 * 0.23's RealIP: for each trusted header in order, its last line (the one the nearest proxy wrote;
 * earlier lines may come from the client), split at commas, the rightmost valid IP (the leftmost
 * with useLeftmostIP); entries that are no IP (ports, "unknown") are skipped; none: the socket's.
 */
function resolveClientAddress(remote: string, rawHeaders: readonly string[], proxy: TrustedProxySettings | undefined): string {
  for (const name of proxy?.headers ?? []) {
    const line = lastLine(rawHeaders, name);
    if (!line) continue;
    const ips = line.split(',');
    if (!proxy?.useLeftmostIP) ips.reverse();
    for (const entry of ips) {
      const ip = canonicalIp(entry);
      if (ip) return ip;
    }
  }
  return remote;
}

/**
 * The forwarding header a request carries, for the dashboard's hint (0.23's health
 * `possibleProxyHeader`): a trusted one first, else a common one, else ''.
 */
export function possibleProxyHeader(ctx: AppContext, req: FastifyRequest): string {
  const trusted = ctx.settings.get().trustedProxy?.headers ?? [];
  return [...trusted, ...COMMON_PROXY_HEADERS].find((name) => lastLine(req.raw.rawHeaders, name)) ?? '';
}

/** The last line of header `name` (names compared case-insensitively), '' when absent. */
function lastLine(rawHeaders: readonly string[], name: string): string {
  const wanted = name.trim().toLowerCase();
  for (let i = rawHeaders.length - 2; i >= 0; i -= 2) if (rawHeaders[i].toLowerCase() === wanted) return rawHeaders[i + 1];
  return '';
}

/** An IP address in one spelling (IPv6 compressed, an IPv4-mapped one as IPv4), or null. */
function canonicalIp(text: string): string | null {
  const ip = text.trim();
  const family = isIP(ip);
  if (family === 4) return ip;
  if (family !== 6) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (ip.includes('%')) return ip; // a zone: URL cannot parse it, and such a peer is local anyway
  return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
}
