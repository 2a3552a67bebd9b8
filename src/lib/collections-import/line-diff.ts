// A side-by-side line diff (old left, new right) for the import review popup: the longest common
// subsequence of lines, with each block of removed and added lines paired up as changed rows.

export type DiffLine = { no: number; text: string };

export type DiffRow =
  | { type: 'same'; left: DiffLine; right: DiffLine }
  | { type: 'changed'; left: DiffLine; right: DiffLine }
  | { type: 'removed'; left: DiffLine; right: null }
  | { type: 'added'; left: null; right: DiffLine };

/** Above this many LCS cells the differing middle is shown as one replaced block. */
const MAX_CELLS = 4_000_000;

type Op = { op: 'eq' | 'del' | 'ins'; a: number; b: number };

function splitLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

function lcsOps(a: string[], b: string[], a0: number, a1: number, b0: number, b1: number): Op[] {
  const n = a1 - a0;
  const m = b1 - b0;
  const ops: Op[] = [];
  if (n * m > MAX_CELLS) {
    for (let i = a0; i < a1; i++) ops.push({ op: 'del', a: i, b: -1 });
    for (let j = b0; j < b1; j++) ops.push({ op: 'ins', a: -1, b: j });
    return ops;
  }
  // len[i][j] = LCS length of a[a0+i..a1) and b[b0+j..b1)
  const w = m + 1;
  const len = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * w + j] = a[a0 + i] === b[b0 + j] ? len[(i + 1) * w + j + 1] + 1 : Math.max(len[(i + 1) * w + j], len[i * w + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[a0 + i] === b[b0 + j]) {
      ops.push({ op: 'eq', a: a0 + i, b: b0 + j });
      i++;
      j++;
    } else if (len[(i + 1) * w + j] >= len[i * w + j + 1]) {
      ops.push({ op: 'del', a: a0 + i, b: -1 });
      i++;
    } else {
      ops.push({ op: 'ins', a: -1, b: b0 + j });
      j++;
    }
  }
  for (; i < n; i++) ops.push({ op: 'del', a: a0 + i, b: -1 });
  for (; j < m; j++) ops.push({ op: 'ins', a: -1, b: b0 + j });
  return ops;
}

/** Rows of a side-by-side diff between two texts (line numbers start at 1). */
export function diffLines(oldText: string, newText: string): DiffRow[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }

  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ op: 'eq', a: i, b: i });
  ops.push(...lcsOps(a, b, start, endA, start, endB));
  for (let i = endA, j = endB; i < a.length; i++, j++) ops.push({ op: 'eq', a: i, b: j });

  const rows: DiffRow[] = [];
  const line = (list: string[], idx: number): DiffLine => ({ no: idx + 1, text: list[idx] });
  let k = 0;
  while (k < ops.length) {
    const o = ops[k];
    if (o.op === 'eq') {
      rows.push({ type: 'same', left: line(a, o.a), right: line(b, o.b) });
      k++;
      continue;
    }
    const dels: number[] = [];
    const inss: number[] = [];
    while (k < ops.length && ops[k].op !== 'eq') {
      if (ops[k].op === 'del') dels.push(ops[k].a);
      else inss.push(ops[k].b);
      k++;
    }
    const pairs = Math.min(dels.length, inss.length);
    for (let p = 0; p < pairs; p++) rows.push({ type: 'changed', left: line(a, dels[p]), right: line(b, inss[p]) });
    for (let p = pairs; p < dels.length; p++) rows.push({ type: 'removed', left: line(a, dels[p]), right: null });
    for (let p = pairs; p < inss.length; p++) rows.push({ type: 'added', left: null, right: line(b, inss[p]) });
  }
  return rows;
}

/** Whether a diff has any difference. */
export function hasDifferences(rows: readonly DiffRow[]): boolean {
  return rows.some((r) => r.type !== 'same');
}

export type DiffItem = { kind: 'row'; row: DiffRow } | { kind: 'skip'; from: number; count: number };

/**
 * Folds long runs of unchanged rows, keeping `context` rows around each change; a fold covers
 * rows [from, from + count) of the input. Runs shorter than 2 * context + 2 stay open.
 */
export function foldUnchanged(rows: readonly DiffRow[], context = 3): DiffItem[] {
  const keep = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.type === 'same') return;
    for (let k = Math.max(0, i - context); k <= Math.min(rows.length - 1, i + context); k++) keep[k] = true;
  });
  const out: DiffItem[] = [];
  let i = 0;
  while (i < rows.length) {
    if (keep[i]) {
      out.push({ kind: 'row', row: rows[i] });
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && !keep[j]) j++;
    if (j - i >= 2) out.push({ kind: 'skip', from: i, count: j - i });
    else for (let k = i; k < j; k++) out.push({ kind: 'row', row: rows[k] });
    i = j;
  }
  return out;
}
