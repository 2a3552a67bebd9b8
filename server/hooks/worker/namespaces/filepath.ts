// `$filepath`: Go's path/filepath (Unix), whose answers differ from node:path's in places hook
// code may rely on: clean("") is ".", base("") is "." and base("/") is "/", ext(".bashrc") is
// ".bashrc", join skips empty elements and gives "" for none, split keeps the slash on the
// directory, rel fails across absolute and relative paths, match is Go's pattern syntax (a bad
// pattern throws "syntax error in pattern"), and glob, walk and walkDir visit in lexical order.
import fs from 'node:fs';
import { namespace } from '../../../migrations/js-unsupported';
import { infoEntry, lstatInfo, pathError, readDirEntries, type DirEntry, type FileInfo } from './fs-info';

const BAD_PATTERN = 'syntax error in pattern';

/** Go's filepath.Clean: the shortest equivalent path, lexically. */
function clean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length && parts[parts.length - 1] !== '..') parts.pop();
      else if (!rooted) parts.push('..');
      continue;
    }
    parts.push(part);
  }
  const out = (rooted ? '/' : '') + parts.join('/');
  return out || (rooted ? '/' : '.');
}

const split = (p: string): [string, string] => {
  const at = p.lastIndexOf('/') + 1;
  return [p.slice(0, at), p.slice(at)];
};

function join(...elems: unknown[]): string {
  const parts = elems.map(String).filter((e) => e !== '');
  return parts.length ? clean(parts.join('/')) : '';
}

