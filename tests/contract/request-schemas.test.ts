// The request bodies the server validates (server/core/body-validator.ts) have their schema files,
// and where a dashboard form sends a body it does not validate with the body's file itself (its
// fields are not the body's: a confirmation toggle, a token from the route), the form states the
// same rules for every field they share, so the two cannot drift apart again (a sign-in form once
// capped a password at 72 characters while the API took 255).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readForm } from '../../src/lib/schema/catalog-files';
import { ROOT } from '../../scripts/gen-docs';

type Json = Record<string, any>;
const SCHEMAS = path.join(ROOT, 'schemas');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every form name the server validates a body with: validateBody('x', …), bodyErrors('x', …), … */
const validatedNames = [
  ...new Set(
    sourceFiles(path.join(ROOT, 'server')).flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/\b(?:validateBody|bodyErrors|bodyErrorsWithMinLength|bodyErrorsOfVariant)\(\s*'([^']+)'/g)].map((m) => m[1]),
    ),
  ),
].sort();

const requestFiles = (function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
})(path.join(SCHEMAS, 'requests'))
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => path.relative(SCHEMAS, f).split(path.sep).join('/').replace(/\.schema\.json$/, ''));

it('finds the bodies the server validates', () => {
  expect(validatedNames).toEqual(expect.arrayContaining(['admins/login', 'requests/admins/create', 'requests/records/confirm-password-reset']));
});

it('has a schema file for every body the server validates, and the server uses every request file', () => {
  for (const name of validatedNames) expect(fs.existsSync(path.join(SCHEMAS, `${name}.schema.json`)), name).toBe(true);
  for (const name of requestFiles) expect(validatedNames, `schemas/${name}.schema.json is validated by nothing`).toContain(name);
});

/** The property schemas of a form, from its top level and its conditional branches (first wins). */
function properties(schema: Json): Record<string, Json> {
  const out: Record<string, Json> = {};
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const s = node as Json;
    for (const [k, v] of Object.entries<Json>(s.properties ?? {})) {
      const resolved = typeof v.$ref === 'string' ? v.$ref.replace(/^#\//, '').split('/').reduce((n: Json, key: string) => n?.[key], schema) : v;
      out[k] ??= resolved;
    }
    for (const k of ['then', 'else']) visit(s[k]);
  };
  visit(schema);
  return out;
}

const RULES = ['type', 'minLength', 'maxLength', 'format', 'pattern', 'minimum', 'maximum', 'enum', 'x-sameAs'];
/** What the API says about a failure: the form may word it its own way in x-form-messages. */
const API_WORDS = ['x-messages', 'x-codes'];

// dashboard form → the body files it sends
const SENDS: Record<string, string[]> = {
  'admins/installer': ['requests/admins/create'],
  'admins/admin-editor': ['requests/admins/create', 'requests/admins/update'],
  'admins/confirm-password-reset': ['requests/admins/confirm-password-reset'],
};

describe.each(Object.entries(SENDS))('%s', (form, bodies) => {
  it.each(bodies)('states the rules and API words of %s for every field they share', (body) => {
    const formProps = properties(readForm(SCHEMAS, form).schema);
    const bodyProps = properties(readForm(SCHEMAS, body).schema);
    const shared = Object.keys(formProps).filter((k) => k in bodyProps);
    expect(shared.length).toBeGreaterThan(1);
    for (const name of shared) {
      if (formProps[name].readOnly) continue; // shown, never sent
      // a confirmation's length is the form's hint; the API only checks that it matches
      const rules = formProps[name]['x-sameAs'] ? ['type', 'x-sameAs'] : RULES;
      for (const rule of [...rules, ...API_WORDS]) {
        const stated = (p: Json) => (rule === 'x-messages' && p['x-sameAs'] ? { 'x-sameAs': p[rule]?.['x-sameAs'] } : p[rule]);
        expect(stated(formProps[name]), `${form}.${name} ${rule} vs ${body}`).toEqual(stated(bodyProps[name]));
      }
    }
  });
});
