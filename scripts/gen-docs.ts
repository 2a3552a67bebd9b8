/**
 * `npm run docs`: writes docs/forms/<form>.md for every form in schemas/ (fields, types,
 * constraints, defaults, help, conditions, and the screens they appear on) and docs/forms/README.md,
 * in English (the schema files' own words), and the same in every other language under locales/ as
 * docs/forms/<lang>/: the form and screen words from locales/<lang>/forms.json (as the dashboard
 * shows them, src/lib/i18n/file-words.ts), the documentation's own words from locales/<lang>/docs.json.
 * Output depends only on the files, in sorted order, so it is byte-for-byte reproducible;
 * tests/contract/docs-fresh.test.ts compares it with the committed docs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LayoutCell, LayoutEntry } from '../src/engine/layout';
import { parseExtraActions, parseScreen, screenForms, type ScreenDefinition } from '../src/engine/screen';
import { readForms, readJsonFile } from '../src/lib/schema/catalog-files';
import { localizeFile } from '../src/lib/i18n/file-words';
import { localeLanguages, readLocale, SOURCE_LANGUAGE } from '../src/lib/i18n/locale-files';

type Json = Record<string, any>;

export interface CatalogForm {
  name: string;
  schema: Json;
  uiSchema: Json;
}

export interface Catalog {
  forms: CatalogForm[];
  screens: ScreenDefinition[];
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DOCS_DIR = path.join(ROOT, 'docs', 'forms');

/**
 * Every form (schemas/**\/*.schema.json with its .ui.json) and every screens/*.json, sorted by name;
 * in `lang`, the files' words translated by locales/<lang>/forms.json (a word it lacks or marks null
 * stays English, as in the dashboard).
 */
export function loadCatalog(root = ROOT, lang = SOURCE_LANGUAGE): Catalog {
  const words = lang === SOURCE_LANGUAGE ? undefined : readLocale(root, lang, 'forms');
  const forms = readForms(path.join(root, 'schemas')).map(({ name, schema, uiSchema }) => ({
    name,
    schema: localizeFile(`schemas/${name}.schema.json`, schema, words),
    uiSchema: localizeFile(`schemas/${name}.ui.json`, uiSchema, words),
  }));
  const screensDir = path.join(root, 'screens');
  const screens = fs
    .readdirSync(screensDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => parseScreen(path.basename(file, '.json'), localizeFile(`screens/${file}`, readJsonFile(path.join(screensDir, file)), words)));
  return { forms, screens };
}

/** The documentation's own words in a language (locales/<lang>/docs.json, English for a key it lacks). */
export type DocWords = (key: string, params?: Record<string, string | number>) => string;

export function docWords(root = ROOT, lang = SOURCE_LANGUAGE): DocWords {
  const source = readLocale(root, SOURCE_LANGUAGE, 'docs');
  const own = readLocale(root, lang, 'docs');
  return (key, params = {}) => {
    const text = own[key] ?? source[key];
    if (typeof text !== 'string') throw new Error(`locales/${SOURCE_LANGUAGE}/docs.json has no "${key}"`);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
  };
}

// ---- describing schemas ----

const code = (s: string) => '`' + s + '`';
const cell = (s: string) => (s ? s.replace(/\|/g, '\\|').replace(/\n/g, ' ') : '–');

function deref(root: Json, node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string') return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((n: any, k: string) => n?.[k], root);
  return deref(root, target);
}

/** A property schema with its `$ref` followed and the keywords beside the `$ref` (e.g. a title) kept. */
function withSiblings(root: Json, node: Json): Json {
  const { $ref: _ref, ...siblings } = node;
  return { ...(deref(root, node) ?? {}), ...siblings };
}

/** Fields of nested objects (e.g. `verificationTemplate.subject`), after their parent's row. */
function withNestedFields(root: Json, rows: FieldRow[]): FieldRow[] {
  const out: FieldRow[] = [];
  for (const row of rows) {
    out.push(row);
    const s = row.schema;
    if (s.type !== 'object' || !s.properties) continue;
    const required: string[] = s.required ?? [];
    for (const [name, p] of Object.entries<Json>(s.properties)) {
      out.push({
        name: `${row.name}.${name}`,
        schema: withSiblings(root, p),
        required: required.includes(name) ? row.shown : [],
        shown: row.shown,
      });
    }
  }
  return out;
}