function base(p: string): string {
  if (p === '') return '.';
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

const dir = (p: string) => clean(split(p)[0]);

function ext(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

/** Go's filepath.Rel: targ relative to basepath, lexically. */
function rel(basepath: string, targpath: string): string {
  let b = clean(basepath);
  const t = clean(targpath);
  if (t === b) return '.';
  if (b === '.') b = '';
  if (b.startsWith('/') !== t.startsWith('/')) throw new Error(`Rel: can't make ${targpath} relative to ${basepath}`);
  const segments = (x: string) => (x === '' || x === '.' || x === '/' ? [] : x.replace(/^\//, '').split('/'));
  const bp = segments(b);
  const tp = segments(t);
  let i = 0;
  while (i < bp.length && i < tp.length && bp[i] === tp[i]) i++;
  if (bp[i] === '..') throw new Error(`Rel: can't make ${targpath} relative to ${basepath}`);
  return [...bp.slice(i).map(() => '..'), ...tp.slice(i)].join('/') || '.';
}

/** Go's scanChunk: leading stars, then the chunk up to the next star outside a class. */
function scanChunk(pattern: string[]): { star: boolean; chunk: string[]; rest: string[] } {
  let i = 0;
  while (i < pattern.length && pattern[i] === '*') i++;
  const star = i > 0;
  const p = pattern.slice(i);
  let inRange = false;
  let j = 0;
  for (; j < p.length; j++) {
    if (p[j] === '\\') {
      if (j + 1 < p.length) j++;
    } else if (p[j] === '[') inRange = true;
    else if (p[j] === ']') inRange = false;
    else if (p[j] === '*' && !inRange) break;
  }
  return { star, chunk: p.slice(0, j), rest: p.slice(j) };
}

/** Go's getEsc: one (possibly escaped) character of a class. */
function getEsc(chunk: string[]): { r: string; rest: string[] } {
  if (!chunk.length || chunk[0] === '-' || chunk[0] === ']') throw new Error(BAD_PATTERN);
  let c = chunk;
  if (c[0] === '\\') {
    c = c.slice(1);
    if (!c.length) throw new Error(BAD_PATTERN);
  }
  const rest = c.slice(1);
  if (!rest.length) throw new Error(BAD_PATTERN);
  return { r: c[0], rest };
}

/** Go's matchChunk: the rest of `s` after `chunk` matched its start, or null. */
function matchChunk(chunkIn: string[], sIn: string[]): string[] | null {
  let chunk = chunkIn;
  let s = sIn;
  let failed = false;
  while (chunk.length) {
    if (!failed && !s.length) failed = true;
    const c = chunk[0];
    if (c === '[') {
      let r = '';
      if (!failed) {
        r = s[0];
        s = s.slice(1);
      }
      chunk = chunk.slice(1);
      let negated = false;
      if (chunk[0] === '^') {
        negated = true;
        chunk = chunk.slice(1);
      }
      let match = false;
      let ranges = 0;
      for (;;) {
        if (chunk.length && chunk[0] === ']' && ranges > 0) {
          chunk = chunk.slice(1);
          break;
        }
        const lo = getEsc(chunk);
        let hi = lo.r;
        chunk = lo.rest;
        if (chunk[0] === '-') {
          const h = getEsc(chunk.slice(1));
          hi = h.r;
          chunk = h.rest;
        }
        if (!failed && lo.r.codePointAt(0)! <= r.codePointAt(0)! && r.codePointAt(0)! <= hi.codePointAt(0)!) match = true;
        ranges++;
      }
      if (match === negated) failed = true;
    } else if (c === '?') {
      if (!failed) {
        if (s[0] === '/') failed = true;
        s = s.slice(1);
      }
      chunk = chunk.slice(1);
    } else {
      if (c === '\\') {
        chunk = chunk.slice(1);
        if (!chunk.length) throw new Error(BAD_PATTERN);
      }
      if (!failed) {
        if (chunk[0] !== s[0]) failed = true;
        s = s.slice(1);
      }
      chunk = chunk.slice(1);
    }
  }
  return failed ? null : s;
}

/** Go's filepath.Match: whether `name` matches the shell pattern (a bad pattern throws). */
function match(patternText: string, nameText: string): boolean {
  let pattern = Array.from(patternText);
  let name = Array.from(nameText);
  outer: while (pattern.length) {
    const { star, chunk, rest } = scanChunk(pattern);
    pattern = rest;
    if (star && !chunk.length) return !name.includes('/');
    const t = matchChunk(chunk, name);
    if (t && (!t.length || pattern.length)) {
      name = t;
      continue;
    }
    if (star) {
      for (let i = 0; i < name.length && name[i] !== '/'; i++) {
        const t2 = matchChunk(chunk, name.slice(i + 1));
        if (t2) {
          if (!pattern.length && t2.length) continue;
          name = t2;
          continue outer;
        }
      }
    }
    while (pattern.length) {
      const next = scanChunk(pattern);
      pattern = next.rest;
      matchChunk(next.chunk, []);
    }
    return false;
  }
  return !name.length;
}

const hasMeta = (p: string) => /[*?[\\]/.test(p);

/** Go's filepath.Glob: the names matching the pattern (I/O errors ignored), sorted per folder. */
function glob(pattern: string): string[] {
  match(pattern, '');
  if (!hasMeta(pattern)) {
    try {
      fs.lstatSync(pattern);
      return [pattern];
    } catch {
      return [];
    }
  }
  const [rawDir, file] = split(pattern);
  const d = rawDir === '' ? '.' : rawDir === '/' ? rawDir : rawDir.slice(0, -1);
  if (hasMeta(d) && d === pattern) throw new Error(BAD_PATTERN);
  const dirs = hasMeta(d) ? glob(d) : [d];
  const out: string[] = [];
  for (const folder of dirs) {
    let names: string[];
    try {
      if (!fs.statSync(folder).isDirectory()) continue;
      names = fs.readdirSync(folder).sort();
    } catch {
      continue;
    }
    for (const n of names) if (match(file, n)) out.push(join(folder, n));
  }
  return out;
}

type WalkFn = (path: string, info: unknown, err: unknown) => unknown;

/** A walk callback's answer as Go's error: a returned Error stops the walk with it. */
function callback(fn: WalkFn, p: string, info: unknown, err: Error | null): Error | null {
  const r = fn(p, info, err);
  return r instanceof Error ? r : null;
}

function walkFrom(p: string, info: FileInfo, fn: WalkFn): Error | null {
  if (!info.isDir()) return callback(fn, p, info, null);
  let names: string[] = [];
  let readError: Error | null = null;
  try {
    names = fs.readdirSync(p).sort();
  } catch (err) {
    readError = pathError('open', p, err);
  }
  const stop = callback(fn, p, info, readError);
  if (readError || stop) return stop;
  for (const name of names) {
    const child = join(p, name);
    let childInfo: FileInfo;
    try {
      childInfo = lstatInfo(child);
    } catch (err) {
      const e = callback(fn, child, null, err as Error);
      if (e) return e;
      continue;
    }
    const e = walkFrom(child, childInfo, fn);
    if (e) return e;
  }
  return null;
}

function walkDirFrom(p: string, d: DirEntry, fn: WalkFn): Error | null {
  const stop = callback(fn, p, d, null);
  if (stop || !d.isDir()) return stop;
  let entries: DirEntry[] = [];
  try {
    entries = readDirEntries(p);
  } catch (err) {
    const e = callback(fn, p, d, err as Error);
    if (e) return e;
  }
  for (const entry of entries) {
    const e = walkDirFrom(join(p, entry.name()), entry, fn);
    if (e) return e;
  }
  return null;
}

/** Go's filepath.Walk / WalkDir: fn(path, info or entry, error) for the root and everything under it. */
function walk(root: string, fn: unknown, entries: boolean): void {
  if (typeof fn !== 'function') throw new TypeError('walk expects a function (path, info, err)');
  let info: FileInfo | null = null;
  let err: Error | null = null;
  try {
    info = lstatInfo(root);
  } catch (e) {
    err = e as Error;
  }
  const result = info ? (entries ? walkDirFrom(root, infoEntry(info), fn as WalkFn) : walkFrom(root, info, fn as WalkFn)) : callback(fn as WalkFn, root, null, err);
  if (result) throw result;
}

export function filepathNamespace(): object {
  const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return namespace('$filepath', {
    base: (p: unknown) => base(s(p)),
    clean: (p: unknown) => clean(s(p)),
    dir: (p: unknown) => dir(s(p)),
    ext: (p: unknown) => ext(s(p)),
    fromSlash: (p: unknown) => s(p),
    toSlash: (p: unknown) => s(p),
    glob: (p: unknown) => glob(s(p)),
    isAbs: (p: unknown) => s(p).startsWith('/'),
    join,
    match: (pattern: unknown, name: unknown) => match(s(pattern), s(name)),
    rel: (b: unknown, t: unknown) => rel(s(b), s(t)),
    split: (p: unknown) => split(s(p)),
    splitList: (p: unknown) => (s(p) === '' ? [] : s(p).split(':')),
    walk: (root: unknown, fn: unknown) => walk(s(root), fn, false),
    walkDir: (root: unknown, fn: unknown) => walk(s(root), fn, true),
  });
}
