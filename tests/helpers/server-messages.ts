// The messages the server can send, read from its sources (server/, src/lib/ which it shares, and
// the schema files' x-codes / x-messages): the field errors' `validation_*` codes with the words
// found beside them, the SQL console's refusals (`sql_<reason>`), and the envelope's messages given
// to the error helpers (server/core/errors.ts).
// tests/contract/server-messages.test.ts checks each has its translation in locales/*/server.json.
// A message built at run time from a variable alone cannot be read here; a template literal's
// `${…}` parts stand for a `{name}` of the translation.
import fs from 'node:fs';
import path from 'node:path';

export interface FoundMessage {
  /** `validation_*` for a field error; undefined for the envelope's message. */
  code?: string;
  /** The words, `${…}` parts as `{}`; undefined when only the code was found. */
  text?: string;
  /** file:line where it was found. */
  at: string;
}

function walk(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name), ext) : ext.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

// a string literal: '…', "…" or `…` (no nested template)
const STRING = String.raw`('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60)`;
const CODE = String.raw`(['"\x60])(validation_[a-z0-9_]+)\1`;

/** A literal's words: quotes and escapes undone, each `${…}` as `{}`. */
function literalText(literal: string): string {
  const quote = literal[0];
  let body = literal.slice(1, -1);
  if (quote === '`') {
    // ${…} with balanced braces inside
    let out = '';
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '$' && body[i + 1] === '{') {
        let depth = 1;
        i += 2;
        while (i < body.length && depth) {
          if (body[i] === '{') depth++;
          else if (body[i] === '}') depth--;
          i++;
        }
        i--;
        out += '{}';
      } else out += body[i];
    }
    body = out;
  }
  return body.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

// the error helpers and their default messages (server/core/errors.ts); an argument may be a
// constant (`badRequest(LOAD_FAILED)`), looked up among the sources' `const NAME = '…'`
const HELPERS = String.raw`\b(?:badRequest|notFound|forbidden|unauthorized|tooManyRequests)\(\s*|new ApiError\(\s*\d+\s*,\s*`;
const ENVELOPE_CALL = new RegExp(String.raw`(?:${HELPERS})(?:${STRING}|([A-Z][A-Z0-9_]*)\b)`, 'g');
const DEFAULT_PARAM = new RegExp(String.raw`\(message = ${STRING}`, 'g');
// backups' `rawError('Failed to …', err)`: the prefix, then the raw error
const RAW_ERROR = new RegExp(String.raw`\brawError\(\s*${STRING}`, 'g');
const FIELD_HELPERS = String.raw`\b(?:E|fieldError|fieldFailure|fail)\(\s*`;
const PAIR_CALL = new RegExp(String.raw`${FIELD_HELPERS}${CODE}\s*,\s*(sentenize\()?${STRING}`, 'g');
const PAIR_OBJECT = new RegExp(String.raw`code:\s*${CODE}\s*,\s*message:\s*(sentenize\()?${STRING}`, 'g');
const ANY_CODE = new RegExp(CODE, 'g');
// the SQL console's refusals (server/services/sql-console): code `sql_<reason>`
const SQL_REFUSAL = new RegExp(String.raw`new StatementRefused\(\s*'([a-z_]+)'\s*,\s*${STRING}`, 'g');
const CONSTANT = new RegExp(String.raw`\bconst ([A-Z][A-Z0-9_]*) = ${STRING};`, 'g');

/** sentenize() as the server applies it: a capital first letter and a closing full stop. */
function sentenized(text: string): string {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** Every message found in the sources under `root`. */
export function serverMessages(root: string): FoundMessage[] {
  const out: FoundMessage[] = [];
  const sources = [...walk(path.join(root, 'server'), /\.ts$/), ...walk(path.join(root, 'src', 'lib'), /\.ts$/)];
  const texts = new Map(sources.map((f) => [f, fs.readFileSync(f, 'utf8')]));
  const constants = new Map<string, string>();
  for (const text of texts.values()) for (const m of text.matchAll(CONSTANT)) constants.set(m[1], literalText(m[2]));
  // a template that is a constant alone (`${BUSY}`) is that constant
  const resolve = (text: string, literal: string) => constants.get(/^`\$\{([A-Z][A-Z0-9_]*)\}`$/.exec(literal)?.[1] ?? '') ?? text;
  for (const [file, text] of texts) {
    const at = (i: number) => `${path.relative(root, file)}:${lineOf(text, i)}`;
    for (const m of text.matchAll(ENVELOPE_CALL)) {
      const words = m[1] ? resolve(literalText(m[1]), m[1]) : constants.get(m[2]);
      if (words !== undefined) out.push({ text: words, at: at(m.index) });
    }
    for (const m of text.matchAll(DEFAULT_PARAM)) out.push({ text: literalText(m[1]), at: at(m.index) });
    for (const m of text.matchAll(RAW_ERROR)) out.push({ text: `${literalText(m[1])} Raw error: \n{}`, at: at(m.index) });
    for (const re of [PAIR_CALL, PAIR_OBJECT]) {
      for (const m of text.matchAll(re)) {
        const words = literalText(m[4]);
        out.push({ code: m[2], text: m[3] ? sentenized(words) : words, at: at(m.index) });
      }
    }
    for (const m of text.matchAll(ANY_CODE)) out.push({ code: m[2], at: at(m.index) });
    for (const m of text.matchAll(SQL_REFUSAL)) out.push({ code: `sql_${m[1]}`, text: literalText(m[2]), at: at(m.index) });
  }
  // a schema's x-codes and x-messages, paired by keyword
  for (const file of walk(path.join(root, 'schemas'), /\.schema\.json$/)) {
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      const codes = o['x-codes'] as Record<string, string> | undefined;
      const messages = o['x-messages'] as Record<string, string> | undefined;
      for (const [keyword, code] of Object.entries(codes ?? {})) {
        if (typeof code === 'string' && code.startsWith('validation_')) out.push({ code, text: messages?.[keyword], at: `${path.relative(root, file)}#${where}/x-codes/${keyword}` });
      }
      for (const [k, v] of Object.entries(o)) if (k !== 'x-codes' && k !== 'x-messages') visit(v, `${where}/${k}`);
    };
    visit(JSON.parse(fs.readFileSync(file, 'utf8')), '');
  }
  return out;
}

/**
 * Whether an English template (`{name}` for a value) words a found message: the message's `{}`
 * parts stand for any value.
 */
export function templateWords(template: string, text: string): boolean {
  const sample = text.replace(/\{\}/g, '\u0001');
  const source = template
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('(.+?)');
  return new RegExp(`^${source}$`, 's').test(sample);
}
