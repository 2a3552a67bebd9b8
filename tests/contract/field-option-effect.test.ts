// Making a field option take effect in the record editor is editing schema files only: on a copy
// of schemas/, a new `placeholder` option of the text field, mapped by the options UI schema's
// `ui:record` onto the record input, is stored by a server started on the copy and shown in the
// empty input of the record form built from the collection the server returns; without the
// mapping it stays a stored option only. README.md "How to make a field option take effect".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import RjsfForm from '../../src/engine/RjsfForm';
import { recordFormSchema } from '../../src/lib/record-form';
import type { RecordCollectionLike } from '../../src/lib/record-schema';
import { ROOT } from '../../scripts/gen-docs';
import type { TestServer } from '../helpers/server';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-field-option-'));
const schemasDir = path.join(root, 'schemas');
fs.cpSync(path.join(ROOT, 'schemas'), schemasDir, { recursive: true });
const file = (name: string) => path.join(schemasDir, name);
const read = (name: string) => JSON.parse(fs.readFileSync(file(name), 'utf8'));
const write = (name: string, json: unknown) => fs.writeFileSync(file(name), JSON.stringify(json, null, 2));
const originalUi = read('fields/text.ui.json');

// the two edits the README asks for: the option in the schema (with the editor's layout), and where it goes
const schema = read('fields/text.schema.json');
schema.properties.placeholder = { type: 'string', title: 'Placeholder', maxLength: 40 };
schema.properties.hint = { type: 'string', title: 'Hint', maxLength: 80 };
write('fields/text.schema.json', schema);
write('fields/text.ui.json', {
  ...originalUi,
  'ui:layout': [...originalUi['ui:layout'], ['placeholder', 'hint']],
  'ui:record': { placeholder: 'ui:placeholder', hint: 'ui:help' },
});

let srv: TestServer;
let token: string;
let http: typeof import('../helpers/server').http;

beforeAll(async () => {
  process.env.OUTPOST_SCHEMAS_DIR = schemasDir;
  const helpers = await import('../helpers/server');
  http = helpers.http;
  srv = await helpers.startServer();
  const admin = { email: 'admin@example.com', password: 'admin-password' };
  await http(srv.url, 'POST', '/api/admins', { body: { ...admin, passwordConfirm: admin.password } });
  token = (await srv.client().admins.authWithPassword(admin.email, admin.password)).token;
}, 60_000);

afterAll(async () => {
  delete process.env.OUTPOST_SCHEMAS_DIR;
  await srv?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const render = (collection: RecordCollectionLike, ui: Record<string, unknown>) => {
  const form = recordFormSchema(collection, { isNew: true, optionsUi: (type) => (type === 'text' ? ui : undefined) });
  return renderToStaticMarkup(createElement(RjsfForm, { schema: form.schema, uiSchema: form.uiSchema, formData: {} }));
};

describe('a text field option that takes effect', () => {
  let collection: RecordCollectionLike;

  it('is stored with the field and validated by its schema', async () => {
    const body = { name: 'notes', type: 'base', schema: [{ name: 'title', type: 'text', options: { placeholder: 'What is it about?', hint: 'Keep it short.' } }] };
    const created = await http(srv.url, 'POST', '/api/collections', { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    collection = (await http(srv.url, 'GET', `/api/collections/${created.body.id}`, { token })).body;
    expect(collection.schema[0].options).toMatchObject({ placeholder: 'What is it about?', hint: 'Keep it short.' });
    const bad = await http(srv.url, 'POST', '/api/collections', { token, body: { ...body, name: 'other', schema: [{ name: 'x', type: 'text', options: { placeholder: 'p'.repeat(41) } }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.schema[0].options.placeholder.code).toBe('validation_length_too_long');
  });

  it("reaches the record editor's input through ui:record", () => {
    const html = render(collection, read('fields/text.ui.json'));
    expect(html).toMatch(/<textarea id="root_title"[^>]*placeholder="What is it about\?"/);
    expect(html).toContain('Keep it short.');
  });

  it('does nothing in the record editor without the mapping', () => {
    const html = render(collection, originalUi);
    expect(html).not.toContain('What is it about?');
    expect(html).not.toContain('Keep it short.');
  });
});
