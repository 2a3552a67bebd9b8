// Adding a setting, a field option or an auth option is editing schema files only: on a temporary
// copy of schemas/, a new logs property (schema + UI schema) and a new secret, a new text field
// option and a new auth collection option are rendered by the engine, stored and returned by a
// server started on the copy (OUTPOST_SCHEMAS_DIR; the secret masked), validated with 0.22's error
// codes, and documented by `npm run docs` — with no code change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import RjsfForm from '../../src/engine/RjsfForm';
import { generateDocs, loadCatalog, ROOT } from '../../scripts/gen-docs';
import type { TestServer } from '../helpers/server';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-schema-copy-'));
const schemasDir = path.join(root, 'schemas');
fs.cpSync(path.join(ROOT, 'schemas'), schemasDir, { recursive: true });
fs.cpSync(path.join(ROOT, 'screens'), path.join(root, 'screens'), { recursive: true });

const edit = (file: string, change: (json: Record<string, any>) => void) => {
  const full = path.join(schemasDir, file);
  const json = JSON.parse(fs.readFileSync(full, 'utf8'));
  change(json);
  fs.writeFileSync(full, JSON.stringify(json, null, 2));
};
edit('settings/logs.schema.json', (s) => {
  s.properties.retentionNote = { type: 'string', title: 'Retention note', default: 'kept', maxLength: 10 };
  s.properties.archiveKey = { type: 'string', title: 'Archive key', default: '' };
});
edit('settings/logs.ui.json', (ui) => {
  ui.retentionNote = { 'ui:placeholder': 'Why logs are kept' };
  ui.archiveKey = { 'ui:widget': 'secret' };
});
edit('fields/text.schema.json', (s) => {
  s.properties.inputHint = { type: 'string', title: 'Input hint', maxLength: 20 };
});
edit('fields/text.ui.json', (ui) => {
  ui['ui:layout'].push(['inputHint']);
  ui.inputHint = { 'ui:placeholder': 'Shown while the input is empty' };
});
edit('collections/auth-options.schema.json', (s) => {
  s.properties.signUpNote = { type: 'string', title: 'Sign-up note', maxLength: 20 };
});
edit('collections/auth-options.ui.json', (ui) => {
  ui['ui:layout'].push(['signUpNote']);
  ui.signUpNote = { 'ui:placeholder': 'Shown on the sign-up form' };
});
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(schemasDir, file), 'utf8'));

let srv: TestServer;
let token: string;
let http: typeof import('../helpers/server').http;

