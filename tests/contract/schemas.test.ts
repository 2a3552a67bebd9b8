// The schema files are the contract between the dashboard, the server and the docs: they must
// compile in ajv strict mode with only our declared custom keywords, their UI schemas and screens
// must name what exists, and sample documents must be judged as expected by both the strict
// validator (server side) and the engine's rjsf validator (dashboard side).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStrictAjv } from '../../src/lib/schema/ajv';
import { withoutEmptyStrings } from '../../src/lib/schema/empty';
import { CUSTOM_KEYWORD_NAMES } from '../../src/lib/schema/keywords';
import { checkName, fillTemplate, screenForms } from '../../src/engine/screen';
import { isDecorationCell, layoutDecorations, layoutNames } from '../../src/engine/layout';
import { validateData } from '../../src/engine/validator';
import { isWidgetName, uiEntryErrors, uiRootErrors } from '../../src/engine/ui-options';
import { loadCatalog, ROOT } from '../../scripts/gen-docs';

type Json = Record<string, any>;

const catalog = loadCatalog();
const SAMPLES = path.join(ROOT, 'tests', 'contract', 'samples');

/** Every property name the schema can show, across conditional branches and $refs. */
function propertyNames(root: Json): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const s = node as Json;
    if (typeof s.$ref === 'string') visit(s.$ref.replace(/^#\//, '').split('/').reduce((n: any, k: string) => n?.[k], root));
    Object.keys(s.properties ?? {}).forEach((k) => names.add(k));
    ['then', 'else'].forEach((k) => visit(s[k]));
    ['allOf', 'anyOf', 'oneOf'].forEach((k) => (s[k] ?? []).forEach(visit));
    Object.values(s.dependencies ?? {}).forEach(visit);
  };
  visit(root);
  return names;
}

