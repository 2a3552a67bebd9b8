// The parser of Go's text/template: a template's text becomes trees (the template itself and each
// `{{define}}` / `{{block}}` in it), with Go's checks and messages ("template: NAME:LINE: ...").
// Functions must exist when the text is parsed and variables be declared before use, as in Go.
import { goQuote, itemString, lex, type Item } from './lex';
import { isEmptyTree, nodeString, numberValue, TemplateError, unquote, type ArgNode, type BranchNode, type CommandNode, type ListNode, type Node, type PipeNode, type TemplateNode, type Tree } from './nodes';

class Parser {
  readonly items: Item[];
  i = 0;
  /** The furthest item read: Go reports the line of the last item its lexer gave. */
  seen = 0;
  vars: string[] = ['$'];
  rangeDepth = 0;
  actionLine = 0;
  readonly trees = new Map<string, Tree>();

  constructor(readonly parseName: string, readonly source: string, readonly hasFunction: (name: string) => boolean) {
    this.items = lex(source);
  }

  fail(message: string): never {
    const line = this.items[Math.min(this.seen, this.items.length - 1)]?.line ?? 1;
    throw new TemplateError(`template: ${this.parseName}:${line}: ${message}`);
  }

  next(): Item {
    this.seen = Math.max(this.seen, this.i);
    return this.items[this.i++] ?? this.items[this.items.length - 1];
  }
  backup(n = 1) {
    this.i -= n;
  }
  peek(): Item {
    this.seen = Math.max(this.seen, this.i);
    return this.items[this.i] ?? this.items[this.items.length - 1];
  }
  nextNonSpace(): Item {
    let t = this.next();
    while (t.type === 'space') t = this.next();
    return t;
  }
  peekNonSpace(): Item {
    const t = this.nextNonSpace();
    this.backup();
    return t;
  }
  unexpected(t: Item, context: string): never {
    if (t.type === 'error') {
      const extra = this.actionLine !== 0 && this.actionLine !== t.line ? ` in action started at ${this.parseName}:${this.actionLine}` : '';
      this.fail(`${t.val}${t.val.endsWith(' action') ? extra.replace(' in action', '') : extra}`);
    }
    this.fail(`unexpected ${itemString(t)} in ${context}`);
  }
  expect(type: Item['type'], context: string): Item {
    const t = this.nextNonSpace();
    if (t.type !== type) this.unexpected(t, context);
    return t;
  }

  /** Adds a finished tree; a second non-empty definition in the same text is an error. */
  add(tree: Tree) {
    const old = this.trees.get(tree.name);
    if (!old || isEmptyTree(old.root)) this.trees.set(tree.name, tree);
    else if (!isEmptyTree(tree.root)) this.fail(`template: multiple definition of template ${goQuote(tree.name)}`);
  }

