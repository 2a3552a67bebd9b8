// Runs a parsed template set as Go's html/template does: text/template's execution (fields,
// methods, variables, pipelines, if/range/with/template, break/continue), with every action's
// value escaped for the HTML context it lands in (context.ts), and Go's messages:
// `template: FILE:LINE:COL: executing "NAME" at <.field>: ...`, `html/template:...`.
import { contextString, escapersFor, nudge, TEXT, type Context } from './context';
import { EQUIVALENT, ESCAPERS, REDUNDANT } from './escapers';
import { BUILTINS, FuncError, LAZY } from './funcs';
import { nodeString, type ArgNode, type BranchNode, type CommandNode, type Node, type PipeNode, type TemplateNode, type TextNode, type Tree } from './nodes';
import { escapeText } from './transition';
import { formatValue, isPlainObject, isTrue, kindOf, mapGet, sortedKeys, sprint, typeName } from './values';

export type Funcs = Map<string, (...args: unknown[]) => unknown>;

export interface TemplateSet {
  trees: Map<string, Tree>;
  funcs: Funcs;
}

const NO_FINAL = Symbol('no final argument');
type Final = unknown;
const MAX_DEPTH = 1000;
const PREDEFINED = new Set(['html', 'urlquery']);

type Step = { cmd: CommandNode } | { evalArgs: ArgNode[] } | { ident: string };
const stepName = (s: Step) => ('ident' in s ? s.ident : 'evalArgs' in s ? '_eval_args_' : s.cmd.args[0].type === 'identifier' ? s.cmd.args[0].name : '');
const norm = (e: string) => EQUIVALENT[e] ?? e;

class LoopSignal {
  constructor(readonly kind: 'break' | 'continue') {}
}

/** A text node's output and the context after it, per starting context. */
const textCache = new WeakMap<TextNode, Map<string, [string, Context]>>();
const contextKey = (c: Context) => `${c.state}|${c.delim}|${c.urlPart}|${c.jsCtx}|${c.attr}|${c.element}|${c.jsBraceDepth.join(',')}`;

function location(tree: Tree, pos: number): string {
  const before = tree.source.slice(0, pos);
  const nl = before.lastIndexOf('\n');
  const line = 1 + (before.match(/\n/g)?.length ?? 0);
  return `${tree.parseName}:${line}:${Buffer.byteLength(nl < 0 ? before : before.slice(nl + 1))}`;
}

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

class TemplateExecError extends Error {}

class Execution {
  out: string[] = [];
  ctx: Context = TEXT;
  vars: Array<{ name: string; value: unknown }> = [];
  tree: Tree;
  at: { pos: number; text: string } | null = null;
  depth = 0;
  /** Whether dot is an element of a list or map (Go's interface {}: named so in messages). */
  dotBoxed = false;

  constructor(readonly set: TemplateSet, root: Tree) {
    this.tree = root;
  }

  fail(message: string): never {
    if (!this.at) throw new TemplateExecError(`template: ${this.tree.name}: ${message}`);
    const context = this.at.text.length > 20 ? `${this.at.text.slice(0, 20)}...` : this.at.text;
    throw new TemplateExecError(`template: ${location(this.tree, this.at.pos)}: executing "${this.tree.name}" at <${context}>: ${message}`);
  }

  escapeFail(message: string, pos?: number): never {
    throw new TemplateExecError(pos === undefined ? `html/template:${this.tree.name}: ${message}` : `html/template:${location(this.tree, pos)}: ${message}`);
  }

  setAt(n: ArgNode | CommandNode) {
    this.at = { pos: n.pos, text: nodeString(n) };
  }

  walk(node: Node, dot: unknown): void {
    switch (node.type) {
      case 'list':
        for (const n of node.nodes) this.walk(n, dot);
        return;
      case 'text':
        return this.text(node);
      case 'comment':
        return;
      case 'action':
        return this.action(node.pipe, dot);
      case 'if':
      case 'with':
        return this.ifOrWith(node, dot);
      case 'range':
        return this.range(node, dot);
      case 'template':
        return this.template(node, dot);
      case 'break':
      case 'continue':
        throw new LoopSignal(node.type);
    }
  }

