// `npm run lockfile`: every dependency edge in package-lock.json resolves to a package entry of the
// lock, as `npm ci` demands. An `npm install` against a registry that lacks some platforms'
// optional binaries writes a lock whose packages still name them; `npm ci` then refuses the whole
// lock ("Missing: … from lock file") on a clean machine, while this one, with node_modules
// present, never notices. `node scripts/check-lockfile.mjs [lockfile]`
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const file = path.resolve(process.argv[2] ?? path.join(root, 'package-lock.json'));
const { packages } = JSON.parse(fs.readFileSync(file, 'utf8'));

/** Node's lookup from the package at `at` (a lock key): its own node_modules, then each parent's. */
function resolves(at, name) {
  let dir = at;
  for (;;) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (dir === '') return false;
    const cut = dir.lastIndexOf('node_modules/');
    dir = cut <= 0 ? '' : dir.slice(0, cut - 1);
  }
}

const missing = [];
for (const [at, pkg] of Object.entries(packages)) {
  if (pkg.link) continue;
  const optionalPeers = new Set(Object.entries(pkg.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n));
  const edges = {
    ...pkg.dependencies,
    ...pkg.optionalDependencies,
    ...(at === '' ? pkg.devDependencies : {}),
    ...Object.fromEntries(Object.entries(pkg.peerDependencies ?? {}).filter(([n]) => !optionalPeers.has(n))),
  };
  for (const name of Object.keys(edges)) {
    if (!resolves(at, name)) missing.push(`${at || '(root)'} → ${name}`);
  }
}

if (missing.length) {
  console.error(`package-lock.json names ${missing.length} package(s) it does not contain (npm ci would refuse it):`);
  for (const m of missing) console.error(`  ${m}`);
  console.error('Drop those edges from the lock (the registry here cannot serve them), or regenerate it where it can.');
  process.exit(1);
}
console.log(`package-lock.json: ${Object.keys(packages).length} entries, every dependency resolves`);
