// The corpora of real projects (scripts/migrations-corpus, scripts/hooks-corpus) keep only a list of
// repository + commit; this extracts one project's folders into the corpus directory, outside the
// repository: from a git mirror (<mirrors>/<owner>+<name>/repo, a bare git dir) with `git archive`,
// or, without one, from a shallow fetch of that one commit (network needed). A project already
// extracted with the same identity (its <slug>.source.json) is kept unless `rebuild`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const slugOf = (repo) => repo.replace('/', '+');

function git(args) {
  const r = spawnSync('git', args, { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.slice(0, 4).join(' ')}…: ${String(r.stderr).trim() || `exit ${r.status}`}`);
  return r.stdout;
}

/**
 * Extracts `parts` of `repo` at `commit` into <corpusDir>/<slug>/ and returns that folder.
 * identity: what makes an extraction current (stored in <slug>.source.json with where it came from);
 * parts: `{ tree, into }` (a folder of the commit, extracted into `into`, '' for the project folder)
 * or `{ file, into }` (one file, written as `into`).
 */
export function extractProject({ corpusDir, mirrorsDir, rebuild, repo, commit, identity, parts }) {
  const slug = slugOf(repo);
  const dest = path.join(corpusDir, slug);
  const sourceFile = path.join(corpusDir, `${slug}.source.json`);
  if (!rebuild && fs.existsSync(dest) && fs.existsSync(sourceFile)) {
    try {
      const was = JSON.parse(fs.readFileSync(sourceFile, 'utf8'));
      if (Object.entries(identity).every(([k, v]) => was[k] === v)) return dest;
    } catch {
      /* extract again */
    }
  }
  const source = { ...identity };
  const tmp = `${dest}.partial-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  let clone = null;
  try {
    const mirror = path.join(mirrorsDir, slug, 'repo');
    let gitDir;
    if (fs.existsSync(mirror)) {
      gitDir = mirror;
      source.from = `mirror ${mirror}`;
    } else {
      clone = path.join(corpusDir, '.clones', slug);
      fs.rmSync(clone, { recursive: true, force: true });
      fs.mkdirSync(clone, { recursive: true });
      git(['init', '-q', '--bare', clone]);
      git(['--git-dir', clone, 'fetch', '-q', '--depth', '1', `https://github.com/${repo}.git`, commit]);
      gitDir = clone;
      source.from = `https://github.com/${repo}.git (shallow fetch)`;
    }
    for (const part of parts) {
      if (part.file) {
        fs.writeFileSync(path.join(tmp, part.into), git(['--git-dir', gitDir, 'show', `${commit}:${part.file}`]));
        continue;
      }
      const into = path.join(tmp, part.into);
      fs.mkdirSync(into, { recursive: true });
      const tar = git(['--git-dir', gitDir, 'archive', '--format=tar', `${commit}:${part.tree}`]);
      const x = spawnSync('tar', ['-x', '-C', into], { input: tar, maxBuffer: 1 << 30 });
      if (x.status !== 0) throw new Error(`tar: ${String(x.stderr).trim()}`);
    }
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(tmp, dest);
    fs.writeFileSync(sourceFile, JSON.stringify(source, null, 2) + '\n');
    return dest;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (clone) fs.rmSync(clone, { recursive: true, force: true });
  }
}
