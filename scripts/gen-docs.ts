/**
 * `npm run docs`: writes docs/forms/<form>.md for every form in schemas/ (fields, types,
 * constraints, defaults, help, conditions, and the screens they appear on) and docs/forms/README.md.
 * Output depends only on the files, in sorted order, so it is byte-for-byte reproducible;
 * tests/contract/docs-fresh.test.ts compares it with the committed docs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LayoutCell, LayoutEntry } from '../src/engine/layout';
import { parseExtraActions, parseScreen, screenForms, type ScreenDefinition } from '../src/engine/screen';
import { readForms, readJsonFile } from '../src/lib/schema/catalog-files';

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

/** Every form (schemas/**\/*.schema.json with its .ui.json) and every screens/*.json, sorted by name. */
export function loadCatalog(root = ROOT): Catalog {
  const forms = readForms(path.join(root, 'schemas')).map(({ name, schema, uiSchema }) => ({ name, schema, uiSchema }));
  const screensDir = path.join(root, 'screens');
  const screens = fs
    .readdirSync(screensDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => parseScreen(path.basename(file, '.json'), readJsonFile(path.join(screensDir, file))));
  return { forms, screens };
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
function describeCondition(cond: Json): string {
  const parts: string[] = [];
  const props: Json = cond.properties ?? {};
  for (const key of cond.required ?? []) {
    const p = props[key];
    parts.push(p && 'const' in p ? `${code(key)} is ${JSON.stringify(p.const)}` : `${code(key)} is set`);
  }
  for (const [key, p] of Object.entries(props)) {
    if ((cond.required ?? []).includes(key)) continue;
    if (p && typeof p === 'object' && 'const' in (p as Json)) parts.push(`${code(key)} is ${JSON.stringify((p as Json).const)} (when set)`);
  }
  return parts.join(' and ') || 'the condition holds';
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
function negate(cond: string): string {
  return /^`[^`]+` is set$/.test(cond) ? cond.replace(/ is set$/, ' is not set') : `not (${cond})`;
}

/** "yes" / "no", or "when A, or when B". */
function describeWhen(conds: string[], none: string, always: string): string {
  if (!conds.length) return none;
  if (conds.includes('')) return always;
  return conds.map((c) => `when ${c}`).join(', or ');
}

/** Fields in schema order, then those added by conditional branches, each with when it applies. */
function collectFields(root: Json): FieldRow[] {
  const rows = new Map<string, FieldRow>();
  const add = (list: string[], cond: string) => {
    if (!list.includes(cond)) list.push(cond);
  };
  const visit = (s: Json | undefined, when: string[]) => {
    s = deref(root, s);
    if (!s) return;
    const cond = when.join(' and ');
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
      const c = describeCondition(s.if);
      visit(s.then, [...when, c]);
      visit(s.else, [...when, negate(c)]);
    }
    for (const branch of s.allOf ?? []) visit(branch, when);
    for (const [key, dep] of Object.entries<any>(s.dependencies ?? {})) {
      const c = [...when, `${code(key)} is set`].join(' and ');
      if (Array.isArray(dep)) dep.forEach((name: string) => rows.get(name) && add(rows.get(name)!.required, c));
      else visit(dep, [...when, `${code(key)} is set`]);
    }
  };
  visit(root, []);
  return [...rows.values()];
}

function typeOf(s: Json): string {
  const t = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? (s.enum ? 'enum' : 'any'));
  return s.format ? `${t} (${s.format})` : t;
}

function constraintsOf(s: Json): string {
  const out: string[] = [];
  if (s.minLength !== undefined) out.push(`min ${s.minLength} characters`);
  if (s.maxLength !== undefined) out.push(`max ${s.maxLength} characters`);
  if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.minItems !== undefined) out.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  if (s.pattern !== undefined) out.push(`matches ${code(s.pattern)}`);
  if (s.enum) out.push(`one of ${s.enum.map((v: unknown) => code(JSON.stringify(v))).join(', ')}`);
  if (s['x-sameAs']) out.push(`must equal ${code(s['x-sameAs'])}`);
  if (s['x-notEmpty']) out.push('not 0 or empty');
  if (s['x-minimumOf']) out.push(`≥ ${code(s['x-minimumOf'])} (when both are set)`);
  if (s['x-maximumCountOf']) out.push(`≤ the number of ${code(s['x-maximumCountOf'])} (at least 1)`);
  if (s['x-integerWhen']) out.push(`whole number when ${code(s['x-integerWhen'])}`);
  if (s.not && Array.isArray(s.not.enum)) out.push(`none of ${s.not.enum.map((v: unknown) => code(JSON.stringify(v))).join(', ')}`);
  if ('const' in s) out.push(`equals ${code(JSON.stringify(s.const))}`);
  for (const k of ['anyOf', 'oneOf']) {
    if (!Array.isArray(s[k])) continue;
    const branches = (s[k] as Json[]).map((b) => {
      const c = constraintsOf(b);
      return b.title ? `${c} (${b.title})` : c;
    });
    out.push(`${k === 'anyOf' ? 'any' : 'one'} of: ${branches.join(' or ')}`);
  }
  if (s.readOnly) out.push('read-only');
  return out.join(', ');
}

function helpOf(s: Json, ui: Json): string {
  const options: Json = ui['ui:options'] ?? {};
  const parts = [String(ui['ui:help'] ?? s.description ?? '')];
  if (Array.isArray(options.placeholders)) parts.push(`Placeholders (copy on click): ${options.placeholders.map(code).join(', ')}.`);
  if (typeof options.changeWarning === 'string') parts.push(`Warns when changed: “${options.changeWarning}”`);
  return parts.filter(Boolean).join(' ');
}

function messagesOf(s: Json): string {
  const api = Object.entries<string>(s['x-messages'] ?? {}).map(([k, m]) => `${k}: “${m}”`);
  // the dashboard form's own words, where the spec words it differently from the API
  const form = Object.entries<string>(s['x-form-messages'] ?? {}).map(([k, m]) => `${k} (form): “${m}”`);
  return [...api, ...form].join('; ');
}

const DEFAULT_WIDGETS: Record<string, string> = { boolean: 'checkbox', integer: 'number', number: 'number', string: 'text', array: 'list', object: 'group' };

function widgetOf(s: Json, ui: Json): string {
  if (ui['ui:widget']) return String(ui['ui:widget']);
  if (s.enum || s.oneOf) return 'select';
  return DEFAULT_WIDGETS[String(s.type)] ?? 'text';
}

function formDoc(form: CatalogForm, screens: ScreenDefinition[]): string {
  const { name, schema, uiSchema } = form;
  const lines: string[] = [];
  lines.push(`# ${schema.title ?? name} (${code(name)})`, '');
  lines.push('<!-- Generated by `npm run docs` from the schema files; do not edit by hand. -->', '');
  if (schema.description) lines.push(schema.description, '');
  lines.push(`Files: ${code(`schemas/${name}.schema.json`)}, ${code(`schemas/${name}.ui.json`)}`, '');

  lines.push('## Where it appears', '');
  const using = screens.filter((s) => screenForms(s, [name]).some((f) => f.schema === name || f.ui === name));
  if (!using.length) lines.push('Not used by any screen definition.', '');
  for (const s of using) {
    const titles = s.titleNew ? `“${s.title}” / “${s.titleNew}”` : `“${s.title}”`;
    lines.push(`- ${s.kind === 'panel' ? 'Panel' : 'Page'} ${titles} at ${code('#' + s.route)} (${code(`screens/${s.name}.json`)})`);
    if (s.load) lines.push(`  - loads ${code('GET ' + s.load)}`);
    // a form's own actions (a provider's `ui:options.actions`) join its template screen's, after the first (as drawn)
    const own = parseExtraActions(`schemas/${name}.ui.json`, (uiSchema['ui:options'] as Json | undefined)?.actions);
    const [first, ...rest] = s.actions ?? [];
    const actions = screenForms(s).length || !first ? (s.actions ?? []) : [first, ...own, ...rest];
    for (const a of actions) {
      const opens = a.opens ? `opens ${code(`screens/${a.opens}.json`)}` : '';
      const calls = a.method && a.path ? code(`${a.method} ${a.path}`) : '';
      const label = a.labelNew ? `“${a.label}” / “${a.labelNew}”` : `“${a.label}”`;
      const notes = [
        opens,
        a.confirm && `asks “${a.confirm}”`,
        a.success && `success: “${a.success}”`,
        a.successNew && `success (new): “${a.successNew}”`,
        a.error && `failure: “${a.error}”`,
      ].filter(Boolean);
      lines.push(`  - action ${label}${calls ? ': ' + calls : ''}${notes.length ? '; ' + notes.join('; ') : ''}`);
    }
  }
  if (using.length) lines.push('');

  lines.push('## Fields', '');
  lines.push('| Field | Label | Type | Widget | Required | Constraints | Default | Shown | Help | Messages |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of withNestedFields(schema, collectFields(schema))) {
    const s = row.schema;
    const ui: Json = row.name.split('.').reduce<Json>((n, k) => (n?.[k] as Json) ?? {}, uiSchema);
    const hidden = ui['ui:widget'] === 'hidden';
    lines.push(
      '| ' +
        [
          code(row.name),
          cell(s.title ?? ''),
          cell(typeOf(s)),
          cell(widgetOf(s, ui)),
          cell(describeWhen(row.required, 'no', 'yes')),
          cell(constraintsOf(s)),
          cell(s.default !== undefined ? code(JSON.stringify(s.default)) : ''),
          cell(hidden ? 'never (hidden)' : describeWhen(row.shown, 'always', 'always')),
          cell(helpOf(s, ui)),
          cell(messagesOf(s)),
        ].join(' | ') +
        ' |',
    );
  }
  lines.push('');
  if (Array.isArray(uiSchema['ui:layout'])) {
    lines.push('## Layout', '');
    // a decoration cell (a widget with no property) reads e.g. `statusLabel` (check "s3")
    const cellDoc = (c: LayoutCell) =>
      typeof c === 'string' ? code(c) : `${code(c['ui:widget'])}${typeof c['ui:options']?.check === 'string' ? ` (check “${c['ui:options'].check}”)` : ''}`;
    for (const entry of uiSchema['ui:layout'] as LayoutEntry[]) {
      if (Array.isArray(entry)) lines.push(`- ${entry.map(cellDoc).join(' · ')}`);
      else lines.push(`- “${entry.collapsible}” (collapsed): ${entry.rows.map((r) => r.map(cellDoc).join(' · ')).join(' / ')}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function indexDoc(catalog: Catalog): string {
  const lines = ['# Forms', '', '<!-- Generated by `npm run docs` from the schema files; do not edit by hand. -->', ''];
  lines.push(
    'Every form the dashboard shows is a JSON Schema plus a UI schema under `schemas/`, rendered by `src/engine` and validated with the same files on the server. Screens (`screens/*.json`) say where each form appears.',
    '',
  );
  lines.push('| Form | Title | Fields | Screens |', '|---|---|---|---|');
  for (const form of catalog.forms) {
    const screens = catalog.screens.filter((s) => screenForms(s, [form.name]).some((f) => f.schema === form.name)).map((s) => code(s.name));
    lines.push(`| [${code(form.name)}](${form.name}.md) | ${cell(form.schema.title ?? '')} | ${collectFields(form.schema).length} | ${cell(screens.join(', '))} |`);
  }
  lines.push('');
  return lines.join('\n');
}

/** Relative path under docs/forms/ → content. */
export function generateDocs(catalog: Catalog): Map<string, string> {
  const out = new Map<string, string>();
  out.set('README.md', indexDoc(catalog));
  for (const form of catalog.forms) out.set(`${form.name}.md`, formDoc(form, catalog.screens));
  return out;
}

function main() {
  const docs = generateDocs(loadCatalog());
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
