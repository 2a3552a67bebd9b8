// Adding a field type is one folder, two schema files and three lines: on a copy of the tree, a
// `color` type (tests/contract/field-type-copy/: its field.ts and view.tsx, its options form) is
// registered as README.md "How to add a field type" says; then a server started from the copy's
// sources creates its column, normalises and validates its values with the type's own rules, and
// the copy's dashboard modules draw its record input, list cell, icon and API docs example, and
// `npm run docs` documents its options. No other file of the copy changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDocs, loadCatalog, ROOT } from '../../scripts/gen-docs';
import { http } from '../helpers/server';
import { spawnServer, type ServerProcess } from '../helpers/server-process';

const SOURCE = path.join(ROOT, 'tests/contract/field-type-copy');
const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-field-type-'));
for (const dir of ['src', 'server', 'schemas', 'screens']) fs.cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true, preserveTimestamps: true });
for (const f of ['package.json', 'tsconfig.json', 'tsconfig.base.json']) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

const at = (...parts: string[]) => path.join(copy, ...parts);
const edit = (file: string, from: string, to: string) => {
  const text = fs.readFileSync(at(file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file}: no ${JSON.stringify(from)}`);
  fs.writeFileSync(at(file), text.replace(from, to));
};
// 1. the folder
fs.mkdirSync(at('src/fields/color'));
fs.copyFileSync(path.join(SOURCE, 'field.ts.txt'), at('src/fields/color/field.ts'));
fs.copyFileSync(path.join(SOURCE, 'view.tsx.txt'), at('src/fields/color/view.tsx'));
// 2. its options form
fs.copyFileSync(path.join(SOURCE, 'color.schema.json'), at('schemas/fields/color.schema.json'));
fs.copyFileSync(path.join(SOURCE, 'color.ui.json'), at('schemas/fields/color.ui.json'));
// 3. the name, and a line in each registry
edit('src/lib/collections/types.ts', "  | 'relation';", "  | 'relation'\n  | 'color';");
edit('src/fields/registry.ts', "import { bool } from './bool/field';", "import { bool } from './bool/field';\nimport { color } from './color/field';");
edit('src/fields/registry.ts', 'file, relation]', 'file, relation, color]');
edit('src/fields/views.ts', "import { boolView } from './bool/view';", "import { boolView } from './bool/view';\nimport { colorView } from './color/view';");
edit('src/fields/views.ts', '  relation: relationView,', '  relation: relationView,\n  color: colorView,');

let srv: ServerProcess;
let token: string;
const collection = {
  name: 'swatches',
  type: 'base',
  schema: [
    { name: 'title', type: 'text', options: {} },
    { name: 'tint', type: 'color', required: true, options: {} },
  ],
};

beforeAll(async () => {
  fs.mkdirSync(at('pb_data'));
  srv = await spawnServer(process.execPath, ['--import', 'tsx', 'server/main.ts', 'serve', `--dir=${at('pb_data')}`], copy);
  await srv.waitHealthy(90_000);
  const admin = { email: 'admin@example.com', password: 'admin-password' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  token = (await http(srv.url, 'POST', '/api/admins/auth-with-password', { body: { identity: admin.email, password: admin.password } })).body.token;
}, 120_000);

afterAll(async () => {
  await srv?.stop();
  fs.rmSync(copy, { recursive: true, force: true });
});

describe('a new field type on a copy of the tree', () => {
  it('is a collection field the server stores, normalises and validates with its own rules', async () => {
    const created = await http(srv.url, 'POST', '/api/collections', { token, body: collection });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.schema[1]).toMatchObject({ name: 'tint', type: 'color', options: {} });

    const ok = await http(srv.url, 'POST', '/api/collections/swatches/records', { token, body: { title: 'sea', tint: ' #33AAFF ' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.tint).toBe('#33aaff');
    const listed = await http(srv.url, 'GET', `/api/collections/swatches/records?filter=${encodeURIComponent("tint='#33aaff'")}`, { token });
    expect(listed.body.totalItems).toBe(1);

    const bad = await http(srv.url, 'POST', '/api/collections/swatches/records', { token, body: { title: 'x', tint: 'red' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({ tint: { code: 'validation_invalid_color', message: 'Must be a colour such as #336699.' } });
    const missing = await http(srv.url, 'POST', '/api/collections/swatches/records', { token, body: { title: 'x' } });
    expect(missing.body.data).toEqual({ tint: { code: 'validation_required', message: 'Missing required value.' } });
  }, 30_000);

  it("is drawn by the copy's dashboard: record input, list cell, icon, API docs", async () => {
    const { recordFormSchema } = await import(at('src/lib/record-form.ts'));
    const form = recordFormSchema(collection, { isNew: true });
    expect(form.uiSchema.tint).toMatchObject({ 'ui:widget': 'recordText', 'ui:options': { fieldType: 'color', rows: 1 } });
    expect(form.schema.properties.tint).toMatchObject({ type: 'string', pattern: '^#[0-9a-f]{6}$' });

    const { recordColumns } = await import(at('src/lib/records/format.ts'));
    const column = recordColumns(collection).find((c: { name: string }) => c.name === 'tint');
    expect(column).toMatchObject({ type: 'color', sortable: true });
    const { RecordValue } = await import(at('src/pages/records/list/cells.tsx'));
    const ctx = { collection, collectionsById: new Map(), fileToken: '', baseUrl: 'http://x' };
    const cell = renderToStaticMarkup(createElement(RecordValue, { record: { id: 'r1', tint: '#336699' }, column, ctx }));
    expect(cell).toContain('class="rl-colour"');
    expect(cell).toContain('#336699');

    const { FieldTypeIcon } = await import(at('src/fields/FieldTypeIcon.tsx'));
    expect(renderToStaticMarkup(createElement(FieldTypeIcon, { type: 'color' }))).toContain('data-icon="colour"');
    const { FIELD_TYPES } = await import(at('src/lib/collections/fields.ts'));
    expect(FIELD_TYPES).toContainEqual({ type: 'color', label: 'Colour' });

    const { exampleRecord, responseFields } = await import(at('src/lib/api-docs/fields.ts'));
    expect(exampleRecord({ id: 'c1', ...collection })).toMatchObject({ tint: '#336699' });
    expect(responseFields({ id: 'c1', ...collection }, () => undefined, (key: string) => key)).toContainEqual(expect.objectContaining({ name: 'tint', type: 'String (#rrggbb)' }));
  }, 60_000);

  it('has its options documented', () => {
    const doc = generateDocs(loadCatalog(copy)).get('fields/color.md') ?? '';
    expect(doc).toContain('Colour field');
    expect(doc).toContain('Nonempty');
  });
});
