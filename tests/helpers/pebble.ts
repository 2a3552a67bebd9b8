// Debian's pebble (Let's Encrypt's test ACME server) on loopback, for the TLS tests: its own HTTPS
// listener gets a throw-away certificate made with openssl here (the server trusts it through
// NODE_EXTRA_CA_CERTS), and pebble-challtestsrv answers its DNS queries with 127.0.0.1 for every
// name, so the CA's HTTP-01 and TLS-ALPN-01 requests for a test domain reach the server's ports on
// this machine (pebble's httpPort and tlsPort). The issuing root (regenerated at every start) comes
// from pebble's management endpoint. A machine without pebble or openssl fails here, never skips: README, Set-up.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { freePort } from './server-process';

/** A Debian binary by name (ENV_VAR overrides); throws with the package to install. */
function findBinary(name: string, envVar: string, pkg: string): string {
  const candidates = [process.env[envVar], `/usr/bin/${name}`, spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim()];
  const found = candidates.find((p): p is string => Boolean(p) && fs.existsSync(p as string));
  if (!found) throw new Error(`${name} is not installed: \`apt-get install -y ${pkg}\` (see README, Set-up)`);
  return found;
}

/** A self-signed certificate and its key (PEM files in `dir`), valid `days` days, for `san` (e.g. IP:127.0.0.1). */
export function selfSigned(dir: string, name: string, cn: string, san: string, days: number): { cert: string; key: string } {
  const openssl = findBinary('openssl', 'OPENSSL_PATH', 'openssl');
  const cert = path.join(dir, `${name}.cert.pem`);
  const key = path.join(dir, `${name}.key.pem`);
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert];
  const made = spawnSync(openssl, [...args, '-days', String(days), '-subj', `/CN=${cn}`, '-addext', `subjectAltName=${san}`], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { cert, key };
}

/** GET over HTTPS trusting `ca` only. */
function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error(`${url}: no answer in 5 s`)));
  });
}

export interface Pebble {
  /** The ACME directory URL (the server's --acmeDirectory). */
  directoryUrl: string;
  /** The CA file of pebble's own HTTPS listener (the server's NODE_EXTRA_CA_CERTS). */
  listenerCaFile: string;
  /** The root the issued certificates chain to. */
  root: string;
  output(): string;
  stop(): Promise<void>;
}

function started(child: ChildProcess, out: () => string, what: string): Promise<never> {
  return new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`${what} exited (${code}): ${out()}`))));
}

/**
 * Starts pebble validating HTTP-01 on `httpPort` (the server's HTTP port) of 127.0.0.1, and
 * TLS-ALPN-01 on `tlsPort` (by default a port nothing listens on: that challenge fails).
 */
export async function startPebble(dir: string, httpPort: number, tlsPort?: number): Promise<Pebble> {
  const pebbleBin = findBinary('pebble', 'PEBBLE_PATH', 'pebble');
  const challBin = findBinary('pebble-challtestsrv', 'PEBBLE_CHALLTESTSRV_PATH', 'pebble');
  fs.mkdirSync(dir, { recursive: true });
  const listener = selfSigned(dir, 'pebble-listener', 'pebble', 'IP:127.0.0.1,DNS:localhost', 2);
  const [acmePort, managementPort, dnsPort, challManagementPort, closedPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const config = path.join(dir, 'pebble-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: listener.cert,
        privateKey: listener.key,
        httpPort,
        tlsPort: tlsPort ?? closedPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  let out = '';
  const collect = (child: ChildProcess) => {
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  };
  // every name resolves to 127.0.0.1 (no AAAA answer: the server listens on IPv4)
  const dns = spawn(
    challBin,
    ['-dns01', `127.0.0.1:${dnsPort}`, '-http01', '', '-https01', '', '-tlsalpn01', '', '-management', `127.0.0.1:${challManagementPort}`, '-defaultIPv4', '127.0.0.1', '-defaultIPv6', ''],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  collect(dns);
  const ca = spawn(pebbleBin, ['-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], {
    // no random waits before validations, no nonces refused on purpose
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  collect(ca);
  const stop = async () => {
    for (const child of [ca, dns]) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  };
  const caPem = fs.readFileSync(listener.cert, 'utf8');
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  const ready = (async () => {
    for (let i = 0; ; i++) {
      try {
        if ((await httpsGet(directoryUrl, caPem)).status === 200) break;
      } catch (err) {
        if (i > 100) throw err;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return (await httpsGet(`https://127.0.0.1:${managementPort}/roots/0`, caPem)).body;
  })();
  try {
    const root = await Promise.race([ready, started(ca, () => out, 'pebble'), started(dns, () => out, 'pebble-challtestsrv')]);
    return { directoryUrl, listenerCaFile: listener.cert, root, output: () => out, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
