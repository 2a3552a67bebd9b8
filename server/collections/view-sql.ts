// Just enough SQL structure for view queries: a tokenizer that knows SQLite's quotes, comments and
// parameters, and a reader for the statement's top-level shape (its kind, the main SELECT list and
// the FROM tables with their aliases). SQLite itself compiles the query afterwards; this only
// answers the questions it cannot (was `*` used, which items lack an alias, which table is `t`).

export interface Token {
  kind: 'word' | 'quoted' | 'string' | 'number' | 'param' | 'punct';
  /** Source text (quoted identifiers unquoted). */
  text: string;
  /** Parenthesis depth the token sits at. */
  depth: number;
}

export class ViewSqlError extends Error {}

/** Tokens of `sql` without whitespace and comments (the SQL console reads them too). Throws ViewSqlError on unterminated quotes. */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let depth = 0;
  let i = 0;
  const push = (kind: Token['kind'], text: string) => out.push({ kind, text, depth });
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) throw new ViewSqlError(`unrecognized token: unterminated ${c} quote`);
        if (sql[j] === close) {
          // a doubled quote is an escaped quote (not inside [...])
          if (close !== ']' && sql[j + 1] === close) {
            text += close;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j++];
      }
      push(c === "'" ? 'string' : 'quoted', text);
      i = j + 1;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[\w$\u0080-\uffff]/.test(sql[j])) j++;
      push('word', sql.slice(i, j));
      i = j;
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(sql[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < sql.length && /[\w.]/.test(sql[j])) j++;
      push('number', sql.slice(i, j));
      i = j;
    } else if (c === '?' || ((c === ':' || c === '@' || c === '$') && /[\w]/.test(sql[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < sql.length && /[\w]/.test(sql[j])) j++;
      push('param', sql.slice(i, j));
      i = j;
    } else {
      if (c === ')') depth = Math.max(0, depth - 1);
      push('punct', c);
      if (c === '(') depth++;
      i++;
    }
  }
  return out;
}

const isWord = (t: Token | undefined, ...words: string[]): boolean =>
  !!t && t.kind === 'word' && words.includes(t.text.toUpperCase());

/** Words that end a SELECT list or FROM clause at the top level. */
const CLAUSE_END = ['WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'UNION', 'EXCEPT', 'INTERSECT'];
/** Words that can end an expression but are never an implicit alias. */
const OPERATOR_WORDS = new Set([
  'AND', 'OR', 'NOT', 'IS', 'IN', 'LIKE', 'GLOB', 'REGEXP', 'MATCH', 'THEN', 'ELSE', 'WHEN', 'CASE', 'DISTINCT', 'ALL',
  'COLLATE', 'ESCAPE', 'BETWEEN', 'AS',
]);
const NOT_ALIAS = new Set([...OPERATOR_WORDS, 'END', 'NULL', 'TRUE', 'FALSE', 'CURRENT_TIME', 'CURRENT_DATE', 'CURRENT_TIMESTAMP', 'ASC', 'DESC']);

interface SelectItem {
  /** Expression tokens (alias removed). */
  expr: Token[];
  /** Source-like text of the expression, for messages. */
  exprText: string;
  /** Explicit alias, or the column name of a plain column reference; '' for an unnamed expression. */
  name: string;
  explicitAlias: boolean;
  /** `*` or `t.*`. */
  wildcard: boolean;
  /** For a plain column reference `[t.]c`: the qualifier (or '') and column. */
  ref?: { table: string; column: string };
}

interface FromTable {
  name: string;
  alias: string;
}

export interface ParsedSelect {
  /** First keyword of the statement, upper-cased (SELECT, WITH, DELETE, ...). */
  keyword: string;
  /** Tokens after the first top-level `;` other than trailing ones. */
  multipleStatements: boolean;
  /** Whether the statement has `?`, `:name`, `@name` or `$name` parameters. */
  hasParams: boolean;
  items: SelectItem[];
  from: FromTable[];
}

function tokensText(tokens: Token[]): string {
  let out = '';
  tokens.forEach((t, i) => {
    const text = t.kind === 'quoted' ? `"${t.text}"` : t.kind === 'string' ? `'${t.text}'` : t.text;
    const prev = tokens[i - 1];
    const tight = !prev || t.text === '(' || t.text === ')' || t.text === ',' || t.text === '.' || prev.text === '(' || prev.text === '.';
    out += (tight ? '' : ' ') + text;
  });
  return out;
}

/** Splits `tokens` at top-level (depth 0) commas. */
function splitTop(tokens: Token[], depth: number): Token[][] {
  const parts: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ',' && t.depth === depth) parts.push([]);
    else parts[parts.length - 1].push(t);
  }
  return parts.filter((p) => p.length > 0);
}