  text(node: TextNode): void {
    let byContext = textCache.get(node);
    if (!byContext) textCache.set(node, (byContext = new Map()));
    const key = contextKey(this.ctx);
    let done = byContext.get(key);
    if (!done) byContext.set(key, (done = escapeText(this.ctx, node.text)));
    if (done[1].state === 'stateError') this.escapeFail(done[1].err ?? 'bad HTML');
    this.out.push(done[0]);
    this.ctx = done[1];
  }

  action(pipe: PipeNode, dot: unknown): void {
    if (pipe.decl.length) {
      this.pipeline(pipe, dot);
      return;
    }
    const c = nudge(this.ctx);
    const [escapers, after] = escapersFor(c);
    pipe.cmds.forEach((cmd, i) => {
      const first = cmd.args[0];
      if (first.type !== 'identifier' || !PREDEFINED.has(first.name)) return;
      if (i < pipe.cmds.length - 1 || (c.state === 'stateAttr' && c.delim === 'delimSpaceOrTagEnd' && first.name === 'html')) {
        this.escapeFail(`predefined escaper "${first.name}" disallowed in template`, first.pos);
      }
    });
    // Go's ensurePipelineContains: the escapers go at the end of the pipeline; a trailing `html` or
    // `urlquery` takes the place of its contextual equivalent
    let steps: Step[] = pipe.cmds.map((cmd) => ({ cmd }));
    const last = pipe.cmds[pipe.cmds.length - 1];
    const esc = last.args[0].type === 'identifier' && PREDEFINED.has(last.args[0].name) ? last.args[0].name : null;
    if (esc) {
      // {{html a b}} is {{_eval_args_ a b | html}}
      if (pipe.cmds.length === 1 && last.args.length > 1) steps = [{ evalArgs: last.args.slice(1) }, { ident: esc }];
      let dup = false;
      escapers.forEach((e, i) => {
        if (norm(e) === norm(esc)) [escapers[i], dup] = [esc, true];
      });
      if (dup) steps.pop();
    }
    const inserted = new Set(steps.map(stepName).map(norm));
    for (const e of escapers) {
      if (inserted.has(norm(e))) continue;
      const prev = steps.length ? stepName(steps[steps.length - 1]) : '';
      if (!REDUNDANT[prev]?.includes(e)) steps.push({ ident: e });
    }
    let value: unknown = NO_FINAL;
    for (const step of steps) {
      if ('cmd' in step) value = this.command(step.cmd, dot, value);
      else if ('evalArgs' in step) value = sprint(step.evalArgs.map((a) => this.arg(a, dot)));
      else {
        const args = value === NO_FINAL ? [] : [value];
        value = ESCAPERS[step.ident] ? ESCAPERS[step.ident](args) : BUILTINS[step.ident].fn(...args);
      }
    }
    this.out.push(typeof value === 'string' ? value : formatValue(value));
    this.ctx = after;
  }

  ifOrWith(node: BranchNode, dot: unknown): void {
    const mark = this.vars.length;
    const value = this.pipeline(node.pipe, dot);
    if (isTrue(value) && node.type === 'with') this.walkWith(node.list, value, false);
    else if (isTrue(value)) this.walk(node.list, dot);
    else if (node.elseList) this.walk(node.elseList, dot);
    this.vars.length = mark;
  }

  range(node: BranchNode, dot: unknown): void {
    const mark = this.vars.length;
    const value = this.pipeline(node.pipe, dot);
    const inner = this.vars.length;
    const decl = node.pipe.decl.length;
    let ran = false;
    const once = (index: unknown, elem: unknown): boolean => {
      ran = true;
      if (decl > 0) this.vars[this.vars.length - 1].value = elem;
      if (decl > 1) this.vars[this.vars.length - 2].value = index;
      try {
        this.walkWith(node.list, elem, true);
      } catch (signal) {
        if (!(signal instanceof LoopSignal)) throw signal;
        if (signal.kind === 'break') return false;
      } finally {
        this.vars.length = inner;
      }
      return true;
    };
    const kind = kindOf(value);
    if (kind === 'slice') {
      const list = Array.from(value as ArrayLike<unknown>);
      for (let i = 0; i < list.length; i++) if (!once(i, list[i] === undefined ? null : list[i])) break;
    } else if (kind === 'map') {
      for (const key of sortedKeys(value as object)) if (!once(key, mapGet(value as object, key) ?? null)) break;
    } else if (kind === 'int') {
      if (decl > 1) this.fail(`can't use ${formatValue(value)} to iterate over more than one variable`);
      for (let i = 0; i < Number(value); i++) if (!once(i, i)) break;
    } else if (kind !== 'invalid' && kind !== 'nil') this.fail(`range can't iterate over ${formatValue(value)}`);
    if (!ran && node.elseList) this.walk(node.elseList, dot);
    this.vars.length = mark;
  }