const deref = (root: Json, s: Json): Json =>
  typeof s.$ref === 'string' ? s.$ref.replace(/^#\//, '').split('/').reduce((n: any, k: string) => n?.[k], root) : s;

/** A property's own schema, wherever the schema declares its type (top level or a conditional branch). */
function propertySchema(root: Json, name: string): Json | undefined {
  let found: Json | undefined;
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (found?.type || !node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const s = node as Json;
    if (typeof s.$ref === 'string') visit(s.$ref.replace(/^#\//, '').split('/').reduce((n: any, k: string) => n?.[k], root));
    if (s.properties?.[name] && !found?.type) found = deref(root, s.properties[name]);
    ['then', 'else'].forEach((k) => visit(s[k]));
    ['allOf', 'anyOf', 'oneOf'].forEach((k) => (s[k] ?? []).forEach(visit));
    Object.values(s.dependencies ?? {}).forEach(visit);
  };
  visit(root);
  return found;
}

/** Every sub-schema, for keyword-level checks. */
function subschemas(node: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(node)) node.forEach((n) => subschemas(n, out));
  else if (node && typeof node === 'object') {
    out.push(node as Json);
    Object.entries(node as Json).forEach(([k, v]) => k !== 'x-messages' && k !== 'default' && k !== 'const' && subschemas(v, out));
  }
  return out;
}

function readSamples(name: string, kind: 'valid' | 'invalid'): unknown[] {
  const file = path.join(SAMPLES, `${name}.${kind}.json`);
  expect(fs.existsSync(file), `missing ${path.relative(ROOT, file)}`).toBe(true);
  const docs = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(Array.isArray(docs) && docs.length > 0, `${name}.${kind}.json must be a non-empty array`).toBe(true);
  return docs;
}

it('finds the forms and screens', () => {
  expect(catalog.forms.map((f) => f.name)).toEqual(expect.arrayContaining(['admins/installer', 'admins/login', 'admins/admin-editor']));
  expect(catalog.screens.length).toBeGreaterThan(0);
});

it('rejects a widget or ui:options key nothing reads', () => {
  expect(uiEntryErrors({ 'ui:widget': 'csv', 'ui:options': { exclusiveWth: 'onlyDomains' } })).toEqual(['ui:options.exclusiveWth is read by nothing (widget "csv")']);
  expect(uiEntryErrors({ 'ui:widget': 'toggle', 'ui:badge': 'new' })).toEqual([]);
  expect(uiEntryErrors({ 'ui:widget': 'csv', 'ui:options': { badge: 'new' } })).toEqual(['ui:options.badge is read by nothing (widget "csv")']);
  expect(uiEntryErrors({ 'ui:widget': 'updown' }, { type: 'integer' })).toEqual([]);
  expect(uiEntryErrors({ 'ui:widget': 'updown' }, { type: 'string' })).toEqual(['unknown widget "updown"']);
  expect(uiEntryErrors({ 'ui:widget': 'toggel' }, { type: 'boolean' })).toEqual(['unknown widget "toggel"']);
  expect(uiRootErrors({ 'ui:options': { opens: ['x'] } })).toEqual(['root ui:options.opens is read by nothing']);
});

it('declares custom keywords with the x- prefix only', () => {
  expect(CUSTOM_KEYWORD_NAMES.every((k) => k.startsWith('x-'))).toBe(true);
});

describe.each(catalog.forms.map((f) => [f.name, f] as const))('%s', (name, form) => {
  it('compiles in ajv strict mode', () => {
    expect(() => createStrictAjv().compile(form.schema)).not.toThrow();
  });

  it('words its x-messages for keywords the schema uses', () => {
    for (const s of subschemas(form.schema)) {
      for (const keyword of Object.keys(s['x-messages'] ?? {})) {
        if (keyword === 'required') continue;
        expect(s, `x-messages.${keyword} without ${keyword} in ${name}`).toHaveProperty([keyword]);
      }
    }
  });

  it('has a UI schema naming only existing properties and registered widgets', () => {
    const names = propertyNames(form.schema);
    for (const [key, value] of Object.entries<Json>(form.uiSchema)) {
      if (key === 'ui:layout') {
        // rows of names, or collapsible groups of rows ({ collapsible, rows }); a cell may be a decoration widget
        for (const n of layoutNames(value)) expect(names, `ui:layout names "${n}"`).toContain(n);
        const rows = (value as unknown as Array<unknown[] | { rows: unknown[][] }>).flatMap((e) => (Array.isArray(e) ? [e] : e.rows));
        for (const cell of rows.flat()) expect(typeof cell === 'string' || isDecorationCell(cell), `ui:layout cell ${JSON.stringify(cell)}`).toBe(true);
        for (const d of layoutDecorations(value)) {
          expect(isWidgetName(String(d['ui:widget'])), `unknown decoration widget "${d['ui:widget']}"`).toBe(true);
          expect(uiEntryErrors(d as Json), `decoration ${JSON.stringify(d)}`).toEqual([]);
        }
        continue;
      }
      if (key.startsWith('ui:')) continue;
      expect(names, `UI schema names "${key}"`).toContain(key);
      expect(uiEntryErrors(value, propertySchema(form.schema, key)), `UI schema of "${key}"`).toEqual([]);
    }
    expect(uiRootErrors(form.uiSchema as Json), 'root of the UI schema').toEqual([]);
  });

  it('accepts its valid samples and rejects its invalid ones, on both validators', () => {
    // The strict validator judges as the server does: an empty string reads as a missing value.
    const strict = createStrictAjv().compile(form.schema);
    const validate = Object.assign((doc: unknown) => strict(withoutEmptyStrings(doc)), { get errors() { return strict.errors; } });
    readSamples(name, 'valid').forEach((doc, i) => {
      expect(validate(doc), `valid[${i}]: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validateData(form.schema, doc).isValid, `engine, valid[${i}]`).toBe(true);
    });
    readSamples(name, 'invalid').forEach((doc, i) => {
      expect(validate(doc), `invalid[${i}] passed`).toBe(false);
      expect(validateData(form.schema, doc).isValid, `engine, invalid[${i}] passed`).toBe(false);
    });
  });
});

describe.each(catalog.screens.map((s) => [s.name, s] as const))('screens/%s.json', (_name, screen) => {
  it('names existing schemas and UI schemas', () => {
    const forms = new Set(catalog.forms.map((f) => f.name));
    const named = screenForms(screen, [...forms]);
    // a template screen (the provider popup) must match at least one form
    expect(named.length, 'forms named').toBeGreaterThan(0);
    for (const { schema, ui } of named) {
      expect(forms, `schema "${schema}"`).toContain(schema);
      expect(fs.existsSync(path.join(ROOT, 'schemas', `${ui}.ui.json`)), `schemas/${ui}.ui.json`).toBe(true);
    }
  });

  it('shows its check (if any) through a statusLabel widget in one of its UI schemas, and names no other check', () => {
    const uiOf = (ui: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', `${ui}.ui.json`), 'utf8')) as Json;
    const labels = screenForms(screen).flatMap(({ ui }) => {
      const doc = uiOf(ui);
      const cells = layoutDecorations(doc['ui:layout'])
        .filter((d) => d['ui:widget'] === 'statusLabel')
        .map((d) => d['ui:options'] ?? {});
      const props = Object.values<Json>(doc).filter((v) => v?.['ui:widget'] === 'statusLabel').map((v) => v['ui:options'] ?? {});
      return [...cells, ...props].map((o) => String(o.check ?? ''));
    });
    if (screen.check) expect(labels, `a statusLabel for check "${checkName(screen)}"`).toContain(checkName(screen));
    for (const l of labels) expect(screen.check ? [checkName(screen)] : [], `statusLabel check "${l}"`).toContain(l);
  });

  it('binds sections to paths that exist in the section schema or the whole document', () => {
    for (const section of screen.sections) expect(fillTemplate(section.bind ?? '', { name: 'x' })).toMatch(/^$|^[A-Za-z_][\w]*(\.[\w]+)*$/);
  });
});
