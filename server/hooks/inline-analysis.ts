// Which hook handlers may run on the main thread instead of in an executor (./inline-runner.ts):
// those whose source shows they can neither block nor run long nor reach anything but their
// event. A call to an executor costs the main thread two thread hand-offs (tens of µs each on a
// VM), more than a small handler's whole run. (Most handlers of real 0.22 projects do not
// qualify: they `require` their shared code inside the handler, or call $app.)
//
// A handler qualifies when its text is one function that:
// - refers to nothing outside itself but pure globals (JSON, Math, String, Date, ...), console and
//   0.22's error classes: no $app, $http, require, sleep, file variables (so nothing it does
//   outlives the call except what it leaves in its event);
// - has no loop, no nested function, no regular expression, no async or generator, no `this`;
// - calls no method that can block or allocate without bound (password hashing, repeat, ...) and
//   none through a computed name;
// - writes no global (only its own variables and what they hold).
// Such a handler ends after a number of steps its text bounds. What the text cannot show (a
// record's `set("password", ...)` hashing) the runner stops at run time and gives to an executor.
// This is a guard against honest code blocking the server, not a sandbox: hook files are the
// project's own code and run with the server's rights anyway.
import { builtinModules, createRequire } from 'node:module';
import { ERROR_CLASSES } from './worker/errors';

// loaded on first use: only a project with hooks reads any
let acorn: typeof import('acorn') | null = null;
const parse = (text: string, options: import('acorn').Options) => (acorn ??= createRequire(import.meta.url)('acorn') as typeof import('acorn')).parse(text, options);

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/** A hook file's program, as the executors read it (a CommonJS function body). */
const parseFile = (text: string): Node => parse(text, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowHashBang: true }) as unknown as Node;

/** The child nodes of `node`, in source order. */
function* children(node: Node): Generator<Node> {
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (isNode(v)) yield v;
    } else if (isNode(value)) yield value;
  }
}

/** Globals an inline handler may use: pure, or ours (error classes, console buffered by the runner). */
const INLINE_GLOBALS = new Set([
  'undefined', 'NaN', 'Infinity', 'JSON', 'Math', 'String', 'Number', 'Boolean', 'Object', 'Date',
  'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI',
  'console', 'Error', 'TypeError', 'RangeError', ...Object.keys(ERROR_CLASSES),
]);

/** The console methods the runner buffers; a handler calling another stays in an executor. */
export const INLINE_CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
const INLINE_CONSOLE = new Set<string>(INLINE_CONSOLE_METHODS);

/**
 * Members that block, allocate without bound (or as the product of two inputs: a request's text
 * replaced all over with another), run a pattern, or reach shared objects (their realm's
 * prototypes, $app). `join` is taken with a written separator only (a list times a separator the
 * request chose is the same product); `replace` with a written replacement only (a request's
 * replacement of "$`" a thousand times copies the text before the match a thousand times);
 * `lastIndexOf` searches backwards naively (a request's text times a request's pattern).
 */
const BLOCKED_MEMBERS = new Set([
  'app', 'dao', 'mailClient', 'setPassword', 'validatePassword',
  'repeat', 'padStart', 'padEnd', 'fill', 'match', 'matchAll', 'search', 'replaceAll', 'lastIndexOf',
  'constructor', 'prototype', '__proto__', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
  'getPrototypeOf', 'setPrototypeOf', 'defineProperty', 'defineProperties', 'call', 'apply', 'bind',
]);

/** Node types a qualifying handler's body may hold (anything else: a loop, a function, a class, ...). */
const ALLOWED_NODES = new Set([
  'BlockStatement', 'ExpressionStatement', 'EmptyStatement', 'IfStatement', 'ReturnStatement', 'ThrowStatement',
  'TryStatement', 'CatchClause', 'VariableDeclaration', 'VariableDeclarator', 'SwitchStatement', 'SwitchCase', 'BreakStatement',
  'Identifier', 'Literal', 'TemplateLiteral', 'TemplateElement', 'ArrayExpression', 'ObjectExpression', 'Property', 'SpreadElement',
  'UnaryExpression', 'UpdateExpression', 'BinaryExpression', 'LogicalExpression', 'AssignmentExpression', 'ConditionalExpression',
  'CallExpression', 'NewExpression', 'MemberExpression', 'SequenceExpression', 'ChainExpression',
  'ObjectPattern', 'ArrayPattern', 'AssignmentPattern', 'RestElement',
]);

