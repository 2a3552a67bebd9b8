// Double-quoted string literals in SQL that people write (view queries, a migration's raw SQL).
// PocketBase 0.22's SQLite accepts `WHERE name != "nobody"`: a double-quoted token that names no
// column is taken as a string (SQLite's DQS misfeature). Our SQLite build has DQS off, so such SQL
// fails with `no such column: "nobody" - should this be a string literal in single-quotes?`.
// Instead of turning DQS on for every statement (our own SQL quotes names with backticks and never
// needs it), SQL from users is prepared through `withStringLiterals`: on exactly that error the
// token SQLite names is rewritten as a single-quoted string and the SQL prepared again, which is
// what DQS does (a token is a string only where it resolves to no column). SQL that prepares as it
// is costs nothing more.

const DQS_ERROR = /^no such column: "((?:[^"]|"")*)" - should this be a string literal in single-quotes\?$/;
/** More rewrites than distinct quoted tokens a statement has is a loop: stop there. */
const MAX_REWRITES = 64;

/** The token SQLite refused as a column, when `err` is its DQS error. */
function refusedToken(err: unknown): string | null {
  const m = DQS_ERROR.exec(err instanceof Error ? err.message : '');
  return m ? m[1].replace(/""/g, '"') : null;
}

/**
 * `sql` with every double-quoted token whose text is `text` written as a single-quoted string.
 * Quoted strings, backtick and bracket names, and comments are skipped whole.
 */
export function requoteToken(sql: string, text: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const close = c === "'" ? "'" : c === '`' ? '`' : c === '[' ? ']' : c === '"' ? '"' : null;
    if (close) {
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) return out + sql.slice(i);
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) j += 2;
          else break;
        } else j++;
      }
      const token = sql.slice(i, j + 1);
      if (c === '"' && token.slice(1, -1).replace(/""/g, '"') === text) out += `'${text.replace(/'/g, "''")}'`;
      else out += token;
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end < 0 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Runs `prepare(sql)`; while it fails with SQLite's DQS error, rewrites the token it names as a
 * string and tries again. Returns the result and the SQL that worked; any other error is thrown.
 */
export function withStringLiterals<T>(sql: string, prepare: (sql: string) => T): { result: T; sql: string } {
  let current = sql;
  for (let attempt = 0; ; attempt++) {
    try {
      return { result: prepare(current), sql: current };
    } catch (err) {
      const token = attempt < MAX_REWRITES ? refusedToken(err) : null;
      if (token === null) throw err;
      const next = requoteToken(current, token);
      if (next === current) throw err;
      current = next;
    }
  }
}