/** "`id` is set", "`changePassword` is true" — a readable form of an `if` schema. */
function describeCondition(cond: Json, w: DocWords): string {
  const parts: string[] = [];
  const props: Json = cond.properties ?? {};
  for (const key of cond.required ?? []) {
    const p = props[key];
    parts.push(p && 'const' in p ? w('is', { key: code(key), value: JSON.stringify(p.const) }) : w('isSet', { key: code(key) }));
  }
  for (const [key, p] of Object.entries(props)) {
    if ((cond.required ?? []).includes(key)) continue;
    if (p && typeof p === 'object' && 'const' in (p as Json)) parts.push(w('isWhenSet', { key: code(key), value: JSON.stringify((p as Json).const) }));
  }
  return parts.join(w('and')) || w('conditionHolds');
}

interface FieldRow {
  name: string;
  schema: Json;
  /** Conditions under which the field is required ('' = always). */
  required: string[];
  /** Conditions under which the field is part of the form ('' = always). */
  shown: string[];
}

/** "`id` is set" → "`id` is not set"; anything else → "not (…)". */
function negate(cond: string, w: DocWords): string {
  const key = /^(`[^`]+`)$/.exec(cond.slice(0, cond.length - w('isSet', { key: '' }).length))?.[1];
  return key && cond === w('isSet', { key }) ? w('isNotSet', { key }) : w('not', { condition: cond });
}

/** "yes" / "no", or "when A, or when B". */
function describeWhen(conds: string[], none: string, always: string, w: DocWords): string {
  if (!conds.length) return none;
  if (conds.includes('')) return always;
  return conds.map((c) => w('when', { condition: c })).join(w('orWhen'));
}

/** Fields in schema order, then those added by conditional branches, each with when it applies. */
function collectFields(root: Json, w: DocWords): FieldRow[] {
  const rows = new Map<string, FieldRow>();
  const add = (list: string[], cond: string) => {
    if (!list.includes(cond)) list.push(cond);
  };
  const visit = (s: Json | undefined, when: string[]) => {
    s = deref(root, s);
    if (!s) return;
    const cond = when.join(w('and'));
    for (const [name, p] of Object.entries<Json>(s.properties ?? {})) {
      const row = rows.get(name) ?? { name, schema: withSiblings(root, p), required: [], shown: [] };
      rows.set(name, row);
      add(row.shown, cond);
    }
    for (const name of s.required ?? []) {
      const row = rows.get(name);
      if (row) add(row.required, cond);
    }
    if (s.if) {
      const c = describeCondition(s.if, w);
      visit(s.then, [...when, c]);
      visit(s.else, [...when, negate(c, w)]);
    }
    for (const branch of s.allOf ?? []) visit(branch, when);
    for (const [key, dep] of Object.entries<any>(s.dependencies ?? {})) {
      const c = [...when, w('isSet', { key: code(key) })].join(w('and'));
      if (Array.isArray(dep)) dep.forEach((name: string) => rows.get(name) && add(rows.get(name)!.required, c));
      else visit(dep, [...when, w('isSet', { key: code(key) })]);
    }
  };
  visit(root, []);
  return [...rows.values()];
}

function typeOf(s: Json, w: DocWords): string {
  const t = Array.isArray(s.type) ? s.type.join(w('or')) : (s.type ?? (s.enum ? 'enum' : 'any'));
  return s.format ? `${t} (${s.format})` : t;
}

function constraintsOf(s: Json, w: DocWords): string {
  const out: string[] = [];
  const values = (list: unknown[]) => list.map((v) => code(JSON.stringify(v))).join(', ');
  if (s.minLength !== undefined) out.push(w('minLength', { n: s.minLength }));
  if (s.maxLength !== undefined) out.push(w('maxLength', { n: s.maxLength }));
  if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.minItems !== undefined) out.push(w('minItems', { n: s.minItems }));
  if (s.maxItems !== undefined) out.push(w('maxItems', { n: s.maxItems }));
  if (s.pattern !== undefined) out.push(w('matches', { pattern: code(s.pattern) }));
  if (s.enum) out.push(w('oneOfValues', { values: values(s.enum) }));
  if (s['x-sameAs']) out.push(w('mustEqual', { field: code(s['x-sameAs']) }));
  if (s['x-notEmpty']) out.push(w('notEmpty'));
  if (s['x-minimumOf']) out.push(w('minimumOf', { field: code(s['x-minimumOf']) }));
  if (s['x-maximumCountOf']) out.push(w('maximumCountOf', { field: code(s['x-maximumCountOf']) }));
  if (s['x-integerWhen']) out.push(w('integerWhen', { field: code(s['x-integerWhen']) }));
  if (s.not && Array.isArray(s.not.enum)) out.push(w('noneOf', { values: values(s.not.enum) }));
  if ('const' in s) out.push(w('equals', { value: code(JSON.stringify(s.const)) }));
  for (const k of ['anyOf', 'oneOf']) {
    if (!Array.isArray(s[k])) continue;
    const branches = (s[k] as Json[]).map((b) => {
      const c = constraintsOf(b, w);
      return b.title ? `${c} (${b.title})` : c;
    });
    out.push(w(k === 'anyOf' ? 'anyOfBranches' : 'oneOfBranches', { branches: branches.join(w('or')) }));
  }
  if (s.readOnly) out.push(w('readOnly'));
  return out.join(', ');
}

function helpOf(s: Json, ui: Json, w: DocWords): string {
  const options: Json = ui['ui:options'] ?? {};
  const parts = [String(ui['ui:help'] ?? s.description ?? '')];
  if (Array.isArray(options.placeholders)) parts.push(w('placeholders', { list: options.placeholders.map(code).join(', ') }));
  if (typeof options.changeWarning === 'string') parts.push(w('changeWarning', { text: w('quoted', { text: options.changeWarning }) }));
  return parts.filter(Boolean).join(' ');
}

function messagesOf(s: Json, w: DocWords): string {
  const api = Object.entries<string>(s['x-messages'] ?? {}).map(([k, m]) => w('apiMessage', { keyword: k, text: w('quoted', { text: m }) }));
  // the dashboard form's own words, where the spec words it differently from the API
  const form = Object.entries<string>(s['x-form-messages'] ?? {}).map(([k, m]) => w('formMessage', { keyword: k, text: w('quoted', { text: m }) }));
  return [...api, ...form].join('; ');
}

const DEFAULT_WIDGETS: Record<string, string> = { boolean: 'checkbox', integer: 'number', number: 'number', string: 'text', array: 'list', object: 'group' };

function widgetOf(s: Json, ui: Json): string {
  if (ui['ui:widget']) return String(ui['ui:widget']);
  if (s.enum || s.oneOf) return 'select';
  return DEFAULT_WIDGETS[String(s.type)] ?? 'text';
}

function formDoc(form: CatalogForm, screens: ScreenDefinition[], w: DocWords): string {
  const { name, schema, uiSchema } = form;
  const q = (text: string) => w('quoted', { text });
  const lines: string[] = [];
  lines.push(`# ${schema.title ?? name} (${code(name)})`, '');
  lines.push(w('generated'), '');
  if (schema.description) lines.push(schema.description, '');
  lines.push(w('files', { files: `${code(`schemas/${name}.schema.json`)}, ${code(`schemas/${name}.ui.json`)}` }), '');

  lines.push(`## ${w('whereItAppears')}`, '');
  const using = screens.filter((s) => screenForms(s, [name]).some((f) => f.schema === name || f.ui === name));
  if (!using.length) lines.push(w('notUsed'), '');
  for (const s of using) {
    const titles = s.titleNew ? `${q(s.title)} / ${q(s.titleNew)}` : q(s.title);
    lines.push(`- ${w(s.kind === 'panel' ? 'panel' : 'page', { titles, route: code('#' + s.route), file: code(`screens/${s.name}.json`) })}`);
    if (s.load) lines.push(`  - ${w('loads', { request: code('GET ' + s.load) })}`);
    // a form's own actions (a provider's `ui:options.actions`) join its template screen's, after the first (as drawn)
    const own = parseExtraActions(`schemas/${name}.ui.json`, (uiSchema['ui:options'] as Json | undefined)?.actions);
    const [first, ...rest] = s.actions ?? [];
    const actions = screenForms(s).length || !first ? (s.actions ?? []) : [first, ...own, ...rest];
    for (const a of actions) {
      const opens = a.opens ? w('opens', { file: code(`screens/${a.opens}.json`) }) : '';
      const calls = a.method && a.path ? code(`${a.method} ${a.path}`) : '';
      const label = a.labelNew ? `${q(a.label)} / ${q(a.labelNew)}` : q(a.label);
      const notes = [
        opens,
        a.confirm && w('asks', { text: q(a.confirm) }),
        a.success && w('success', { text: q(a.success) }),
        a.successNew && w('successNew', { text: q(a.successNew) }),
        a.error && w('failure', { text: q(a.error) }),
      ].filter(Boolean);
      lines.push(`  - ${w('action', { label })}${calls ? ': ' + calls : ''}${notes.length ? '; ' + notes.join('; ') : ''}`);
    }
  }
  if (using.length) lines.push('');

  lines.push(`## ${w('fields')}`, '');
  const columns = ['field', 'label', 'type', 'widget', 'required', 'constraints', 'default', 'shown', 'help', 'messages'];
  lines.push(`| ${columns.map((c) => w(`col.${c}`)).join(' | ')} |`);
  lines.push(`|${columns.map(() => '---').join('|')}|`);
  for (const row of withNestedFields(schema, collectFields(schema, w))) {
    const s = row.schema;
    const ui: Json = row.name.split('.').reduce<Json>((n, k) => (n?.[k] as Json) ?? {}, uiSchema);
    const hidden = ui['ui:widget'] === 'hidden';
    lines.push(
      '| ' +
        [
          code(row.name),
          cell(s.title ?? ''),
          cell(typeOf(s, w)),
          cell(widgetOf(s, ui)),
          cell(describeWhen(row.required, w('no'), w('yes'), w)),
          cell(constraintsOf(s, w)),
          cell(s.default !== undefined ? code(JSON.stringify(s.default)) : ''),
          cell(hidden ? w('neverHidden') : describeWhen(row.shown, w('always'), w('always'), w)),
          cell(helpOf(s, ui, w)),
          cell(messagesOf(s, w)),
        ].join(' | ') +
        ' |',
    );
  }
  lines.push('');
  if (Array.isArray(uiSchema['ui:layout'])) {
    lines.push(`## ${w('layout')}`, '');
    // a decoration cell (a widget with no property) reads e.g. `statusLabel` (check "s3")
    const cellDoc = (c: LayoutCell) =>
      typeof c === 'string' ? code(c) : typeof c['ui:options']?.check === 'string' ? w('check', { widget: code(c['ui:widget']), name: q(c['ui:options'].check) }) : code(c['ui:widget']);
    for (const entry of uiSchema['ui:layout'] as LayoutEntry[]) {
      if (Array.isArray(entry)) lines.push(`- ${entry.map(cellDoc).join(' · ')}`);
      else lines.push(`- ${w('collapsed', { title: q(entry.collapsible), rows: entry.rows.map((r) => r.map(cellDoc).join(' · ')).join(' / ') })}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Links to the same index in the other languages ('de/README.md', '../README.md'). */
function languageLinks(lang: string, languages: readonly string[]): string {
  const up = lang === SOURCE_LANGUAGE ? '' : '../';
  return languages
    .filter((l) => l !== lang)
    .map((l) => `[${l}](${up}${l === SOURCE_LANGUAGE ? '' : `${l}/`}README.md)`)
    .join(' · ');
}

function indexDoc(catalog: Catalog, w: DocWords, lang: string, languages: readonly string[]): string {
  const lines = [`# ${w('index.title')}`, '', w('generated'), ''];
  lines.push(w('index.intro'), '');
  if (languages.length > 1) lines.push(w('index.languages', { links: languageLinks(lang, languages) }), '');
  lines.push(`| ${['form', 'title', 'fields', 'screens'].map((c) => w(`index.col.${c}`)).join(' | ')} |`, '|---|---|---|---|');
  for (const form of catalog.forms) {
    const screens = catalog.screens.filter((s) => screenForms(s, [form.name]).some((f) => f.schema === form.name)).map((s) => code(s.name));
    lines.push(`| [${code(form.name)}](${form.name}.md) | ${cell(form.schema.title ?? '')} | ${collectFields(form.schema, w).length} | ${cell(screens.join(', '))} |`);
  }
  lines.push('');
  return lines.join('\n');
}

/** The docs directory of a language, relative to docs/forms/: '' for English, 'de/' for German. */
export const languageDir = (lang: string) => (lang === SOURCE_LANGUAGE ? '' : `${lang}/`);

interface DocsLanguage {
  lang: string;
  words: DocWords;
  /** Every language the docs are written in (the index links the others). */
  languages: readonly string[];
}

/** One language's docs of a catalog (loadCatalog(root, lang)): relative path → content. English by default. */
export function generateDocs(catalog: Catalog, language: DocsLanguage = { lang: SOURCE_LANGUAGE, words: docWords(), languages: [SOURCE_LANGUAGE] }): Map<string, string> {
  const { lang, words: w, languages } = language;
  const out = new Map<string, string>();
  out.set('README.md', indexDoc(catalog, w, lang, languages));
  for (const form of catalog.forms) out.set(`${form.name}.md`, formDoc(form, catalog.screens, w));
  return out;
}

/**
 * Every language's docs, relative path under docs/forms/ → content: English at the top, each other
 * language under `<lang>/` in the same layout.
 */
export function generateAllDocs(root = ROOT): Map<string, string> {
  const out = new Map<string, string>();
  const languages = localeLanguages(root);
  for (const lang of languages) {
    const docs = generateDocs(loadCatalog(root, lang), { lang, words: docWords(root, lang), languages });
    for (const [rel, content] of docs) out.set(`${languageDir(lang)}${rel}`, content);
  }
  return out;
}

function main() {
  const docs = generateAllDocs();
  // Start clean so a removed form loses its page.
  fs.rmSync(DOCS_DIR, { recursive: true, force: true });
  for (const [rel, content] of docs) {
    const file = path.join(DOCS_DIR, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  console.log(`Wrote ${docs.size} files to ${path.relative(process.cwd(), DOCS_DIR) || DOCS_DIR}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