/** `globals`: the globals the handler uses (a file that declares one of them keeps the handler in an executor). */
export type Verdict = { inline: true; globals: Set<string> } | { inline: false; reason: string };

const isNode = (v: unknown): v is Node => !!v && typeof v === 'object' && typeof (v as Node).type === 'string';

/** A member's name when it is written out (`a.b`, `a["b"]`); null for a computed one. */
function memberName(m: Node): string | null {
  const p = m.property as Node;
  if (!m.computed && p.type === 'Identifier') return p.name as string;
  if (p.type === 'Literal' && (typeof p.value === 'string' || typeof p.value === 'number')) return String(p.value);
  return null;
}

/** A computed member name that is a literal, or surely a number (not "__proto__", "constructor", ...). */
const NUMERIC_OPS = new Set(['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>', '>>>']);
function surelyNumberOrLiteral(k: Node): boolean {
  if (k.type === 'Literal') return typeof k.value === 'string' || typeof k.value === 'number';
  if (k.type === 'UnaryExpression') return ['-', '+', '~'].includes(k.operator as string);
  if (k.type === 'BinaryExpression') return NUMERIC_OPS.has(k.operator as string);
  return false;
}

/** Names a binding pattern declares. */
function bindingNames(p: Node | null, out: string[] = []): string[] {
  if (!p) return out;
  switch (p.type) {
    case 'Identifier':
      out.push(p.name as string);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties as Node[]) bindingNames(prop.type === 'RestElement' ? (prop.argument as Node) : (prop.value as Node), out);
      break;
    case 'ArrayPattern':
      for (const el of p.elements as Array<Node | null>) bindingNames(el, out);
      break;
    case 'AssignmentPattern':
      bindingNames(p.left as Node, out);
      break;
    case 'RestElement':
      bindingNames(p.argument as Node, out);
      break;
  }
  return out;
}

class Refused extends Error {}

