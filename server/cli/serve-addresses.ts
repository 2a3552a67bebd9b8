// The addresses and certificate names of `serve [domain(s)] --http --https`, by PocketBase 0.22's
// rules (cmd/serve.go and apis/serve.go): with a domain, --http defaults to 0.0.0.0:80 and --https
// to 0.0.0.0:443; without, --http defaults to 127.0.0.1:8090 and there is no TLS unless --https
// names an address. The certificates' host policy is the domains, or else the host of the main
// address (the HTTPS one when set), each with a www. variant that is redirected to it.
import { domainToASCII } from 'node:url';

interface ListenAddress {
  host: string;
  port: number;
}

export interface ServeAddresses {
  http: string;
  /** '' = no TLS */
  https: string;
  /** The host policy: certificates are asked for these names only. */
  hostNames: string[];
  /** The www. names added for the domains, redirected to them. */
  wwwRedirects: string[];
  /** What the start banner shows, as 0.22's: scheme://first domain, or the main address. */
  bannerUrl: string;
}

/** host:port of `--http`/`--https` (`:8090` listens on every interface, as Go's net package reads it). */
export function listenAddress(value: string): ListenAddress | null {
  const idx = value.lastIndexOf(':');
  if (idx < 0) return null;
  const host = value.slice(0, idx).replace(/^\[(.*)\]$/, '$1') || '0.0.0.0';
  const port = Number(value.slice(idx + 1));
  return Number.isInteger(port) && port >= 0 && port < 65536 && value.slice(idx + 1) !== '' ? { host, port } : null;
}

/** Throws an Error with a message for the user on a domain that no certificate can name. */
export function serveAddresses(domains: string[], httpFlag: string, httpsFlag: string): ServeAddresses {
  for (const d of domains) {
    // autocert drops a name IDNA refuses; a name without a dot never gets a certificate either
    const ascii = domainToASCII(d.toLowerCase().replace(/\.$/, ''));
    if (!ascii || !ascii.includes('.') || /[/:\s]/.test(d)) throw new Error(`invalid domain "${d}": name a host, e.g. example.com`);
  }
  const http = httpFlag || (domains.length ? '0.0.0.0:80' : '127.0.0.1:8090');
  const https = httpsFlag || (domains.length ? '0.0.0.0:443' : '');
  const main = https || http;
  const hostNames = domains.length ? [...domains] : [main.slice(0, main.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1')];
  const wwwRedirects: string[] = [];
  for (const host of [...hostNames]) {
    if (host.startsWith('www.')) continue;
    const www = `www.${host}`;
    if (!hostNames.includes(www)) {
      hostNames.push(www);
      wwwRedirects.push(www);
    }
  }
  const bannerUrl = https ? `https://${domains[0] ?? https}` : `http://${http}`;
  return { http, https, hostNames, wwwRedirects, bannerUrl };
}
