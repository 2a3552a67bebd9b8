// The server bundle's import graph: it shares pure modules with the dashboard (src/lib, the engine's
// ajv and keywords) but must never pull in the dashboard's form library (@rjsf/*) or React.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SPECIFIER = /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/** Every package the files reachable from `entry` import, with one importing file each. */
function packagesReachable(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) {
        const target = resolve(file, spec);
        if (target && /\.tsx?$/.test(target)) queue.push(target);
      } else if (!packages.has(spec)) packages.set(spec, path.relative(ROOT, file));
    }
  }
  return packages;
}

describe('server imports', () => {
  const packages = packagesReachable(path.join(ROOT, 'server/main.ts'));

  it('finds the server graph', () => {
    expect(packages.has('fastify')).toBe(true);
    expect(packages.has('ajv')).toBe(true);
  });

  it('never reaches the dashboard form library or React', () => {
    const offending = [...packages].filter(([name]) => /^@rjsf\/|^react(-dom)?$/.test(name)).map(([name, file]) => `${name} (${file})`);
    expect(offending).toEqual([]);
  });
});