/** Whether the handler whose source is `source` (a function's text, as fn.toString() gives it) may run on the main thread. */
export function inlineVerdict(source: string): Verdict {
  let fn: Node;
  try {
    const program = parse(`(${source})`, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as Node;
    const body = program.body as Node[];
    fn = (body.length === 1 && body[0].type === 'ExpressionStatement' ? body[0].expression : null) as Node;
    if (!fn || (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression')) return { inline: false, reason: 'not a single function' };
  } catch {
    return { inline: false, reason: 'its text does not parse alone' };
  }
  if (fn.async || fn.generator) return { inline: false, reason: 'async or generator' };
  try {
    return { inline: true, globals: checkFunction(fn) };
  } catch (err) {
    if (err instanceof Refused) return { inline: false, reason: err.message };
    throw err;
  }
}

function checkFunction(fn: Node): Set<string> {
  const globals = new Set<string>();
  // var names are the function's; let/const/catch names are their block's (collected before the block is walked)
  const scopes: Array<Set<string>> = [new Set((fn.params as Node[]).flatMap((p) => bindingNames(p)))];
  const vars = new Set<string>();
  collectVars(fn.body as Node, vars);
  for (const v of vars) scopes[0].add(v);
  const local = (name: string) => scopes.some((s) => s.has(name));
  const refuse = (why: string): never => {
    throw new Refused(why);
  };
  const blockNames = (statements: Node[]) => {
    const names = new Set<string>();
    for (const s of statements) if (s.type === 'VariableDeclaration' && s.kind !== 'var') for (const d of s.declarations as Node[]) bindingNames(d.id as Node, [...names]).forEach((n) => names.add(n));
    return names;
  };

  /** The identifier a written target hangs off (`a` of `a.b[c].d`); a global or anything else is refused. */
  const checkWritten = (target: Node) => {
    // a written length (or index) a request chose makes a sparse array of billions that the
    // record's copy then walks; a written name a request chose may be "__proto__" (the main
    // thread's Object.prototype)
    if (target.type === 'MemberExpression' && memberName(target) === 'length') refuse('it sets a length');
    let root = target;
    while (root.type === 'MemberExpression') {
      if (root.computed && (root.property as Node).type !== 'Literal') refuse('it writes a member whose name it computes');
      root = root.object as Node;
    }
    if (root.type === 'Identifier' && local(root.name as string)) return;
    if (['ObjectPattern', 'ArrayPattern'].includes(root.type)) return; // destructuring into locals (checked as patterns)
    refuse('it writes outside its own variables');
  };

  const walk = (node: Node | null, parent: Node | null): void => {
    if (!node) return;
    if (node === fn) {
      for (const p of fn.params as Node[]) walkPattern(p);
      if ((fn.body as Node).type === 'BlockStatement') walkBlock(fn.body as Node);
      else walk(fn.body as Node, fn);
      return;
    }
    if (!ALLOWED_NODES.has(node.type)) refuse(`it has a ${node.type}`);
    switch (node.type) {
      case 'Identifier': {
        const name = node.name as string;
        if (local(name)) return;
        if (!INLINE_GLOBALS.has(name)) refuse(`it uses ${name}`);
        globals.add(name);
        // a global only as what is called, constructed or read a member of, never as a value of its own
        const used = parent && ((parent.type === 'MemberExpression' && parent.object === node) || ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.callee === node) || (parent.type === 'BinaryExpression' && parent.operator === 'instanceof' && parent.right === node));
        if (!used && name !== 'undefined' && name !== 'NaN' && name !== 'Infinity') refuse(`it passes ${name} around`);
        return;
      }
      case 'Literal':
        if (node.regex) refuse('it has a regular expression');
        return;
      case 'MemberExpression': {
        const name = memberName(node);
        if (name !== null && BLOCKED_MEMBERS.has(name)) refuse(`it uses .${name}`);
        // a name a request chose ("__proto__", "constructor") reaches the main thread's prototypes
        if (node.computed && !surelyNumberOrLiteral(node.property as Node)) refuse('it reads a member whose name it computes');
        // a global's member as a value of its own (Object.freeze(JSON.parse)): the main thread's
        // builtins are shared; only its constants (Math.PI, Number.MAX_SAFE_INTEGER) are values
        const obj = node.object as Node;
        const asValue = !(parent && ((parent.type === 'MemberExpression' && parent.object === node) || ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.callee === node)));
        // (the runner's console has 0.22's usual methods only: console.dir, console.table, ... stay in an executor)
        if (obj.type === 'Identifier' && obj.name === 'console' && !local('console') && !(name !== null && INLINE_CONSOLE.has(name))) refuse(`it uses console.${name ?? '[...]'}`);
        if (asValue && obj.type === 'Identifier' && INLINE_GLOBALS.has(obj.name as string) && !local(obj.name as string) && !(name !== null && /^([A-Z0-9_]+|NaN)$/.test(name))) refuse(`it passes ${obj.name as string}.${name ?? '[...]'} around`);
        walk(node.object as Node, node);
        if (node.computed) walk(node.property as Node, node);
        return;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const callee = node.callee as Node;
        if (callee.type === 'MemberExpression' && memberName(callee) === null) refuse('it calls a computed member');
        if (callee.type !== 'MemberExpression' && callee.type !== 'Identifier') refuse('it calls a computed value');
        if (callee.type === 'Identifier' && local(callee.name as string)) refuse('it calls a variable');
        const args = node.arguments as Node[];
        const method = callee.type === 'MemberExpression' ? memberName(callee) : null;
        if (method === 'join' && !args.every((a) => a.type === 'Literal')) refuse('it joins with a separator it computes');
        if (method === 'replace' && !(args[1]?.type === 'Literal' && typeof args[1].value === 'string')) refuse('it replaces with a text it computes');
        // (an indent repeated on every line: a deep request value's lines times their depth; a
        // list of keys looked up in every object: a request's objects times a request's keys)
        if (method === 'stringify' && args.length > 1 && !(args.length === 2 && args[1].type === 'Literal' && args[1].value === null)) refuse('it stringifies with a replacer or an indent');
        // (spread arguments take the stack, which is smaller on the main thread than in an
        // executor: a list a request sent may overflow one and not the other)
        if (args.some((a) => a.type === 'SpreadElement')) refuse('it spreads a list into arguments');
        // (onto an array, a request's {"length": 4294967295} makes a sparse array of billions)
        if (method === 'assign' && args[0]?.type !== 'ObjectExpression') refuse('it assigns onto an object it did not write out');
        walk(callee, node);
        for (const a of node.arguments as Node[]) walk(a, node);
        return;
      }
      case 'BreakStatement':
        if (node.label) refuse('it has a labelled break');
        return;
      case 'AssignmentExpression':
        if ((node.left as Node).type === 'Identifier' || (node.left as Node).type === 'MemberExpression') checkWritten(node.left as Node);
        else walkPattern(node.left as Node);
        walk(node.left as Node, node);
        walk(node.right as Node, node);
        return;
      case 'UpdateExpression':
        checkWritten(node.argument as Node);
        walk(node.argument as Node, node);
        return;
      case 'UnaryExpression':
        if (node.operator === 'delete') checkWritten(node.argument as Node);
        walk(node.argument as Node, node);
        return;
      case 'Property':
        if (node.kind !== 'init' || node.method) refuse('it defines a getter, setter or method');
        if (node.computed) walk(node.key as Node, node);
        if (parent?.type === 'ObjectPattern') walkPattern(node.value as Node);
        else walk(node.value as Node, node);
        return;
      case 'BlockStatement':
        walkBlock(node);
        return;
      case 'SwitchStatement': {
        walk(node.discriminant as Node, node);
        scopes.push(blockNames((node.cases as Node[]).flatMap((c) => c.consequent as Node[])));
        for (const c of node.cases as Node[]) {
          walk(c.test as Node | null, c);
          for (const s of c.consequent as Node[]) walk(s, c);
        }
        scopes.pop();
        return;
      }
      case 'CatchClause':
        scopes.push(new Set(bindingNames(node.param as Node | null)));
        if (node.param) walkPattern(node.param as Node);
        walkBlock(node.body as Node);
        scopes.pop();
        return;
      case 'VariableDeclarator':
        walkPattern(node.id as Node);
        walk(node.init as Node | null, node);
        return;
    }
    for (const child of children(node)) walk(child, node);
  };

  /** A binding target: its default values and computed keys are expressions; its names are locals. */
  const walkPattern = (p: Node | null): void => {
    if (!p) return;
    switch (p.type) {
      case 'Identifier':
        return;
      case 'MemberExpression':
        checkWritten(p);
        walk(p, null);
        return;
      case 'ObjectPattern':
        for (const prop of p.properties as Node[]) {
          if (prop.type === 'RestElement') walkPattern(prop.argument as Node);
          else {
            if (prop.computed && !surelyNumberOrLiteral(prop.key as Node)) refuse('it reads a member whose name it computes');
            if (prop.computed) walk(prop.key as Node, prop);
            walkPattern(prop.value as Node);
          }
        }
        return;
      case 'ArrayPattern':
        for (const el of p.elements as Array<Node | null>) walkPattern(el);
        return;
      case 'AssignmentPattern':
        walkPattern(p.left as Node);
        walk(p.right as Node, p);
        return;
      case 'RestElement':
        walkPattern(p.argument as Node);
        return;
    }
    refuse(`it has a ${p.type}`);
  };

  const walkBlock = (block: Node) => {
    scopes.push(blockNames(block.body as Node[]));
    for (const s of block.body as Node[]) walk(s, block);
    scopes.pop();
  };

  walk(fn, null);
  return globals;
}

/** The function's `var` names (in any block; nested functions are refused anyway). */
function collectVars(node: Node | null, out: Set<string>): void {
  if (!node) return;
  if (node.type === 'VariableDeclaration' && node.kind === 'var') for (const d of node.declarations as Node[]) for (const n of bindingNames(d.id as Node)) out.add(n);
  for (const child of children(node)) collectVars(child, out);
}

/** The globals of INLINE_GLOBALS a hook file declares a name of (its handlers' uses of that name are the file's, not the global). */
export function shadowedGlobals(fileSource: string): Set<string> {
  const out = new Set<string>();
  let program: Node;
  try {
    program = parseFile(fileSource);
  } catch {
    return new Set(INLINE_GLOBALS); // what cannot be read is assumed to shadow everything
  }
  const visit = (node: Node | null): void => {
    if (!node) return;
    const names: string[] = [];
    if (node.type === 'VariableDeclarator') bindingNames(node.id as Node, names);
    // (a named function or class expression's name is bound inside it: `(function Math() { ... })()`)
    if (['FunctionDeclaration', 'ClassDeclaration', 'FunctionExpression', 'ClassExpression'].includes(node.type) && node.id) names.push((node.id as Node).name as string);
    if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') for (const p of node.params as Node[]) bindingNames(p, names);
    if (node.type === 'CatchClause') bindingNames(node.param as Node | null, names);
    for (const n of names) if (INLINE_GLOBALS.has(n)) out.add(n);
    for (const child of children(node)) visit(child);
  };
  visit(program);
  return out;
}

/** touchedGlobals' answer for a file that may change anything: no handler runs on the main thread. */
export const EVERYTHING = '*';

/** Names that reach every global at once (a file writing through one may change any builtin). */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'self', 'window', 'Reflect']);
/** Members that reach a prototype whatever they hang off. */
const PROTO_MEMBERS = new Set(['__proto__', 'getPrototypeOf', 'setPrototypeOf', '__defineGetter__', '__defineSetter__']);

