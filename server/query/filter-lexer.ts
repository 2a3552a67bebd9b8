// Tokeniser for the filter language. Character classes follow fexpr: identifiers start with a
// letter, `_`, `@` or `#` and continue with word characters, `.` and `:`; `//` starts a comment
// running to the end of the line; a backslash escapes only the quote that opened the text.
import { COMPARE_OPS, FilterError } from './filter-ast';

export type Token =
  | { kind: 'identifier'; text: string; pos: number }
  | { kind: 'text'; text: string; pos: number }
  | { kind: 'number'; text: string; pos: number }
  | { kind: 'op'; text: string; pos: number }
  | { kind: 'join'; text: '&&' | '||'; pos: number }
  | { kind: 'lparen' | 'rparen'; text: string; pos: number };

const OPS = new Set<string>(COMPARE_OPS);
const IDENTIFIER = /^[@#_]?[\w.:]*\w$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

const isWs = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdentStart = (c: string) => /[A-Za-z_@#]/.test(c);
const isIdentPart = (c: string) => /[\w.:@#]/.test(c);
const isOpChar = (c: string) => '=!<>~?'.includes(c);

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    const pos = i;
    if (isWs(c)) {
      i++;
    } else if (c === '/' && input[i + 1] === '/') {
      while (i < input.length && input[i] !== '\n') i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'lparen' : 'rparen', text: c, pos });
      i++;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let out = '';
      let closed = false;
      while (j < input.length) {
        const ch = input[j];
        if (ch === '\\' && input[j + 1] === c) {
          out += c;
          j += 2;
          continue;
        }
        if (ch === c) {
          closed = true;
          j++;
          break;
        }
        out += ch;
        j++;
      }
      if (!closed) throw new FilterError(`invalid quoted text at position ${pos}`);
      tokens.push({ kind: 'text', text: out, pos });
      i = j;
    } else if (isDigit(c) || (c === '-' && isDigit(input[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < input.length && (isDigit(input[j]) || input[j] === '.')) j++;
      const text = input.slice(i, j);
      if (!NUMBER.test(text)) throw new FilterError(`invalid number ${JSON.stringify(text)}`);
      tokens.push({ kind: 'number', text, pos });
      i = j;
    } else if (isIdentStart(c)) {
      let j = i + 1;
      while (j < input.length && isIdentPart(input[j])) j++;
      const text = input.slice(i, j);
      if (!IDENTIFIER.test(text)) throw new FilterError(`invalid identifier ${JSON.stringify(text)}`);
      tokens.push({ kind: 'identifier', text, pos });
      i = j;
    } else if (isOpChar(c)) {
      let j = i + 1;
      while (j < input.length && isOpChar(input[j])) j++;
      const text = input.slice(i, j);
      if (!OPS.has(text)) throw new FilterError(`invalid sign operator ${JSON.stringify(text)}`);
      tokens.push({ kind: 'op', text, pos });
      i = j;
    } else if (c === '&' || c === '|') {
      const text = input.slice(i, i + 2);
      if (text !== '&&' && text !== '||') throw new FilterError(`invalid join operator at position ${pos}`);
      tokens.push({ kind: 'join', text, pos });
      i += 2;
    } else {
      throw new FilterError(`unexpected character ${JSON.stringify(c)} at position ${pos}`);
    }
  }
  return tokens;
}
