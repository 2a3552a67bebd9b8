// The lexer of Go's text/template (the syntax $template's files are written in): text between
// actions, and inside `{{ }}` the words of an action. As Go's: `{{- ` and ` -}}` trim the white
// space next to them, `{{/* */}}` is a comment, an action may span lines, strings are Go strings.
// Errors come back as an 'error' item carrying Go's message.

type ItemType =
  | 'error'
  | 'bool'
  | 'char' // a printable ASCII character not otherwise used (the comma of a range declaration)
  | 'charConstant'
  | 'comment'
  | 'assign'
  | 'declare'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // keywords
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

export interface Item {
  type: ItemType;
  val: string;
  /** Offset in the source. */
  pos: number;
  line: number;
}

const KEYWORDS = new Set<ItemType>(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'nil', 'template', 'with']);

const LEFT = '{{';
const RIGHT = '}}';
const isSpace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isAlnum = (ch: string) => /^[\p{L}\p{Nd}_]$/u.test(ch);

/** Go's item.String(), used in parse errors. */
export function itemString(item: Item): string {
  if (item.type === 'eof') return 'EOF';
  if (item.type === 'error') return item.val;
  if (KEYWORDS.has(item.type)) return `<${item.val}>`;
  if ([...item.val].length > 10) return `${goQuote([...item.val].slice(0, 10).join(''))}...`;
  return goQuote(item.val);
}

/** strconv.Quote, enough for messages. */
export function goQuote(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r')}"`;
}