  parse(name: string): Map<string, Tree> {
    const root: ListNode = { type: 'list', pos: 0, nodes: [] };
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'leftDelim') {
        const delim = this.next();
        if (this.nextNonSpace().type === 'define') {
          this.parseDefinition();
          continue;
        }
        this.i = this.items.indexOf(delim);
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.fail(`unexpected {{${n.type}}}`);
      root.nodes.push(n as Node);
    }
    this.add({ name, parseName: this.parseName, source: this.source, root });
    return this.trees;
  }

  parseDefinition() {
    const t = this.nextNonSpace();
    if (t.type !== 'string' && t.type !== 'rawString') this.unexpected(t, 'define clause');
    const name = unquote(t.val) ?? '';
    this.expect('rightDelim', 'define clause');
    const saved = this.vars;
    this.vars = ['$'];
    const [list, end] = this.itemList();
    if (end.type !== 'end') this.fail(`unexpected {{${end.type}}} in define clause`);
    this.vars = saved;
    this.add({ name, parseName: this.parseName, source: this.source, root: list });
  }

  itemList(): [ListNode, { type: 'end' | 'else'; pos: number; line: number }] {
    const list: ListNode = { type: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n as { type: 'end' | 'else'; pos: number; line: number }];
      list.nodes.push(n as Node);
    }
    this.fail('unexpected EOF');
  }

  textOrAction(): Node | { type: 'end' | 'else'; pos: number; line: number } {
    const t = this.nextNonSpace();
    if (t.type === 'text') return { type: 'text', pos: t.pos, text: t.val };
    if (t.type === 'leftDelim') {
      this.actionLine = t.line;
      try {
        return this.action();
      } finally {
        this.actionLine = 0;
      }
    }
    if (t.type === 'comment') return { type: 'comment', pos: t.pos };
    this.unexpected(t, 'input');
  }

  action(): Node | { type: 'end' | 'else'; pos: number; line: number } {
    const t = this.nextNonSpace();
    switch (t.type) {
      case 'block':
        return this.blockControl();
      case 'break':
      case 'continue':
        if (this.rangeDepth === 0) this.fail(`{{${t.type}}} outside {{range}}`);
        this.expect('rightDelim', t.type);
        return { type: t.type, pos: t.pos, line: t.line };
      case 'else': {
        const p = this.peekNonSpace();
        if (p.type === 'if' || p.type === 'with') return { type: 'else', pos: p.pos, line: p.line };
        const d = this.expect('rightDelim', 'else');
        return { type: 'else', pos: d.pos, line: d.line };
      }
      case 'end':
        return { type: 'end', pos: this.expect('rightDelim', 'end').pos, line: t.line };
      case 'if':
      case 'range':
      case 'with':
        return this.control(t.type, t);
      case 'template':
        return this.templateControl();
    }
    this.backup();
    const p = this.peek();
    return { type: 'action', pos: p.pos, line: p.line, pipe: this.pipeline('command', 'rightDelim') };
  }

  control(kind: 'if' | 'range' | 'with', at: Item): BranchNode {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, 'rightDelim');
    if (kind === 'range') this.rangeDepth++;
    const [list, next] = this.itemList();
    if (kind === 'range') this.rangeDepth--;
    let elseList: ListNode | null = null;
    if (next.type === 'else') {
      // {{else if ...}} / {{else with ...}}: a nested branch inside the else list, ending at the same {{end}}
      const p = this.peek();
      if ((kind === 'if' && p.type === 'if') || (kind === 'with' && p.type === 'with')) {
        this.next();
        elseList = { type: 'list', pos: next.pos, nodes: [this.control(kind, p)] };
      } else {
        const [l, end] = this.itemList();
        if (end.type !== 'end') this.fail('expected end; found {{else}}');
        elseList = l;
      }
    }
    this.vars.length = mark;
    return { type: kind, pos: at.pos, line: at.line, pipe, list, elseList };
  }

  templateName(t: Item, context: string): string {
    if (t.type === 'string' || t.type === 'rawString') {
      const s = unquote(t.val);
      if (s === null) this.fail(`${t.val} is not a valid string`);
      return s;
    }
    this.unexpected(t, context);
  }

  templateControl(): TemplateNode {
    const t = this.nextNonSpace();
    const name = this.templateName(t, 'template clause');
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline('template clause', 'rightDelim');
    }
    return { type: 'template', pos: t.pos, line: t.line, name, pipe };
  }

  blockControl(): TemplateNode {
    const t = this.nextNonSpace();
    const name = this.templateName(t, 'block clause');
    const pipe = this.pipeline('block clause', 'rightDelim');
    const saved = [this.vars, this.rangeDepth] as const;
    this.vars = ['$'];
    this.rangeDepth = 0;
    const [list, end] = this.itemList();
    if (end.type !== 'end') this.fail(`unexpected {{${end.type}}} in block clause`);
    [this.vars, this.rangeDepth] = saved;
    this.add({ name, parseName: this.parseName, source: this.source, root: list });
    return { type: 'template', pos: t.pos, line: t.line, name, pipe };
  }

  pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
    const first = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: first.pos, line: first.line, isAssign: false, decl: [], cmds: [] };
    // declarations: `$x :=`, `$x =`, `$i, $v :=` (range only)
    for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      this.nextNonSpace();
      const after = this.peek();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        pipe.isAssign = next.type === 'assign';
        this.nextNonSpace();
        pipe.decl.push({ type: 'variable', pos: v.pos, ident: [v.val] });
        this.vars.push(v.val);
        break;
      }
      if (next.type === 'char' && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push({ type: 'variable', pos: v.pos, ident: [v.val] });
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const p = this.peekNonSpace().type;
          if (p === 'variable' || p === 'rightDelim' || p === 'rightParen') continue;
          this.fail('range can only initialize variables');
        }
        this.fail(`too many declarations in ${context}`);
      }
      this.backup(after.type === 'space' ? 2 : 1);
      break;
    }
    for (;;) {
      const t = this.nextNonSpace();
      if (t.type === end) {
        if (!pipe.cmds.length) this.fail(`missing value for ${context}`);
        pipe.cmds.slice(1).forEach((c, i) => {
          if (['bool', 'dot', 'nil', 'number', 'string'].includes(c.args[0].type)) this.fail(`non executable command in pipeline stage ${i + 2}`);
        });
        return pipe;
      }
      if (['bool', 'charConstant', 'dot', 'field', 'identifier', 'number', 'nil', 'rawString', 'string', 'variable', 'leftParen'].includes(t.type)) {
        this.backup();
        pipe.cmds.push(this.command());
      } else this.unexpected(t, context);
    }
  }

  command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) cmd.args.push(operand);
      const t = this.next();
      if (t.type === 'space') continue;
      if (t.type === 'rightDelim' || t.type === 'rightParen') this.backup();
      else if (t.type !== 'pipe') this.unexpected(t, 'operand');
      break;
    }
    if (!cmd.args.length) this.fail('empty command');
    return cmd;
  }

  operand(): ArgNode | null {
    const node = this.term();
    if (!node || this.peek().type !== 'field') return node;
    const fields: string[] = [];
    const pos = this.peek().pos;
    while (this.peek().type === 'field') fields.push(this.next().val.slice(1));
    if (node.type === 'field' || node.type === 'variable') return { ...node, ident: [...node.ident, ...fields] };
    if (['bool', 'string', 'number', 'nil', 'dot'].includes(node.type)) this.fail(`unexpected . after term ${goQuote(nodeString(node))}`);
    return { type: 'chain', pos, node, field: fields };
  }

  term(): ArgNode | null {
    const t = this.nextNonSpace();
    switch (t.type) {
      case 'identifier':
        if (!this.hasFunction(t.val)) this.fail(`function ${goQuote(t.val)} not defined`);
        return { type: 'identifier', pos: t.pos, name: t.val };
      case 'dot':
        return { type: 'dot', pos: t.pos, text: '.', value: null };
      case 'nil':
        return { type: 'nil', pos: t.pos, text: 'nil', value: null };
      case 'variable':
        if (!this.vars.includes(t.val)) this.fail(`undefined variable ${goQuote(t.val)}`);
        return { type: 'variable', pos: t.pos, ident: [t.val] };
      case 'field':
        return { type: 'field', pos: t.pos, ident: [t.val.slice(1)] };
      case 'bool':
        return { type: 'bool', pos: t.pos, text: t.val, value: t.val === 'true' };
      case 'charConstant':
      case 'number': {
        const value = numberValue(t.val);
        if (value === null) this.fail(`illegal number syntax: ${goQuote(t.val)}`);
        return { type: 'number', pos: t.pos, text: t.val, value };
      }
      case 'leftParen':
        return this.pipeline('parenthesized pipeline', 'rightParen');
      case 'string':
      case 'rawString': {
        const value = unquote(t.val);
        if (value === null) this.fail(`invalid syntax`);
        return { type: 'string', pos: t.pos, text: t.val, value };
      }
    }
    this.backup();
    return null;
  }
}

/** Parses `source` (named `name`): its own tree and those it defines. */
export function parseTemplate(name: string, source: string, hasFunction: (name: string) => boolean): Map<string, Tree> {
  return new Parser(name, source, hasFunction).parse(name);
}