beforeAll(async () => {
  // the server reads its schema folder when its modules load: point it at the copy first
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

describe('a new setting on a copy of schemas/', () => {
  it('is rendered by the engine', () => {
    const schema = read('settings/logs.schema.json');
    const uiSchema = read('settings/logs.ui.json');
    // the rjsf renderer: a modified schema has no build-time validator, so it is interpreted at run time
    const html = renderToStaticMarkup(createElement(RjsfForm, { schema, uiSchema, formData: { maxDays: 5, minLevel: 0 } }));
    expect(html).toContain('Retention note');
    expect(html).toContain('Why logs are kept');
    expect(html).toContain('Archive key');
  });

  it('is stored and returned (the secret masked), with its default on a fresh install', async () => {
    const fresh = await http(srv.url, 'GET', '/api/settings', { token });
    expect(fresh.body.logs).toMatchObject({ retentionNote: 'kept', archiveKey: '' });
    const saved = await http(srv.url, 'PATCH', '/api/settings', { token, body: { logs: { retentionNote: 'short', archiveKey: 'k3y-s3cret' } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const res = await http(srv.url, 'GET', '/api/settings', { token });
    expect(res.body.logs).toMatchObject({ retentionNote: 'short', archiveKey: '******' });
    expect(JSON.stringify(res.body)).not.toContain('k3y-s3cret');
  });

  it('is validated with its schema and 0.22 error codes', async () => {
    const bad = await http(srv.url, 'PATCH', '/api/settings', { token, body: { logs: { retentionNote: 'far too long a note' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({ logs: { retentionNote: { code: 'validation_length_too_long', message: 'Maximum 10 characters.' } } });
    const wrongType = await http(srv.url, 'PATCH', '/api/settings', { token, body: { logs: { retentionNote: 5 } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.data.logs.retentionNote.code).toBe('validation_invalid_type');
  });

  it('is documented', () => {
    const doc = generateDocs(loadCatalog(root)).get('settings/logs.md') ?? '';
    expect(doc).toContain('retentionNote');
    expect(doc).toContain('Retention note');
    expect(doc).toContain('archiveKey');
  });
});

describe('a new field option on a copy of schemas/', () => {
  const collection = (options: Record<string, unknown>) => ({
    name: `hints_${Math.random().toString(36).slice(2, 8)}`,
    type: 'base',
    schema: [{ name: 'title', type: 'text', options }],
  });

  it("is rendered in the collection editor's field options", () => {
    const schema = read('fields/text.schema.json');
    const uiSchema = read('fields/text.ui.json');
    const html = renderToStaticMarkup(createElement(RjsfForm, { schema, uiSchema, formData: { min: null, max: null, pattern: '', inputHint: 'Your title' } }));
    expect(html).toContain('Input hint');
    expect(html).toContain('Shown while the input is empty');
    expect(html).toContain('Your title');
  });

  it('is stored and returned with the field', async () => {
    const created = await http(srv.url, 'POST', '/api/collections', { token, body: collection({ max: 50, inputHint: 'Your title' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const res = await http(srv.url, 'GET', `/api/collections/${created.body.id}`, { token });
    expect(res.body.schema[0].options).toEqual({ min: null, max: 50, pattern: '', inputHint: 'Your title' });
  });

  it('is validated with its schema and 0.22 error codes', async () => {
    const bad = await http(srv.url, 'POST', '/api/collections', { token, body: collection({ inputHint: 'a hint far too long to fit' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({
      schema: { 0: { options: { inputHint: { code: 'validation_length_too_long', message: 'Maximum 20 characters.' } } } },
    });
    const wrongType = await http(srv.url, 'POST', '/api/collections', { token, body: collection({ inputHint: 5 }) });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.data.schema[0].options.inputHint.code).toBe('validation_invalid_type');
  });

  it('is documented', () => {
    const doc = generateDocs(loadCatalog(root)).get('fields/text.md') ?? '';
    expect(doc).toContain('inputHint');
    expect(doc).toContain('Input hint');
  });
});

describe('a new auth option on a copy of schemas/', () => {
  const collection = (options: Record<string, unknown>) => ({
    name: `members_${Math.random().toString(36).slice(2, 8)}`,
    type: 'auth',
    options: { allowEmailAuth: true, minPasswordLength: 8, ...options },
  });

  it("is rendered in the collection editor's options", () => {
    const schema = read('collections/auth-options.schema.json');
    const uiSchema = read('collections/auth-options.ui.json');
    const html = renderToStaticMarkup(createElement(RjsfForm, { schema, uiSchema, formData: { minPasswordLength: 8, signUpNote: 'Staff only' } }));
    expect(html).toContain('Sign-up note');
    expect(html).toContain('Shown on the sign-up form');
    expect(html).toContain('Staff only');
  });

  it('is stored and returned with the options', async () => {
    const created = await http(srv.url, 'POST', '/api/collections', { token, body: collection({ signUpNote: 'Staff only' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const res = await http(srv.url, 'GET', `/api/collections/${created.body.id}`, { token });
    expect(res.body.options).toMatchObject({ minPasswordLength: 8, signUpNote: 'Staff only' });
  });

  it('is validated with its schema and 0.22 error codes', async () => {
    const bad = await http(srv.url, 'POST', '/api/collections', { token, body: collection({ signUpNote: 'a note far too long to fit' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toEqual({ options: { signUpNote: { code: 'validation_length_too_long', message: 'Maximum 20 characters.' } } });
  });

  it('is documented', () => {
    const doc = generateDocs(loadCatalog(root)).get('collections/auth-options.md') ?? '';
    expect(doc).toContain('signUpNote');
    expect(doc).toContain('Sign-up note');
  });
});
