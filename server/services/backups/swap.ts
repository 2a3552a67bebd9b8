// Replacing the data dir's content with an extracted backup so that a crash at any point leaves
// either the old or the new content, never a mix. Every step is a rename inside one file system,
// and a small journal (written atomically before each phase) says how to finish or roll back;
// recoverDataDir() reads it at the next start, before any database is opened.
import fs from 'node:fs';
import path from 'node:path';
import { EXCLUDED_ROOT_ENTRIES } from './archive';
import { TEMP_DIR_NAME } from './temp';

const JOURNAL = 'restore-journal.json';

interface Journal {
  /** moving-old: old entries going to `oldDir`; moving-new: new entries coming in; swapped: done. */
  phase: 'moving-old' | 'moving-new' | 'swapped';
  oldDir: string;
  newDir: string;
  newEntries: string[];
}

const movable = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !EXCLUDED_ROOT_ENTRIES.includes(n)) : [];

/** A directory's entries (after renames) on the disk, where the platform can fsync a directory. */
export function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* not every platform can fsync a directory */
  }
}

function writeJournal(dataDir: string, j: Journal): void {
  const temp = path.join(dataDir, TEMP_DIR_NAME);
  const file = path.join(temp, JOURNAL);
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, JSON.stringify(j));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  fsyncDir(temp);
}

function readJournal(dataDir: string): Journal | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, TEMP_DIR_NAME, JOURNAL), 'utf8')) as Journal;
  } catch {
    return null;
  }
}

/** Test hook: the process kills itself after this many renames (proves crash safety). */
function crashPoint(): () => void {
  const limit = Number(process.env.OUTPOST_TEST_CRASH_AFTER_RENAMES);
  let n = 0;
  return () => {
    if (Number.isFinite(limit) && limit > 0 && ++n >= limit) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * Moves the data dir's content (except backups and the temp folder) aside and the content of
 * `newDir` (inside the temp folder) in. Throws on failure after rolling back.
 */
export function swapDataDir(dataDir: string, newDir: string): void {
  const temp = path.join(dataDir, TEMP_DIR_NAME);
  const oldDir = path.join(temp, `old_pb_data_${Date.now().toString(36)}`);
  fs.mkdirSync(oldDir, { recursive: true });
  // paths relative to the temp folder (the data dir may move between runs)
  const j: Journal = { phase: 'moving-old', oldDir: path.relative(temp, oldDir), newDir: path.relative(temp, newDir), newEntries: movable(newDir) };
  const tick = crashPoint();
  try {
    writeJournal(dataDir, j);
    for (const name of movable(dataDir)) {
      fs.renameSync(path.join(dataDir, name), path.join(oldDir, name));
      tick();
    }
    writeJournal(dataDir, { ...j, phase: 'moving-new' });
    for (const name of j.newEntries) {
      fs.renameSync(path.join(newDir, name), path.join(dataDir, name));
      tick();
    }
    fsyncDir(dataDir);
    writeJournal(dataDir, { ...j, phase: 'swapped' });
  } catch (err) {
    rollBack(dataDir);
    throw err;
  }
}

/** Undoes a swap (finished or not): the old content back in place, the new one aside. */
export function rollBack(dataDir: string): void {
  const j = readJournal(dataDir);
  if (!j) return;
  const temp = path.join(dataDir, TEMP_DIR_NAME);
  const oldDir = path.join(temp, j.oldDir);
  const newDir = path.join(temp, j.newDir);
  if (j.phase !== 'moving-old') {
    // every old entry is aside: what is in the data dir now came from the backup
    fs.mkdirSync(newDir, { recursive: true });
    for (const name of j.newEntries) {
      const p = path.join(dataDir, name);
      if (fs.existsSync(p)) fs.renameSync(p, path.join(newDir, name));
    }
  }
  for (const name of movable(oldDir)) {
    fs.renameSync(path.join(oldDir, name), path.join(dataDir, name));
  }
  fsyncDir(dataDir);
  fs.rmSync(path.join(temp, JOURNAL), { force: true });
}

/**
 * At start, before the databases open: finishes a restore that got as far as 'swapped', rolls
 * back one that did not, then empties the temp folder (as 0.22 does at every start).
 */
export function recoverDataDir(dataDir: string): 'none' | 'rolled-back' | 'completed' {
  const j = readJournal(dataDir);
  let outcome: 'none' | 'rolled-back' | 'completed' = 'none';
  if (j && j.phase !== 'swapped') {
    rollBack(dataDir);
    outcome = 'rolled-back';
  } else if (j) {
    outcome = 'completed';
  }
  fs.rmSync(path.join(dataDir, TEMP_DIR_NAME), { recursive: true, force: true });
  return outcome;
}

/** After a successful restart on the new content: forget the old one (removed in the background). */
export async function finishSwap(dataDir: string): Promise<void> {
  const j = readJournal(dataDir);
  if (!j) return;
  const temp = path.join(dataDir, TEMP_DIR_NAME);
  fs.rmSync(path.join(temp, JOURNAL), { force: true });
  const tops = new Set([j.oldDir, j.newDir].map((d) => d.split(path.sep)[0]));
  await Promise.all([...tops].map((d) => fs.promises.rm(path.join(temp, d), { recursive: true, force: true })));
}
