// CREATE [UNIQUE] INDEX statements as PocketBase 0.22 reads and writes them (tools/dbutils), for
// the dashboard and the server alike: a loose parse into parts, and a normalised rebuild
// (backtick-quoted names, one column per line when there are several, COLLATE / ASC / DESC /
// expressions / WHERE kept); renaming the table or a column, and labels for the dashboard's list.

interface IndexColumn {
  /** Identifier or expression. */
  name: string;
  collate: string;
  sort: string;
}

export interface ParsedIndex {
  unique: boolean;
  /** IF NOT EXISTS */
  optional: boolean;
  schemaName: string;
  indexName: string;
  tableName: string;
  columns: IndexColumn[];
  where: string;
}

const INDEX_RE = /create\s+(unique\s+)?\s*index\s*(if\s+not\s+exists\s+)?(\S*)\s+on\s+(\S*?)\s*\(([\s\S]*)\)(?:\s*where\s+([\s\S]*))?/i;
const COLUMN_RE = /^([\s\S]+?)(?:\s+collate\s+(\w+))?(?:\s+(asc|desc))?$/i;
const TRIM_CHARS = '`"\'[]\r\n\t\f\v ';

function trimChars(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && TRIM_CHARS.includes(text[start])) start++;
  while (end > start && TRIM_CHARS.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

/** Splits on `separator` outside quotes and parentheses (PocketBase's tokenizer). */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
    } else if (ch === separator && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

export function parseIndex(statement: string): ParsedIndex {
  const result: ParsedIndex = { unique: false, optional: false, schemaName: '', indexName: '', tableName: '', columns: [], where: '' };
  const m = INDEX_RE.exec(statement ?? '');
  if (!m) return result;
  result.unique = (m[1] ?? '').trim() !== '';
  result.optional = (m[2] ?? '').trim() !== '';
  const nameParts = splitTopLevel(m[3], '.');
  if (nameParts.length === 2) {
    result.schemaName = trimChars(nameParts[0]);
    result.indexName = trimChars(nameParts[1]);
  } else {
    result.indexName = trimChars(nameParts[0] ?? '');
  }
  result.tableName = trimChars(m[4]);
  for (const raw of splitTopLevel(m[5], ',')) {
    const cm = COLUMN_RE.exec(raw);
    if (!cm) continue;
    const name = trimChars(cm[1]);
    if (name === '') continue;
    result.columns.push({ name, collate: (cm[2] ?? '').trim(), sort: (cm[3] ?? '').toUpperCase() });
  }
  result.where = (m[6] ?? '').trim();
  return result;
}

export const isValidIndex = (idx: ParsedIndex): boolean => idx.indexName !== '' && idx.tableName !== '' && idx.columns.length > 0;

/** Whether a column entry is an expression rather than a plain identifier. */
const isExpression = (name: string): boolean => name.includes('(') || name.includes(' ');

/** The normalised statement ('' when it lacks a name, a table or a non-blank column). */
export function buildIndex(idx: ParsedIndex): string {
  const cols = idx.columns.filter((c) => c.name.trim() !== '');
  if (!idx.indexName || !idx.tableName || cols.length === 0) return '';
  let out = 'CREATE ';
  if (idx.unique) out += 'UNIQUE ';
  out += 'INDEX ';
  if (idx.optional) out += 'IF NOT EXISTS ';
  if (idx.schemaName) out += `\`${idx.schemaName}\`.`;
  out += `\`${idx.indexName}\` ON \`${idx.tableName}\` (`;
  const many = cols.length > 1;
  const parts = cols.map((c) => {
    let text = isExpression(c.name) ? c.name.trim() : `\`${c.name.trim()}\``;
    if (c.collate) text += ` COLLATE ${c.collate}`;
    if (c.sort) text += ` ${c.sort.toUpperCase()}`;
    return text;
  });
  out += many ? `\n  ${parts.join(',\n  ')}\n` : parts[0];
  out += ')';
  if (idx.where) out += ` WHERE ${idx.where}`;
  return out;
}

/**
 * Rewrites an index for a renamed collection/fields (the server's save): the table becomes
 * `table`, and identifier columns follow their field's rename. The columns are only rewritten when
 * the index still names a column that no longer exists, so an index the client already rewrote
 * (the dashboard does) is left alone, swapped names included.
 */
export function renameInIndex(idx: ParsedIndex, table: string, renamed: Map<string, string>, columnsNow: Set<string>): ParsedIndex {
  const stale = idx.columns.some((c) => !isExpression(c.name) && renamed.has(c.name) && !columnsNow.has(c.name));
  return {
    ...idx,
    tableName: table,
    columns: stale ? idx.columns.map((c) => (isExpression(c.name) ? c : { ...c, name: renamed.get(c.name) ?? c.name })) : idx.columns,
  };
}

/** A random index name for a table, e.g. idx_aB3dE9x. */
export function randomIndexName(): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = 'idx_';
  for (let i = 0; i < 7; i++) out += chars[Math.floor(Math.random() * chars.length)];
  return out;
}

/** Renaming the collection rewrites the table name of every index. */
export function renameIndexTable(statement: string, table: string): string {
  const idx = parseIndex(statement);
  if (!idx.indexName || !idx.tableName) return statement;
  return buildIndex({ ...idx, tableName: table }) || statement;
}

/** Renaming a field rewrites the index columns that refer to it (expressions left alone). */
export function renameIndexColumn(statement: string, oldName: string, newName: string): string {
  if (!oldName || oldName === newName) return statement;
  const idx = parseIndex(statement);
  if (!idx.columns.some((c) => !isExpression(c.name) && c.name.toLowerCase() === oldName.toLowerCase())) return statement;
  const columns = idx.columns.map((c) => (!isExpression(c.name) && c.name.toLowerCase() === oldName.toLowerCase() ? { ...c, name: newName } : c));
  return buildIndex({ ...idx, columns }) || statement;
}

/** The label of an index in the list: its columns joined, 'Unique: ' first when unique. */
export function indexLabel(statement: string): string {
  const idx = parseIndex(statement);
  const cols = idx.columns.map((c) => c.name).join(', ') || statement;
  return (idx.unique ? 'Unique: ' : '') + cols;
}

/** Duplicating a collection: each index gets a random name and the new table name. */
export function duplicateIndex(statement: string, table: string): string {
  const idx = parseIndex(statement);
  if (!idx.indexName) return statement;
  return buildIndex({ ...idx, indexName: randomIndexName(), tableName: table }) || statement;
}