const isName = (t: Token | undefined): boolean => !!t && (t.kind === 'quoted' || (t.kind === 'word' && !NOT_ALIAS.has(t.text.toUpperCase())));

function readItem(tokens: Token[]): SelectItem {
  let expr = tokens;
  let name = '';
  let explicitAlias = false;
  const last = tokens[tokens.length - 1];
  const before = tokens[tokens.length - 2];
  if (tokens.length >= 3 && isWord(before, 'AS') && (isName(last) || last.kind === 'string')) {
    expr = tokens.slice(0, -2);
    name = last.text;
    explicitAlias = true;
  } else if (
    tokens.length >= 2 &&
    (isName(last) || last.kind === 'string') &&
    !(before.kind === 'punct' && before.text !== ')') &&
    !(before.kind === 'word' && OPERATOR_WORDS.has(before.text.toUpperCase()))
  ) {
    // implicit alias: `expr name` (a name right after another operand, never after an operator or a dot)
    expr = tokens.slice(0, -1);
    name = last.text;
    explicitAlias = true;
  }
  const wildcard = expr[expr.length - 1]?.text === '*' && (expr.length === 1 || (expr.length === 3 && expr[1].text === '.'));
  let ref: SelectItem['ref'];
  const names = expr.filter((_, i) => i % 2 === 0);
  const dots = expr.filter((_, i) => i % 2 === 1);
  if (expr.length % 2 === 1 && expr.length <= 5 && names.every(isName) && dots.every((t) => t.text === '.')) {
    ref = { table: expr.length > 1 ? names[names.length - 2].text : '', column: names[names.length - 1].text };
    if (!name) name = ref.column;
  }
  return { expr, exprText: tokensText(expr), name, explicitAlias, wildcard, ref };
}

/** Tables of a top-level FROM clause (subqueries and table functions have no name). */
function readFrom(tokens: Token[]): FromTable[] {
  const tables: FromTable[] = [];
  // sources are separated by commas and JOIN operators; ON/USING constraints are skipped
  const sources: Token[][] = [[]];
  let skipping = false;
  for (const t of tokens) {
    if (t.depth === 0 && (t.text === ',' || isWord(t, 'JOIN'))) {
      sources.push([]);
      skipping = false;
    } else if (t.depth === 0 && isWord(t, 'ON', 'USING', 'NATURAL', 'LEFT', 'RIGHT', 'FULL', 'INNER', 'CROSS', 'OUTER')) {
      skipping = isWord(t, 'ON', 'USING');
    } else if (!skipping) {
      sources[sources.length - 1].push(t);
    }
  }
  for (const src of sources) {
    const top = src.filter((t) => t.depth === 0);
    if (!isName(top[0]) || (top[1] && top[1].text === '(')) continue;
    let name = top[0].text;
    let rest = top.slice(1);
    if (rest[0]?.text === '.' && isName(rest[1])) {
      name = rest[1].text;
      rest = rest.slice(2);
    }
    if (isWord(rest[0], 'AS')) rest = rest.slice(1);
    tables.push({ name, alias: isName(rest[0]) ? rest[0].text : name });
  }
  return tables;
}

/** The statement's kind, main SELECT list and FROM tables. */
export function parseSelect(sql: string): ParsedSelect {
  const all = tokenize(sql);
  // trailing semicolons are tolerated; anything after another one is a second statement
  while (all.length && all[all.length - 1].text === ';' && all[all.length - 1].kind === 'punct') all.pop();
  const semi = all.findIndex((t) => t.kind === 'punct' && t.text === ';');
  const tokens = semi < 0 ? all : all.slice(0, semi);
  const keyword = tokens[0]?.kind === 'word' ? tokens[0].text.toUpperCase() : (tokens[0]?.text ?? '');
  const hasParams = tokens.some((t) => t.kind === 'param');
  const result: ParsedSelect = { keyword, multipleStatements: semi >= 0, hasParams, items: [], from: [] };

  const start = tokens.findIndex((t) => t.depth === 0 && isWord(t, 'SELECT'));
  if (start < 0) return result;
  let i = start + 1;
  if (isWord(tokens[i], 'DISTINCT', 'ALL')) i++;
  const list: Token[] = [];
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.depth === 0 && (isWord(t, 'FROM', ...CLAUSE_END))) break;
    list.push(t);
  }
  result.items = splitTop(list, 0).map(readItem);
  if (isWord(tokens[i], 'FROM')) {
    const from: Token[] = [];
    for (i++; i < tokens.length && !(tokens[i].depth === 0 && isWord(tokens[i], ...CLAUSE_END)); i++) from.push(tokens[i]);
    result.from = readFrom(from);
  }
  return result;
}
