// docs/forms/ is generated from the schema files and the translation files, in every language; this
// fails when someone changed a schema, a screen or a translation without running `npm run docs` (or
// edited the docs by hand).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { DOCS_DIR, generateAllDocs } from '../../scripts/gen-docs';

function committedDocs(dir = DOCS_DIR, base = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = base ? `${base}/${e.name}` : e.name;
    return e.isDirectory() ? committedDocs(path.join(dir, e.name), rel) : [rel];
  });
}

it('docs/forms matches what `npm run docs` generates, in every language', () => {
  const fresh = generateAllDocs();
  expect(committedDocs().sort(), 'run `npm run docs`').toEqual([...fresh.keys()].sort());
  for (const [rel, content] of fresh) {
    expect(fs.readFileSync(path.join(DOCS_DIR, rel), 'utf8'), `docs/forms/${rel} is stale: run \`npm run docs\``).toBe(content);
  }
});
