// CREATE [UNIQUE] INDEX statements as PocketBase 0.22 reads and writes them (tools/dbutils):
// a loose parse into parts, and a normalised rebuild (backtick-quoted names, one column per line
// when there are several, COLLATE / ASC / DESC / expressions / WHERE kept).

export interface IndexColumn {
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
export function splitTopLevel(text: string, separator: string): string[] {
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
  const m = INDEX_RE.exec(statement);
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
export const isExpression = (name: string): boolean => name.includes('(') || name.includes(' ');

export function buildIndex(idx: ParsedIndex): string {
  if (!isValidIndex(idx)) return '';
  let out = 'CREATE ';
  if (idx.unique) out += 'UNIQUE ';
  out += 'INDEX ';
  if (idx.optional) out += 'IF NOT EXISTS ';
  if (idx.schemaName) out += `\`${idx.schemaName}\`.`;
  out += `\`${idx.indexName}\` ON \`${idx.tableName}\` (`;
  const many = idx.columns.length > 1;
  if (many) out += '\n  ';
  const cols = idx.columns
    .filter((c) => c.name.trim() !== '')
    .map((c) => {
      const name = c.name.trim();
      let text = isExpression(c.name) ? name : `\`${name}\``;
      if (c.collate) text += ` COLLATE ${c.collate}`;
      if (c.sort) text += ` ${c.sort.toUpperCase()}`;
      return text;
    });
  out += cols.join(',\n  ');
  if (cols.length && many) out += '\n';
  out += ')';
  if (idx.where) out += ` WHERE ${idx.where}`;
  return out;
}

/**
 * Rewrites an index for a renamed collection/fields: the table becomes `table`, and identifier
 * columns follow their field's rename. The columns are only rewritten when the index still
 * names a column that no longer exists, so an index the client already rewrote (the dashboard
 * does) is left alone, swapped names included.
 */
export function renameInIndex(idx: ParsedIndex, table: string, renamed: Map<string, string>, columnsNow: Set<string>): ParsedIndex {
  const stale = idx.columns.some((c) => !isExpression(c.name) && renamed.has(c.name) && !columnsNow.has(c.name));
  return {
    ...idx,
    tableName: table,
    columns: stale ? idx.columns.map((c) => (isExpression(c.name) ? c : { ...c, name: renamed.get(c.name) ?? c.name })) : idx.columns,
  };
}