/**
 * The globals of INLINE_GLOBALS a hook file may change for the executors (which run every hook
 * file, and what they require, in one realm): written (`Math.clamp = ...`, `JSON = ...`) or passed
 * around (`Object.assign(Math, ...)`): a handler of ANY file that uses one of them stays in the
 * executors, where it sees the change (on the main thread it would not). EVERYTHING ("*") when the
 * file may change a builtin's prototype (`String.prototype.capitalize = ...`: a handler reaches
 * those through any text or list, without naming a global), reaches every global (globalThis,
 * `"".__proto__`), requires a module that is not Node's (it may do either), or cannot be read:
 * then no handler runs on the main thread.
 */
export function touchedGlobals(fileSource: string): Set<string> {
  const all = () => new Set([...INLINE_GLOBALS, EVERYTHING]);
  let program: Node;
  try {
    program = parseFile(fileSource);
  } catch {
    // (a .pb.ts file, or a text acorn cannot read): its words
    if (/prototype|__proto__|globalThis|\bglobal\b|\bReflect\b|defineProperty|\brequire\b|\bimport\b/.test(fileSource)) return all();
    const out = new Set<string>();
    for (const g of INLINE_GLOBALS) if (new RegExp(`(^|[^\\w$.])${g}\\b(?!\\s*[.([])`, 'm').test(fileSource) || new RegExp(`(^|[^\\w$.])${g}\\s*(\\.\\s*[\\w$]+|\\[[^\\]]*\\])*\\s*([-+*/%&|^]|\\*\\*|<<|>>>?|\\?\\?|&&|\\|\\|)?=(?!=)`, 'm').test(fileSource)) out.add(g);
    return out;
  }
  const builtins = new Set(builtinModules);
  const declared = new Set<string>();
  const declare = (node: Node | null): void => {
    if (!node) return;
    if (node.type === 'VariableDeclarator') bindingNames(node.id as Node, [...declared]).forEach((n) => declared.add(n));
    if (['FunctionDeclaration', 'ClassDeclaration', 'FunctionExpression', 'ClassExpression'].includes(node.type) && node.id) declared.add((node.id as Node).name as string);
    for (const child of children(node)) declare(child);
  };
  declare(program);
  const out = new Set<string>();
  let everything = false;
  const rootOf = (n: Node): Node => {
    let r = n;
    while (r.type === 'MemberExpression' || r.type === 'ChainExpression') r = (r.type === 'ChainExpression' ? r.expression : r.object) as Node;
    return r;
  };
  const written = (target: Node) => {
    const root = rootOf(target);
    if (root.type !== 'Identifier') {
      if (target.type === 'MemberExpression') everything = true; // ("".constructor.x = ..., f().x = ...)
      return;
    }
    const name = root.name as string;
    // (a builtin's member written may be one the server's own event code calls: JSON.stringify)
    if (GLOBAL_OBJECTS.has(name) || (INLINE_GLOBALS.has(name) && target.type === 'MemberExpression')) everything = true;
    if (INLINE_GLOBALS.has(name)) out.add(name);
  };
  const MUTATORS = new Set(['assign', 'defineProperty', 'defineProperties', 'setPrototypeOf', 'freeze', 'seal', 'preventExtensions']);
  const visit = (node: Node | null, parent: Node | null): void => {
    if (!node) return;
    switch (node.type) {
      case 'AssignmentExpression':
        if ((node.left as Node).type === 'Identifier' || (node.left as Node).type === 'MemberExpression') written(node.left as Node);
        break;
      case 'UpdateExpression':
        written(node.argument as Node);
        break;
      case 'UnaryExpression':
        if (node.operator === 'delete') written(node.argument as Node);
        break;
      case 'Identifier': {
        const name = node.name as string;
        if (GLOBAL_OBJECTS.has(name) && !(parent?.type === 'MemberExpression' && parent.property === node && !parent.computed) && !(parent?.type === 'Property' && parent.key === node && !parent.computed)) everything = true;
        const used = parent && ((parent.type === 'MemberExpression' && (parent.object === node || (parent.property === node && !parent.computed))) || ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.callee === node) || (parent.type === 'BinaryExpression' && parent.operator === 'instanceof' && parent.right === node) || (parent.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand) || ((parent.type === 'VariableDeclarator' || parent.type === 'FunctionDeclaration' || parent.type === 'FunctionExpression' || parent.type === 'ClassDeclaration' || parent.type === 'ClassExpression') && parent.id === node));
        if (INLINE_GLOBALS.has(name) && !used) {
          out.add(name);
          // passed to a call (.filter(Boolean)): that name only; kept in a variable or given to
          // Object.assign and the like, it may be changed through them
          const callee = (parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.callee !== node ? (parent.callee as Node) : null;
          if (!callee || (callee.type === 'MemberExpression' && MUTATORS.has(memberName(callee) ?? ''))) everything = true;
        }
        break;
      }
      case 'MemberExpression': {
        const name = memberName(node);
        if (name !== null && PROTO_MEMBERS.has(name)) everything = true;
        if (name === 'prototype' && (node.object as Node).type === 'MemberExpression' && memberName(node.object as Node) === 'constructor') everything = true;
        // a prototype of anything but the file's own functions and classes (Foo.prototype.bar = ...)
        if (name === 'prototype') {
          const root = rootOf(node);
          if (root !== node.object || root.type !== 'Identifier' || !declared.has(root.name as string)) everything = true;
        }
        // (a global's member the file names by a computed key: Math[k] = ...)
        if (node.computed && (node.object as Node).type === 'Identifier' && INLINE_GLOBALS.has((node.object as Node).name as string)) out.add((node.object as Node).name as string);
        break;
      }
      case 'CallExpression':
      case 'ImportExpression': {
        const callee = node.callee as Node | undefined;
        if (node.type === 'ImportExpression' || (callee?.type === 'Identifier' && callee.name === 'require')) {
          const arg = (node.type === 'ImportExpression' ? node.source : (node.arguments as Node[])[0]) as Node | undefined;
          const id = arg?.type === 'Literal' && typeof arg.value === 'string' ? arg.value.replace(/^node:/, '') : null;
          if (id === null || !builtins.has(id)) everything = true;
        }
        break;
      }
    }
    for (const child of children(node)) visit(child, node);
  };
  visit(program, null);
  return everything ? all() : out;
}

/**
 * Whether a hook file runs strict for the executors ("use strict" first in it: they compile it as
 * one function), and whether it says "use strict" anywhere else (then some of its handlers may be
 * strict and others not: its handlers stay in the executors).
 */
export function strictness(fileSource: string): 'strict' | 'sloppy' | 'mixed' {
  let program: Node;
  try {
    program = parseFile(fileSource);
  } catch {
    return 'mixed';
  }
  const body = program.body as Node[];
  let top = false;
  for (const s of body) {
    if (typeof s.directive !== 'string') break;
    if (s.directive === 'use strict') top = true;
  }
  const count = (fileSource.match(/use strict/g) ?? []).length;
  if (top) return count === 1 ? 'strict' : 'mixed';
  return count === 0 ? 'sloppy' : 'mixed';
}