  template(node: TemplateNode, dot: unknown): void {
    const tree = this.set.trees.get(node.name);
    if (!tree) this.escapeFail(`no such template "${node.name}"`, node.pos);
    if (this.depth >= MAX_DEPTH) this.fail(`exceeded maximum template depth (${MAX_DEPTH})`);
    const data = node.pipe ? this.pipeline(node.pipe, dot) : undefined;
    const saved = { tree: this.tree, vars: this.vars, at: this.at };
    this.tree = tree;
    this.vars = [{ name: '$', value: data }];
    this.depth++;
    try {
      this.walkWith(tree.root, data, false);
    } finally {
      this.depth--;
      Object.assign(this, saved);
    }
  }

  /** Walks `node` with a new dot (boxed: an element of a list or map). */
  walkWith(node: Node, dot: unknown, boxed: boolean): void {
    const saved = this.dotBoxed;
    this.dotBoxed = boxed;
    try {
      this.walk(node, dot);
    } finally {
      this.dotBoxed = saved;
    }
  }

  pipeline(pipe: PipeNode, dot: unknown): unknown {
    let value: Final = NO_FINAL;
    for (const cmd of pipe.cmds) value = this.command(cmd, dot, value);
    for (const v of pipe.decl) {
      if (!pipe.isAssign) this.vars.push({ name: v.ident[0], value });
      else {
        const found = [...this.vars].reverse().find((x) => x.name === v.ident[0]);
        if (!found) this.fail(`undefined variable: ${v.ident[0]}`);
        found.value = value;
      }
    }
    return value;
  }

  notAFunction(args: ArgNode[], final: Final) {
    if (args.length > 1 || final !== NO_FINAL) this.fail(`can't give argument to non-function ${nodeString(args[0])}`);
  }

