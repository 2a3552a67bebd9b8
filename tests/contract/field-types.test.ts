// A field type is one folder (src/fields/<type>/: field.ts for what it means, view.tsx for how the
// dashboard draws it) plus its options form (schemas/fields/<type>.*); the registries list the
// folders, and no other file switches on a field type. README.md "How to add a field type".
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { FIELD_DEFINITIONS } from '../../src/fields/registry';
import { isRecordUiTarget } from '../../src/fields/options-ui';
import { FIELD_VIEWS } from '../../src/fields/views';
import { FIELD_TYPE_NAMES } from '../../src/lib/collections/types';
import { isWidgetName } from '../../src/engine/ui-options';

const ROOT = path.resolve(__dirname, '../..');
const FIELDS = path.join(ROOT, 'src/fields');
const folders = fs
  .readdirSync(FIELDS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(FIELDS, d.name, 'field.ts')))
  .map((d) => d.name)
  .sort();
const types = FIELD_DEFINITIONS.map((d) => d.type);
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

describe('the field type registry', () => {
  it('lists every folder, and the views and the type names agree with it', () => {
    expect([...types].sort()).toEqual(folders);
    expect(Object.keys(FIELD_VIEWS).sort()).toEqual(folders);
    expect(FIELD_TYPE_NAMES).toEqual(types);
  });

  it.each(folders)('%s has its view and its options form, and draws records with a registered widget', (type) => {
    expect(fs.existsSync(path.join(FIELDS, type, 'view.tsx'))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, `schemas/fields/${type}.schema.json`))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, `schemas/fields/${type}.ui.json`))).toBe(true);
    const def = FIELD_DEFINITIONS.find((d) => d.type === type)!;
    const field = { name: 'f', type, required: false, options: def.defaultOptions() };
    expect(isWidgetName(def.record.widget, def.valueSchema(field)), def.record.widget).toBe(true);
  });

  it.each(folders)("%s: ui:record maps only options of its schema to a place on the record input", (type) => {
    const map = readJson(`schemas/fields/${type}.ui.json`)['ui:record'] ?? {};
    const props = Object.keys(readJson(`schemas/fields/${type}.schema.json`).properties ?? {});
    for (const [option, target] of Object.entries(map)) {
      expect(props, option).toContain(option);
      expect(isRecordUiTarget(target), `${option} → ${String(target)}`).toBe(true);
    }
  });
});

/** `case '<x>'` labels whose <x> is a field type's name but not a field type (file: why). */
const NOT_FIELD_TYPES: Record<string, string> = {
  'server/http/form-bind.ts': "a form value's bind kind (bool, json)",
  'server/query/filter-parser.ts': 'a filter token kind (text, number)',
  'server/collections/normalize.ts': "an option's Go type (bool, date)",
  'server/hooks/worker/namespaces/template/exec.ts': "a Go template node's or value's kind (text, number, bool)",
  'server/hooks/worker/namespaces/template/parse.ts': "a Go template node's kind (text, number, bool)",
  'server/hooks/worker/namespaces/template/values.ts': "a Go template value's kind (text, number, bool)",
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(d.name) ? [full] : [];
  });
}

/** The files under `dir` (outside the field folders and the allow-list) whose code matches `pattern`. */
function offendingFiles(dir: string, pattern: RegExp, allowed: Record<string, string>): string[] {
  return sourceFiles(path.join(ROOT, dir))
    .filter((file) => !file.startsWith(FIELDS + path.sep))
    .map((file) => path.relative(ROOT, file))
    .filter((file) => !Object.hasOwn(allowed, file))
    .filter((file) => pattern.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
}

describe('no file but a field folder switches on a field type', () => {
  const label = new RegExp(`case\\s+['"](${FIELD_TYPE_NAMES.join('|')})['"]\\s*:`);

  it('finds the switches it looks for', () => {
    // the check must be able to fail: a field folder's own code would be caught if it sat elsewhere
    expect(label.test("switch (field.type) {\n    case 'relation':")).toBe(true);
  });

  it.each(['src', 'server'])('%s/', (dir) => {
    expect(offendingFiles(dir, label, NOT_FIELD_TYPES)).toEqual([]);
  });

  it('keeps its allow-list honest (each file still has such a label, and is not about fields)', () => {
    for (const file of Object.keys(NOT_FIELD_TYPES)) expect(label.test(fs.readFileSync(path.join(ROOT, file), 'utf8')), file).toBe(true);
  });
});

/**
 * Files outside src/fields that compare a `.type` with a field type's name although it is no
 * field's type (file: why). A field's type is asked through its folder's guard (isRelationField,
 * isFileField, ...) or a capability of its definition (fieldDefinition(type).multiple, ...).
 */
const NOT_FIELD_COMPARISONS: Record<string, string> = {
  'server/http/backups.ts': "a multipart part's kind (file)",
  'server/http/records.ts': "a multipart part's kind (file)",
  'server/query/filter-compiler.ts': "a filter operand's kind (text, number)",
  'server/hooks/worker/namespaces/template/nodes.ts': "a Go template node's kind (text, number)",
  'server/hooks/worker/namespaces/template/parse.ts': "a Go template node's kind (text, number)",
  'src/engine/theme/BaseInputTemplate.tsx': "an input element's type (number, text)",
  'src/lib/dom-ids.ts': "a JSON schema's type (number)",
};

describe('no file but a field folder compares a field with a type name', () => {
  const names = FIELD_TYPE_NAMES.join('|');
  const comparison = new RegExp(`\\.type\\s*[!=]==?\\s*['"](${names})['"]|['"](${names})['"]\\s*[!=]==?\\s*[\\w?.]*\\.type\\b`);

  it('finds the comparisons it looks for', () => {
    for (const code of ["if (field.type === 'relation')", "f?.type !== 'file'", "'json' === field.type", 'x.type == "select"']) {
      expect(comparison.test(code), code).toBe(true);
    }
    expect(comparison.test("if (isRelationField(field) && c.type === 'auth')")).toBe(false);
  });

  it.each(['src', 'server'])('%s/', (dir) => {
    expect(offendingFiles(dir, comparison, NOT_FIELD_COMPARISONS)).toEqual([]);
  });

  it('keeps its allow-list honest (each file still has such a comparison)', () => {
    for (const file of Object.keys(NOT_FIELD_COMPARISONS)) expect(comparison.test(fs.readFileSync(path.join(ROOT, file), 'utf8')), file).toBe(true);
  });
});

describe("a field type's meaning and drawing stay apart (eslint.config.js zones)", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const layerErrors = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
  };

  it.each([
    ['src/lib/x.ts', "import { fieldView } from '../fields/views';"],
    ['src/fields/text/field.ts', "import { Icon } from '../../ui/icons';"],
    ['src/fields/registry.ts', "import { textView } from './text/view';"],
    ['server/records/x.ts', "import { FIELD_VIEWS } from '../../src/fields/views';"],
    ['src/fields/text/view.tsx', "import { pb } from '../../api/client';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toHaveLength(1);
  }, 30_000);

  it('lets lib and the server read the meaning, and a view draw with ui', async () => {
    expect(await layerErrors('src/lib/x.ts', "import { fieldDefinition } from '../fields/registry';")).toEqual([]);
    expect(await layerErrors('server/records/x.ts', "import { fieldDefinition } from '../../src/fields/registry';")).toEqual([]);
    expect(await layerErrors('src/fields/text/view.tsx', "import { Icon } from '../../ui/icons';")).toEqual([]);
  }, 30_000);
});
