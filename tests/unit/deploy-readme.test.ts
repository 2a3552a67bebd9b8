// README "Deploying" shows the files of deploy/ that the proxy and systemd tests run: each block
// follows a `<!-- deploy/<file> -->` line and must be that file byte for byte, and every file of
// deploy/ is shown once. An edit to one without the other fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const files = fs.readdirSync(path.join(ROOT, 'deploy')).sort();

/** Every `<!-- deploy/x -->` marker with the fenced block right after it. */
function shownBlocks(): Array<{ file: string; text: string | null }> {
  const shown: Array<{ file: string; text: string | null }> = [];
  const marker = /^<!-- deploy\/([^ ]+) -->\n/gm;
  for (let m; (m = marker.exec(readme)); ) {
    const fence = /^```[\w-]*\n([\s\S]*?)^```$/m.exec(readme.slice(m.index + m[0].length));
    const startsRightAfter = fence?.index === 0;
    shown.push({ file: m[1], text: startsRightAfter ? fence![1] : null });
  }
  return shown;
}

describe('README "Deploying" and deploy/', () => {
  it('shows every file of deploy/ once', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(shownBlocks().map((b) => b.file).sort()).toEqual(files);
  });

  it.each(files)('the block for deploy/%s is the file', (file) => {
    const block = shownBlocks().find((b) => b.file === file);
    expect(block?.text, `no fenced block right after <!-- deploy/${file} -->`).not.toBeNull();
    expect(block!.text).toBe(fs.readFileSync(path.join(ROOT, 'deploy', file), 'utf8'));
  });
});