  command(cmd: CommandNode, dot: unknown, final: Final): unknown {
    const first = cmd.args[0];
    switch (first.type) {
      case 'field':
        this.setAt(first);
        return this.fieldChain(dot, dot, first, first.ident, cmd.args, final, this.dotBoxed);
      case 'chain':
        this.setAt(first);
        return this.fieldChain(dot, this.arg(first.node, dot), first, first.field, cmd.args, final);
      case 'identifier':
        return this.call(first.name, first, cmd, cmd.args.slice(1), dot, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.pipeline(first, dot);
      case 'variable': {
        this.setAt(first);
        const value = this.variable(first.ident[0]);
        if (first.ident.length === 1) {
          this.notAFunction(cmd.args, final);
          return value;
        }
        return this.fieldChain(dot, value, first, first.ident.slice(1), cmd.args, final);
      }
    }
    this.setAt(first);
    this.notAFunction(cmd.args, final);
    if (first.type === 'nil') this.fail('nil is not a command');
    return first.type === 'dot' ? dot : first.value;
  }

  variable(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].name === name) return this.vars[i].value;
    this.fail(`undefined variable: ${name}`);
  }

  arg(n: ArgNode, dot: unknown): unknown {
    switch (n.type) {
      case 'dot':
        return dot;
      case 'nil':
        return null;
      case 'field':
        this.setAt(n);
        return this.fieldChain(dot, dot, n, n.ident, [n], NO_FINAL, this.dotBoxed);
      case 'variable':
        this.setAt(n);
        return n.ident.length === 1 ? this.variable(n.ident[0]) : this.fieldChain(dot, this.variable(n.ident[0]), n, n.ident.slice(1), [n], NO_FINAL);
      case 'pipe':
        return this.pipeline(n, dot);
      case 'identifier':
        return this.call(n.name, n, n, [], dot, NO_FINAL);
      case 'chain':
        this.setAt(n);
        return this.fieldChain(dot, this.arg(n.node, dot), n, n.field, [n], NO_FINAL);
    }
    return n.value;
  }

  fieldChain(dot: unknown, receiver: unknown, node: ArgNode, idents: string[], args: ArgNode[], final: Final, boxed = false): unknown {
    let value = receiver;
    for (let i = 0; i < idents.length - 1; i++) value = this.field(dot, idents[i], node, [], NO_FINAL, value, i > 0 || boxed);
    return this.field(dot, idents[idents.length - 1], node, args, final, value, idents.length > 1 || boxed);
  }

  /** `.Name` on a value: a method (called with the arguments), a map key, or a field. */
  field(dot: unknown, name: string, node: ArgNode, args: ArgNode[], final: Final, receiver: unknown, boxed: boolean): unknown {
    if (receiver === undefined) return undefined;
    if (receiver === null) this.fail(`nil pointer evaluating interface {}.${name}`);
    const kind = kindOf(receiver);
    const hasArgs = args.length > 1 || final !== NO_FINAL;
    if (kind === 'map' || kind === 'struct' || kind === 'func') {
      const obj = receiver as Record<string, unknown>;
      // goja shows Go's `Name` to JS as `name`: a template written for 0.22 asks for `.Name`
      const key = receiver instanceof Map ? (receiver.has(name) ? name : null) : name in obj ? name : /^[A-Z]/.test(name) && lowerFirst(name) in obj ? lowerFirst(name) : null;
      if (key !== null) {
        const value = receiver instanceof Map ? receiver.get(key) : obj[key];
        if (typeof value === 'function') return this.invoke(name, node, value as (...a: unknown[]) => unknown, receiver, args.slice(1), dot, final);
        if (hasArgs) this.fail(kind === 'map' ? `${name} is not a method but has arguments` : `${name} has arguments but cannot be invoked as function`);
        return value === undefined ? null : value;
      }
      if (kind === 'map' || isPlainObject(receiver)) return undefined;
    }
    this.fail(`can't evaluate field ${name} in type ${boxed ? 'interface {}' : typeName(receiver)}`);
  }

  /** A function by name: a registered one, or a built-in (arity checked as Go checks it). */
  call(name: string, ident: ArgNode, node: ArgNode | CommandNode, args: ArgNode[], dot: unknown, final: Final): unknown {
    this.setAt(ident);
    const own = this.set.funcs.get(name);
    if (own) return this.invoke(name, node, own, undefined, args, dot, final);
    const count = args.length + (final !== NO_FINAL ? 1 : 0);
    if (LAZY.has(name)) {
      if (count < 1) this.fail(`wrong number of args for ${name}: want at least 1 got 0`);
      let v: unknown;
      for (const a of args) {
        v = this.arg(a, dot);
        if (isTrue(v) === (name === 'or')) return v;
      }
      return final !== NO_FINAL ? final : v;
    }
    const builtin = BUILTINS[name];
    if (!builtin) this.fail(`"${name}" is not a defined function`);
    const [fixed, variadic] = builtin.arity;
    if (variadic ? count < fixed : count !== fixed) this.fail(`wrong number of args for ${name}: want ${variadic ? 'at least ' : ''}${fixed} got ${variadic ? args.length : count}`);
    return this.invoke(name, node, builtin.fn, undefined, args, dot, final);
  }

  invoke(name: string, node: ArgNode | CommandNode, fn: (...a: unknown[]) => unknown, self: unknown, args: ArgNode[], dot: unknown, final: Final): unknown {
    const argv = args.map((a) => this.arg(a, dot));
    if (final !== NO_FINAL) argv.push(final);
    this.setAt(node);
    try {
      const out = fn.apply(self, argv);
      return out === undefined ? null : out;
    } catch (err) {
      if (err instanceof TemplateExecError) throw err;
      this.fail(`error calling ${name}: ${err instanceof FuncError || err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Executes the template `name` of `set` with `data`, as html/template's Execute. */
export function execute(set: TemplateSet, name: string, data: unknown): string {
  const tree = set.trees.get(name);
  if (!tree) throw new TemplateExecError(`html/template: "${name}" is an incomplete or empty template`);
  const run = new Execution(set, tree);
  run.vars.push({ name: '$', value: data });
  run.walk(tree.root, data);
  if (run.ctx.state !== 'stateText') run.escapeFail(`ends in a non-text context: ${contextString(run.ctx)}`);
  return run.out.join('');
}

