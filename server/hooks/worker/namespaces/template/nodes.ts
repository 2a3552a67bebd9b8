// The trees of Go's text/template (parse.ts builds them, exec.ts runs them): the node types, how
// Go prints a node in its messages, which trees count as empty, and Go's literal syntax.

export interface TextNode { type: 'text'; pos: number; text: string }
interface CommentNode { type: 'comment'; pos: number }
interface ActionNode { type: 'action'; pos: number; line: number; pipe: PipeNode }
export interface BranchNode { type: 'if' | 'range' | 'with'; pos: number; line: number; pipe: PipeNode; list: ListNode; elseList: ListNode | null }
export interface TemplateNode { type: 'template'; pos: number; line: number; name: string; pipe: PipeNode | null }
interface LoopControlNode { type: 'break' | 'continue'; pos: number; line: number }
export type Node = TextNode | CommentNode | ActionNode | BranchNode | TemplateNode | LoopControlNode | ListNode;
export interface ListNode { type: 'list'; pos: number; nodes: Node[] }

export interface PipeNode { type: 'pipe'; pos: number; line: number; isAssign: boolean; decl: VariableNode[]; cmds: CommandNode[] }
export interface CommandNode { type: 'command'; pos: number; args: ArgNode[] }
interface FieldNode { type: 'field'; pos: number; ident: string[] }
interface VariableNode { type: 'variable'; pos: number; ident: string[] }
interface ChainNode { type: 'chain'; pos: number; node: ArgNode; field: string[] }
interface IdentifierNode { type: 'identifier'; pos: number; name: string }
interface LiteralNode {
  type: 'string' | 'number' | 'bool' | 'nil' | 'dot';
  pos: number;
  /** The source text (a string's quoted form, a number as written). */
  text: string;
  value: unknown;
}
export type ArgNode = FieldNode | VariableNode | ChainNode | IdentifierNode | LiteralNode | PipeNode;

export interface Tree {
  name: string;
  /** The name of the text it was parsed from (a file's base name): where errors point. */
  parseName: string;
  source: string;
  root: ListNode;
}

export class TemplateError extends Error {}

/** A node as Go prints it in messages (`.a.b`, `index .x 1`, `$v := .list`). */
export function nodeString(n: ArgNode | CommandNode): string {
  switch (n.type) {
    case 'field':
      return `.${n.ident.join('.')}`;
    case 'variable':
      return n.ident.join('.');
    case 'chain':
      return `${n.node.type === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node)}.${n.field.join('.')}`;
    case 'identifier':
      return n.name;
    case 'command':
      return n.args.map((a) => (a.type === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'pipe': {
      const decl = n.decl.length ? `${n.decl.map((d) => d.ident.join('.')).join(', ')} ${n.isAssign ? '=' : ':='} ` : '';
      return decl + n.cmds.map(nodeString).join(' | ');
    }
    default:
      return n.text;
  }
}

/** Go's parse.IsEmptyTree: only white space, comments and definitions. */
export function isEmptyTree(n: Node | null): boolean {
  if (!n) return true;
  if (n.type === 'list') return n.nodes.every(isEmptyTree);
  if (n.type === 'text') return n.text.trim() === '';
  return n.type === 'comment';
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/** strconv.Unquote of a "..." / `...` / '.' literal (null when malformed). */
export function unquote(text: string): string | null {
  if (text.startsWith('`')) return text.slice(1, -1).replace(/\r/g, '');
  let out = '';
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = body[++i];
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) return null;
      out += e === 'x' ? String.fromCharCode(parseInt(hex, 16)) : String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (/[0-7]/.test(e ?? '')) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) return null;
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else return null;
  }
  return out;
}

/** A number literal: ints (decimal, 0x, 0o, 0b, with _), floats, character constants. */
export function numberValue(text: string): number | null {
  if (text.startsWith("'")) {
    const s = unquote(text);
    return s === null || [...s].length !== 1 ? null : s.codePointAt(0)!;
  }
  if (text.endsWith('i')) return null; // complex numbers: not supported
  const clean = text.replace(/_/g, '');
  const sign = clean.startsWith('-') ? -1 : 1;
  const body = clean.replace(/^[+-]/, '');
  let n: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(body)) n = parseInt(body.slice(2), 16);
  else if (/^0[bB][01]+$/.test(body)) n = parseInt(body.slice(2), 2);
  else if (/^0[oO]?[0-7]+$/.test(body)) n = parseInt(body.replace(/^0[oO]?/, ''), 8);
  else if (/^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(body)) n = Number(body);
  else return null;
  return Number.isFinite(n) ? sign * n : null;
}