/** Splits `input` into items, as text/template's lexer does. */
export function lex(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let parenDepth = 0;

  const emit = (type: ItemType, val = input.slice(start, pos)) => {
    items.push({ type, val, pos: start, line: startLine });
    start = pos;
    startLine = line;
  };
  const advance = (n: number) => {
    for (let i = 0; i < n && pos < input.length; i++) {
      if (input[pos] === '\n') line++;
      pos++;
    }
  };
  const ignore = () => {
    start = pos;
    startLine = line;
  };
  const fail = (message: string): false => {
    items.push({ type: 'error', val: message, pos: start, line: startLine });
    return false;
  };
  /** At `}}` or ` -}}`: [is a right delimiter, with the trim marker]. */
  const atRightDelim = (): [boolean, boolean] => {
    if (isSpace(input[pos] ?? '') && input[pos + 1] === '-' && input.startsWith(RIGHT, pos + 2)) return [true, true];
    return [input.startsWith(RIGHT, pos), false];
  };

  const lexText = (): boolean => {
    const at = input.indexOf(LEFT, pos);
    if (at < 0) {
      advance(input.length - pos);
      if (pos > start) emit('text');
      emit('eof', '');
      return false;
    }
    const trim = input[at + LEFT.length] === '-' && isSpace(input[at + LEFT.length + 1] ?? '');
    let textEnd = at;
    if (trim) while (textEnd > start && isSpace(input[textEnd - 1])) textEnd--;
    advance(at - pos);
    if (textEnd > start) emit('text', input.slice(start, textEnd));
    start = pos;
    startLine = line;
    return lexLeftDelim(trim);
  };

  const lexLeftDelim = (trim: boolean): boolean => {
    advance(LEFT.length + (trim ? 2 : 0));
    if (input.startsWith('/*', pos)) {
      // a comment: `{{/*` ... `*/}}`, nothing else inside the delimiters
      ignore();
      const end = input.indexOf('*/', pos + 2);
      if (end < 0) return fail('unclosed comment');
      advance(end + 2 - pos);
      const [delim, trimAfter] = atRightDelim();
      if (!delim) return fail('comment ends before closing delimiter');
      emit('comment');
      advance((trimAfter ? 2 : 0) + RIGHT.length);
      ignore();
      if (trimAfter) skipSpace();
      return true;
    }
    items.push({ type: 'leftDelim', val: LEFT, pos: start, line: startLine });
    ignore();
    parenDepth = 0;
    return lexInsideAction();
  };

  const skipSpace = () => {
    while (pos < input.length && isSpace(input[pos])) advance(1);
    ignore();
  };

  const lexInsideAction = (): boolean => {
    for (;;) {
      const [delim, trim] = atRightDelim();
      if (delim) {
        if (parenDepth !== 0) return fail('unclosed left paren');
        if (trim) {
          advance(1);
          ignore();
          advance(1);
          ignore();
        }
        advance(RIGHT.length);
        emit('rightDelim');
        if (trim) skipSpace();
        return true;
      }
      const ch = input[pos];
      if (ch === undefined) return fail('unclosed action');
      if (isSpace(ch)) {
        // ` -}}` is the trim marker, not a minus sign
        while (pos < input.length && isSpace(input[pos]) && !(input[pos + 1] === '-' && input.startsWith(RIGHT, pos + 2))) advance(1);
        if (pos === start) advance(1);
        emit('space');
        continue;
      }
      if (ch === '=') {
        advance(1);
        emit('assign');
      } else if (ch === ':') {
        if (input[pos + 1] !== '=') return fail('expected :=');
        advance(2);
        emit('declare');
      } else if (ch === '|') {
        advance(1);
        emit('pipe');
      } else if (ch === '"') {
        if (!lexQuote()) return false;
      } else if (ch === '`') {
        const end = input.indexOf('`', pos + 1);
        if (end < 0) return fail('unterminated raw quoted string');
        advance(end + 1 - pos);
        emit('rawString');
      } else if (ch === '$') {
        advance(1);
        if (!lexWord('variable')) return false;
      } else if (ch === "'") {
        if (!lexChar()) return false;
      } else if (ch === '.') {
        if (/[0-9]/.test(input[pos + 1] ?? '')) {
          if (!lexNumber()) return false;
        } else {
          advance(1);
          if (!lexWord('field')) return false;
        }
      } else if (ch === '+' || ch === '-' || /[0-9]/.test(ch)) {
        if (!lexNumber()) return false;
      } else if (isAlnum(ch)) {
        if (!lexIdentifier()) return false;
      } else if (ch === '(') {
        advance(1);
        emit('leftParen');
        parenDepth++;
      } else if (ch === ')') {
        advance(1);
        parenDepth--;
        if (parenDepth < 0) return fail('unexpected right paren');
        emit('rightParen');
      } else if (ch.charCodeAt(0) < 0x7f && ch.charCodeAt(0) >= 0x20) {
        advance(1);
        emit('char');
      } else {
        return fail(`unrecognized character in action: U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
      }
    }
  };

  /** After `.` or `$`: the alphanumeric name (a lone `.` is dot, a lone `$` the data's variable). */
  const lexWord = (type: 'field' | 'variable'): boolean => {
    while (pos < input.length && isAlnum(input[pos])) advance(1);
    if (type === 'field' && pos - start === 1) {
      emit('dot');
      return true;
    }
    if (!atTerminator()) return fail(`bad character U+${(input.codePointAt(pos) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
    emit(type);
    return true;
  };

  const atTerminator = (): boolean => {
    const ch = input[pos];
    if (ch === undefined || isSpace(ch) || '.,|:()'.includes(ch)) return true;
    return input.startsWith(RIGHT, pos);
  };

  const lexIdentifier = (): boolean => {
    while (pos < input.length && isAlnum(input[pos])) advance(1);
    const word = input.slice(start, pos);
    if (!atTerminator()) return fail(`bad character U+${(input.codePointAt(pos) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
    if (KEYWORDS.has(word as ItemType) && word !== 'dot') emit(word as ItemType);
    else if (word === 'true' || word === 'false') emit('bool');
    else emit('identifier');
    return true;
  };

  const lexQuote = (): boolean => {
    advance(1);
    for (;;) {
      const ch = input[pos];
      if (ch === '\\') {
        advance(1);
        if (input[pos] === undefined || input[pos] === '\n') return fail('unterminated quoted string');
      } else if (ch === undefined || ch === '\n') {
        return fail('unterminated quoted string');
      } else if (ch === '"') {
        advance(1);
        emit('string');
        return true;
      }
      advance(1);
    }
  };

  const lexChar = (): boolean => {
    advance(1);
    for (;;) {
      const ch = input[pos];
      if (ch === '\\') {
        advance(1);
        if (input[pos] === undefined || input[pos] === '\n') return fail('unterminated character constant');
      } else if (ch === undefined || ch === '\n') {
        return fail('unterminated character constant');
      } else if (ch === "'") {
        advance(1);
        emit('charConstant');
        return true;
      }
      advance(1);
    }
  };

  const lexNumber = (): boolean => {
    const m = /^[+-]?(0[xX][0-9a-fA-F_]*(\.[0-9a-fA-F_]*)?([pP][+-]?[0-9_]+)?|0[bB][01_]+|0[oO][0-7_]+|[0-9_]*(\.[0-9_]*)?([eE][+-]?[0-9_]+)?)i?/.exec(input.slice(pos));
    const text = m ? m[0] : '';
    advance(text.length);
    if (isAlnum(input[pos] ?? '') || pos === start) {
      while (pos < input.length && !atTerminator()) advance(1);
      return fail(`bad number syntax: ${goQuote(input.slice(start, pos))}`);
    }
    emit('number');
    return true;
  };

  for (;;) {
    if (!lexText()) break;
  }
  return items;
}
