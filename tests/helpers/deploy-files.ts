// The configurations of deploy/ (shown in README "Deploying") as the tests run them: read as they
// are, with the README's example values (ports, paths, the domain) replaced by the test's. Every
// value replaced must be there, so a configuration edited out of step with its test fails here.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './server';

const DEPLOY_DIR = path.join(ROOT, 'deploy');

/** deploy/<name> with each `[example, value]` replaced (every occurrence; each must occur). */
export function deployFile(name: string, replacements: Array<[string, string]> = []): string {
  let text = fs.readFileSync(path.join(DEPLOY_DIR, name), 'utf8');
  for (const [example, value] of replacements) {
    if (!text.includes(example)) throw new Error(`deploy/${name} no longer contains "${example}": update its test`);
    text = text.split(example).join(value);
  }
  return text;
}

/** The "User IP proxy headers" a configuration's comment names (the trusted-proxy setting it needs). */
export function trustedHeaderOf(name: string): string {
  const m = /User IP proxy headers: ([\w-]+)/.exec(deployFile(name));
  if (!m) throw new Error(`deploy/${name} does not name the header to trust ("User IP proxy headers: …")`);
  return m[1];
}
